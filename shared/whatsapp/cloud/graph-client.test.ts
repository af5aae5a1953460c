import { describe, expect, it } from 'vitest';
import { textMessageBody } from './graph-client.ts';
import { explainGraphError } from './errors.ts';

describe('textMessageBody (Meta "Send messages": text)', () => {
  it('a plain text message', () => {
    expect(textMessageBody('16505551234', 'Hello')).toEqual({ messaging_product: 'whatsapp', recipient_type: 'individual', to: '16505551234', type: 'text', text: { preview_url: false, body: 'Hello' } });
  });
  it('a reply carries context.message_id', () => {
    expect(textMessageBody('1', 'ok', 'wamid.A')).toMatchObject({ context: { message_id: 'wamid.A' } });
  });
  it('a group message uses recipient_type group', () => {
    expect(textMessageBody('G1', 'hi all', undefined, 'group')).toMatchObject({ recipient_type: 'group', to: 'G1' });
  });
});

describe('explainGraphError', () => {
  it('window closed is final, rate limits are retried, unknown codes are final', () => {
    expect(explainGraphError(131047)).toMatchObject({ retryable: false, reason: expect.stringMatching(/24 hours/) });
    expect(explainGraphError(130429).retryable).toBe(true);
    expect(explainGraphError(131056).retryable).toBe(true);
    expect(explainGraphError(999999, 'Odd')).toEqual({ reason: 'WhatsApp could not send this message (Odd).', retryable: false });
  });
});
