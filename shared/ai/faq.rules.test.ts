import { describe, expect, it } from 'vitest';
import { customerText, faqAssetKey, faqTooShort, instructionFlags, instructionsOf, isAudioAttachment } from './faq.rules.ts';
import { FaqInput } from './ai.schemas.ts';

describe('instructions inside the answer (spec §3)', () => {
  it('are removed from what customers see, wherever they are', () => {
    expect(customerText('Shipping is 5 EUR. <instructions>Be brief.</instructions> Free over 60.')).toBe('Shipping is 5 EUR. Free over 60.');
    expect(customerText('<INSTRUCTIONS>one</INSTRUCTIONS>Hello there<instructions>two</instructions>')).toBe('Hello there');
  });
  it('an unclosed tag hides the rest (fail closed)', () => {
    expect(customerText('Hello. <instructions>never show this')).toBe('Hello.');
  });
  it('are read for the agent, and a hand-off instruction is recognised', () => {
    expect(instructionsOf('A <instructions> hand off to a human </instructions> B <instructions></instructions>')).toEqual(['hand off to a human']);
    expect(instructionFlags('x <instructions>Always hand off.</instructions>').handoff).toBe(true);
    expect(instructionFlags('x <instructions>Be brief.</instructions>').handoff).toBe(false);
    const conditional = 'x <instructions>Be kind. If the customer asks about a stain, hand off to a human.</instructions>';
    expect(instructionFlags(conditional).handoff).toBe(false);
    expect(instructionFlags(conditional, (c) => c.includes('stain')).handoff).toBe(true);
  });
});

describe('limits (spec §5)', () => {
  it('question and answer at least 10 characters, with the exact message', () => {
    expect(faqTooShort('123456789', 'long enough answer')).toBe(true);
    expect(faqTooShort('1234567890', '1234567890')).toBe(false);
    const r = FaqInput.safeParse({ question: 'short', answer: 'also short' });
    expect(r.success).toBe(false);
    expect(r.error!.issues[0]!.message).toBe('Question and answer must be at least 10 characters long');
  });
  it('one attachment, no audio', () => {
    const a = { url: 'https://x/a.pdf', type: 'document', name: 'a.pdf' };
    expect(FaqInput.safeParse({ question: 'A question here', answer: 'An answer here', attachments: [a, a] }).success).toBe(false);
    expect(isAudioAttachment({ type: 'audio/mpeg', name: 'a.bin' })).toBe(true);
    expect(isAudioAttachment({ type: 'document', name: 'song.mp3' })).toBe(true);
    expect(isAudioAttachment({ type: 'image/png', name: 'a.png' })).toBe(false);
  });
  it('attachments are stored under {org_id}/ai_assets/{context_id}/ (spec §7)', () => {
    expect(faqAssetKey('org1', '01ABC', 'My file (1).pdf')).toBe('org1/ai_assets/01ABC/My_file_1_.pdf');
  });
});
