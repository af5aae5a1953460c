import { describe, expect, it } from 'vitest';
import { mediaMessageBody, textMessageBody } from './graph-client.ts';
import { explainGraphError } from './errors.ts';

describe('textMessageBody (Meta "Send messages": text)', () => {
  it('a plain text message', () => {
    expect(textMessageBody({ to: '16505551234', recipient_type: 'individual' }, 'Hello')).toEqual({ messaging_product: 'whatsapp', recipient_type: 'individual', to: '16505551234', type: 'text', text: { preview_url: false, body: 'Hello' } });
  });
  it('a reply carries context.message_id', () => {
    expect(textMessageBody({ to: '1', recipient_type: 'individual' }, 'ok', 'wamid.A')).toMatchObject({ context: { message_id: 'wamid.A' } });
  });
  it('a group message uses recipient_type group', () => {
    expect(textMessageBody({ to: 'G1', recipient_type: 'group' }, 'hi all')).toMatchObject({ recipient_type: 'group', to: 'G1' });
  });
  it('a customer known only by BSUID is addressed with recipient, never to (Meta "Business-scoped user IDs")', () => {
    const body = textMessageBody({ recipient: 'BR.17730000000000000001', recipient_type: 'individual' }, 'Hello');
    expect(body).toEqual({ messaging_product: 'whatsapp', recipient_type: 'individual', recipient: 'BR.17730000000000000001', type: 'text', text: { preview_url: false, body: 'Hello' } });
    expect(body).not.toHaveProperty('to');
  });
});

describe('mediaMessageBody (Meta "Send messages": media by id)', () => {
  it('a document to a BSUID carries recipient, caption and filename', () => {
    expect(mediaMessageBody({ recipient: 'BR.17730000000000000001', recipient_type: 'individual' }, 'document', { id: 'm1', caption: 'Invoice', filename: 'a.pdf' })).toEqual({
      messaging_product: 'whatsapp',
      recipient_type: 'individual',
      recipient: 'BR.17730000000000000001',
      type: 'document',
      document: { id: 'm1', caption: 'Invoice', filename: 'a.pdf' },
    });
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
