import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { deadLetterReason, errorInWords } from './dead-letter.rules.ts';

describe('dead letters in words', () => {
  it('turns a ZodError message into field paths and reasons', () => {
    const r = z.object({ body: z.object({ ack: z.number().max(4) }) }).safeParse({ body: { ack: 9 } });
    expect(r.success).toBe(false);
    expect(errorInWords(r.error!.message)).toBe('the record does not match its schema (body.ack: Number must be less than or equal to 4)');
  });

  it('says how many issues it left out', () => {
    const r = z.object({ a: z.string(), b: z.string(), c: z.string(), d: z.string() }).safeParse({});
    expect(errorInWords(r.error!.message)).toMatch(/a: Required; b: Required; c: Required; and 1 more\)$/);
  });

  it('keeps plain errors and trims long ones', () => {
    expect(errorInWords('Graph API answered 500')).toBe('Graph API answered 500');
    expect(errorInWords('x'.repeat(400))).toHaveLength(300);
    expect(errorInWords('  ')).toBe('the consumer reported the record as failed without a reason');
    expect(errorInWords('[not json')).toBe('[not json');
  });

  it('names the queue and the attempts', () => {
    expect(deadLetterReason('media-download', 5, 'Graph API answered 500')).toBe('media-download gave up after 5 attempts. Last error: Graph API answered 500');
    expect(deadLetterReason('chat-bulk', 1, 'boom')).toBe('chat-bulk gave up after 1 attempt. Last error: boom');
  });
});
