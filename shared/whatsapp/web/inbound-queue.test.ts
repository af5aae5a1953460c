import { describe, expect, it } from 'vitest';
import { BufferJSON } from 'baileys';
import { parseInbound } from './connector.ts';
import { fromQueueBody, MAX_BODY_BYTES, toQueueBodies, toQueueRecords } from './inbound-queue.ts';
import type { InboundEvent } from './types.ts';

const phone = { org_id: 'org_1', phone_id: 'waweb_1', org_phone: '15550001111' };
const ctx = { channel: { channelId: 'waweb_1', kind: 'wa_web_baileys' as const, tenantId: 'org_1' }, receivedAt: new Date(1_795_000_000_000), ownId: '15550001111' };
const JID = '919876543210@s.whatsapp.net';
const replacer = BufferJSON.replacer as (k: string, v: unknown) => unknown;
const reviver = BufferJSON.reviver as (k: string, v: unknown) => unknown;

describe('wa-web-inbound records (the worker → queue → consumer path)', () => {
  it('round-trips §C events: Dates as epoch ms, raw dropped, a media message keeps its Baileys key and message with Buffers (BufferJSON) but not its thumbnail', () => {
    const mediaKey = Buffer.from([0, 1, 2, 250, 255]);
    const events = [
      ...parseInbound(
        {
          event: 'messages.upsert',
          data: {
            messages: [
              { key: { remoteJid: JID, fromMe: false, id: 'T1' }, message: { conversation: 'hi' }, messageTimestamp: 1_795_000_000 },
              { key: { remoteJid: JID, fromMe: false, id: 'I1' }, message: { imageMessage: { mimetype: 'image/jpeg', mediaKey, fileSha256: Buffer.alloc(32, 3), directPath: '/v/t62/x', jpegThumbnail: Buffer.alloc(5000, 9) } }, messageTimestamp: 1_795_000_001 },
            ],
          },
        },
        ctx,
      ),
      ...parseInbound({ event: 'messages.update', data: [{ key: { remoteJid: JID, fromMe: true, id: 'OUT1' }, update: { status: 3, messageTimestamp: 1_795_000_002 } }] }, ctx),
    ];
    const bodies = toQueueBodies(phone, events, replacer);
    expect(bodies).toHaveLength(1);
    const back = fromQueueBody(bodies[0]!);
    expect(back.phone).toEqual(phone);
    expect(back.events.map((e) => e.kind)).toEqual(['message', 'message', 'status']);
    const [text, image, status] = back.events as [Extract<InboundEvent, { kind: 'message' }>, Extract<InboundEvent, { kind: 'message' }>, Extract<InboundEvent, { kind: 'status' }>];
    expect(text.sentAt).toEqual(new Date(1_795_000_000_000));
    expect(text.raw).toBeUndefined();
    expect({ ...text, raw: undefined }).toEqual({ ...events[0], raw: undefined });
    expect(status.at).toEqual(new Date(1_795_000_002_000));
    expect(status.raw).toBeUndefined();
    expect(typeof image.raw).toBe('string');
    expect(image.raw as string).not.toContain('jpegThumbnail');
    const raw = JSON.parse(image.raw as string, reviver) as { key: { id: string }; message: { imageMessage: { mediaKey: Buffer; directPath: string } } };
    expect(raw.key.id).toBe('I1');
    expect(Buffer.isBuffer(raw.message.imageMessage.mediaKey)).toBe(true);
    expect(raw.message.imageMessage.mediaKey.equals(mediaKey)).toBe(true);
    expect(raw.message.imageMessage.directPath).toBe('/v/t62/x');
  });

  it('splits a big socket event into records under the size limit, in order', () => {
    const messages = Array.from({ length: 30 }, (_, i) => ({ key: { remoteJid: JID, fromMe: false, id: `M${i}` }, message: { conversation: 'x'.repeat(20_000) }, messageTimestamp: 1_795_000_000 + i }));
    const bodies = toQueueBodies(phone, parseInbound({ event: 'messages.upsert', data: { messages } }, ctx), replacer);
    expect(bodies.length).toBeGreaterThan(1);
    for (const b of bodies) expect(Buffer.byteLength(b)).toBeLessThanOrEqual(MAX_BODY_BYTES + 1_000);
    expect(bodies.flatMap((b) => fromQueueBody(b).events.map((e) => (e as { providerMessageId: string }).providerMessageId))).toEqual(messages.map((m) => m.key.id));
  });

  it('puts each chat of a socket event in its own record, grouped by number and chat for the FIFO queue (issue 23 item 5)', () => {
    const GROUP = '120363000000000099@g.us';
    const messages = [
      { key: { remoteJid: GROUP, fromMe: false, id: 'G1', participant: '447700900001@s.whatsapp.net' }, message: { conversation: 'one' }, messageTimestamp: 1_795_000_000 },
      { key: { remoteJid: JID, fromMe: false, id: 'D1' }, message: { conversation: 'two' }, messageTimestamp: 1_795_000_001 },
      { key: { remoteJid: GROUP, fromMe: false, id: 'G2', participant: '447700900002@s.whatsapp.net' }, message: { conversation: 'three' }, messageTimestamp: 1_795_000_002 },
    ];
    const records = toQueueRecords(phone, parseInbound({ event: 'messages.upsert', data: { messages } }, ctx), replacer);
    expect(records.map((r) => r.groupId)).toEqual([`waweb_1:${GROUP}`, 'waweb_1:919876543210@c.us']);
    expect(records.map((r) => fromQueueBody(r.body).events.map((e) => (e as { providerMessageId: string }).providerMessageId))).toEqual([['G1', 'G2'], ['D1']]);
    expect(records[0]!.dedupeId).toMatch(/^[0-9a-f]{64}$/);
    expect(new Set(records.map((r) => r.dedupeId)).size).toBe(2);
  });

  it('refuses a body the worker did not write (the consumer drops it instead of retrying)', () => {
    expect(() => fromQueueBody('{"v":1,"phone":{"org_id":"o"},"events":[]}')).toThrow(/not a wa-web-inbound record/);
    expect(() => fromQueueBody(JSON.stringify({ v: 1, phone, events: [{ kind: 'message', providerMessageId: 'X' }] }))).toThrow(/not a wa-web-inbound record/);
  });
});
