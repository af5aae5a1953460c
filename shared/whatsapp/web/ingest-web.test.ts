import { describe, expect, it } from 'vitest';
import { parseInbound } from './connector.ts';
import { changeOf, toNormalizedMessage } from './ingest-web.ts';
import { decideOnClose } from './baileys-socket.ts';
import type { InboundEvent } from './types.ts';

const ctx = { channel: { channelId: 'waweb_1', kind: 'wa_web_baileys' as const, tenantId: 'org_1' }, receivedAt: new Date(0), ownId: '15550001111' };
const JID = '919876543210@s.whatsapp.net';
const norm = (message: unknown, key: Record<string, unknown> = { remoteJid: JID, id: 'X1' }) =>
  toNormalizedMessage(parseInbound({ event: 'messages.upsert', data: { messages: [{ key, message, messageTimestamp: 1_795_000_000, pushName: 'Asha' }] } }, ctx)[0] as Extract<InboundEvent, { kind: 'message' }>);

describe('toNormalizedMessage: Baileys messages in the Cloud pipeline shape', () => {
  it('a text with a quote and forwarding', () => {
    expect(norm({ extendedTextMessage: { text: 'hi', contextInfo: { stanzaId: 'Q', participant: JID, isForwarded: true, forwardingScore: 2 } } })).toEqual({
      message_id: 'X1',
      chat_id: '919876543210@c.us',
      chat_type: 'user',
      sender_phone: '919876543210',
      author: 'Asha',
      timestamp: 1_795_000_000_000,
      message_type: 'text',
      body: 'hi',
      quoted_message: { message_id: 'Q', from: '919876543210' },
      forwarded: 'forwarded',
    });
  });

  it('voice note → ptt with media (no Graph media_id: the Cloud media-download consumer skips it, the session worker downloads it); document keeps file name and caption', () => {
    expect(norm({ audioMessage: { mimetype: 'audio/ogg; codecs=opus', ptt: true } })).toMatchObject({ message_type: 'ptt', media: { mimetype: 'audio/ogg; codecs=opus', voice: true, source: 'wa_web' } });
    expect(norm({ audioMessage: { mimetype: 'audio/ogg; codecs=opus', ptt: true } }).media).not.toHaveProperty('media_id');
    expect(norm({ documentMessage: { mimetype: 'application/pdf', fileName: 'a.pdf', caption: 'bill' } })).toMatchObject({ message_type: 'document', body: 'bill', media: { filename: 'a.pdf', caption: 'bill' } });
  });

  it('location, contacts, poll and unsupported keep their content; the phone’s own message is from_me', () => {
    expect(norm({ locationMessage: { degreesLatitude: 1, degreesLongitude: 2, name: 'Office' } })).toMatchObject({ message_type: 'location', body: 'Office', content: { location: { latitude: 1, longitude: 2, name: 'Office' } } });
    expect(norm({ contactMessage: { displayName: 'Ravi', vcard: 'V' } })).toMatchObject({ message_type: 'contacts', body: 'Ravi' });
    expect(norm({ pollCreationMessageV3: { name: 'Lunch?', options: [{ optionName: 'Yes' }, { optionName: 'No' }], selectableOptionsCount: 1 } })).toMatchObject({ message_type: 'poll_creation', body: 'Lunch?', content: { poll: { options: ['Yes', 'No'], multi: false } } });
    expect(norm({ buttonsMessage: {} })).toMatchObject({ message_type: 'unsupported', content: { unsupported: { type: 'buttonsMessage' } } });
    expect(norm({ conversation: 'from my phone' }, { remoteJid: JID, id: 'M1', fromMe: true })).toMatchObject({ from_me: true, sender_phone: '15550001111', author: undefined });
  });

  it('a group message: group chat, participant as sender', () => {
    expect(norm({ conversation: 'hey' }, { remoteJid: '1203@g.us', id: 'G1', participant: '447700900123@s.whatsapp.net' })).toMatchObject({ chat_id: '1203@g.us', chat_type: 'group', sender_phone: '447700900123' });
  });

  it('a reaction becomes a reaction message with its target and emoji (null = removed)', () => {
    const [e] = parseInbound({ event: 'messages.reaction', data: [{ key: { remoteJid: JID, fromMe: true, id: 'OURS' }, reaction: { key: { remoteJid: JID, id: 'R1' }, text: '', senderTimestampMs: 5 } }] }, ctx);
    expect(toNormalizedMessage(e as Extract<InboundEvent, { kind: 'reaction' }>)).toMatchObject({ message_type: 'reaction', reaction: { target_message_id: 'OURS', emoji: null }, sender_phone: '919876543210', timestamp: 5 });
  });
});

describe('decideOnClose (whatsapp-protocols.md §B.3, §C.1 item 3)', () => {
  it('never reconnects after loggedOut (401); stops on connectionReplaced (440) and forbidden (403); restarts at once on 515', () => {
    expect(decideOnClose(401, 0)).toEqual({ action: 'logged_out' });
    expect(decideOnClose(440, 0)).toMatchObject({ action: 'stop' });
    expect(decideOnClose(403, 0)).toMatchObject({ action: 'stop' });
    expect(decideOnClose(515, 3)).toEqual({ action: 'reconnect', delayMs: 0 });
  });

  it('reconnects on anything else with backoff from 1 s, capped at 60 s', () => {
    for (const code of [408, 428, 500, 503, 411, undefined]) expect(decideOnClose(code, 0)).toEqual({ action: 'reconnect', delayMs: 1000 });
    expect(decideOnClose(428, 3)).toEqual({ action: 'reconnect', delayMs: 8000 });
    expect(decideOnClose(428, 20)).toEqual({ action: 'reconnect', delayMs: 60_000 });
  });
});

describe('changeOf: who made an edit or delete, for protocol.rules.ts', () => {
  const phone = { org_id: 'org_1', phone_id: 'waweb_1', org_phone: '15550009999' };
  const update = (key: Record<string, unknown>) => parseInbound({ event: 'messages.update', data: [{ key, update: { message: null, messageStubType: 1 } }] }, ctx)[0] as Extract<InboundEvent, { kind: 'delete' }>;

  it("a customer's or participant's is their digits in the stanza's chat", () => {
    expect(changeOf(phone, update({ remoteJid: JID, fromMe: false, id: 'M1' }))).toEqual({ chat_id: '919876543210@c.us', sender: '919876543210', from_me: false });
    expect(changeOf(phone, update({ remoteJid: '120363000000000001@g.us', fromMe: false, id: 'M2', participant: '447700900111@s.whatsapp.net' }))).toEqual({ chat_id: '120363000000000001@g.us', sender: '447700900111', from_me: false });
  });

  it("ours (made on the number's phone) is the number's own digits, whatever the session's own id says", () => {
    expect(changeOf(phone, update({ remoteJid: JID, fromMe: true, id: 'M3' }))).toEqual({ chat_id: '919876543210@c.us', sender: '15550009999', from_me: true });
  });

  it('an event queued without a sender names nobody (so every rule refuses it)', () => {
    const e = update({ remoteJid: JID, fromMe: false, id: 'M4' });
    expect(changeOf(phone, { ...e, sender: undefined } as never)).toEqual({ chat_id: '919876543210@c.us', sender: '', from_me: false });
  });
});
