import { describe, expect, it } from 'vitest';
import { splitWebhookBody } from './split.ts';
import { normalizeWebhook } from './normalize.ts';
import { inboundText, envelope, newWamid } from './payloads.ts';

const phone = { phone_number_id: '1', display_phone_number: '2' };

describe('splitWebhookBody', () => {
  it('keeps a small body whole', () => {
    const body = inboundText(phone, '3', 'hi');
    expect(splitWebhookBody(body, 1_000_000).map((s) => JSON.parse(s))).toEqual([body]);
  });

  it('splits 1000 updates into parts under the limit and loses none', () => {
    const messages = Array.from({ length: 1000 }, (_, i) => ({ from: '3', id: newWamid(), timestamp: '1790000000', type: 'text', text: { body: `m${i} ${'x'.repeat(400)}` } }));
    const body = envelope(phone, { contacts: [{ wa_id: '3', profile: { name: 'C' } }], messages });
    const parts = splitWebhookBody(body, 100_000);
    expect(parts.length).toBeGreaterThan(4);
    for (const p of parts) expect(Buffer.byteLength(p)).toBeLessThanOrEqual(100_000);
    const ids = parts.flatMap((p) => normalizeWebhook(JSON.parse(p)).map((i) => (i.kind === 'message' ? i.message.message_id : '')));
    expect(ids).toEqual(messages.map((m) => m.id));
    // contacts (profile names) travel with every part
    expect(normalizeWebhook(JSON.parse(parts[3]))[0]).toMatchObject({ message: { author: 'C' } });
  });
});
