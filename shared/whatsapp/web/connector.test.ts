import { describe, expect, it } from 'vitest';
import { parseInbound, WaWebConnector, chatRefOf, jidOfChat, toNumber, type Transport } from './connector.ts';
import { ConnectorError, type ChannelRef, type InboundEvent } from './types.ts';

// Hand-built Baileys payloads from the proto field names (whatsapp-protocols.md §B.4, §C.1 items 1, 2, 5).
const channel: ChannelRef = { channelId: 'waweb_1', kind: 'wa_web_baileys', tenantId: 'org_1' };
const ctx = { channel, receivedAt: new Date('2026-11-22T10:00:00Z'), ownId: '15550001111' };
const CUSTOMER = '919876543210@s.whatsapp.net';
const GROUP = '120363041234567890@g.us';
const TS = 1_795_000_000; // epoch s

const upsert = (...messages: unknown[]) => parseInbound({ event: 'messages.upsert', data: { type: 'notify', messages } }, ctx);
const one = <K extends InboundEvent['kind']>(events: InboundEvent[], kind: K) => {
  expect(events).toHaveLength(1);
  expect(events[0]!.kind).toBe(kind);
  return events[0] as Extract<InboundEvent, { kind: K }>;
};

describe('parseInbound: messages.upsert', () => {
  it('a conversation text from a person: chat as <digits>@c.us, sender, push name, time from messageTimestamp (s)', () => {
    const e = one(upsert({ key: { remoteJid: CUSTOMER, fromMe: false, id: '3EB0A1' }, message: { conversation: 'hello' }, messageTimestamp: TS, pushName: 'Asha' }), 'message');
    expect(e.chat).toEqual({ chatId: '919876543210@c.us', kind: 'direct', altIds: [CUSTOMER] });
    expect(e.sender).toEqual({ id: '919876543210', name: 'Asha' });
    expect(e.providerMessageId).toBe('3EB0A1');
    expect(e.fromMe).toBe(false);
    expect(e.sentAt.getTime()).toBe(TS * 1000);
    expect(e.content).toEqual({ type: 'text', text: 'hello' });
  });

  it('extended text with a quote (contextInfo.stanzaId) and a Long timestamp', () => {
    const e = one(
      upsert({
        key: { remoteJid: CUSTOMER, fromMe: false, id: 'R1' },
        message: { extendedTextMessage: { text: 'yes that one', contextInfo: { stanzaId: 'ORIG1', participant: CUSTOMER, quotedMessage: { conversation: 'which?' } } } },
        messageTimestamp: { low: TS, high: 0, unsigned: true },
      }),
      'message',
    );
    expect(e.content).toEqual({ type: 'text', text: 'yes that one' });
    expect(e.replyTo).toEqual({ providerMessageId: 'ORIG1', participant: '919876543210' });
    expect(e.sentAt.getTime()).toBe(TS * 1000);
  });

  it('media: image with caption and sha256, voice note (ptt), plain audio, document with file name, sticker, video', () => {
    const sha = Buffer.from('abc');
    const events = upsert(
      { key: { remoteJid: CUSTOMER, id: 'I1' }, message: { imageMessage: { url: 'https://mmg.whatsapp.net/x', mimetype: 'image/jpeg', caption: 'look', fileSha256: sha, fileLength: 2048, mediaKey: Buffer.from('k') } }, messageTimestamp: TS },
      { key: { remoteJid: CUSTOMER, id: 'A1' }, message: { audioMessage: { mimetype: 'audio/ogg; codecs=opus', ptt: true, fileLength: '900' } }, messageTimestamp: TS },
      { key: { remoteJid: CUSTOMER, id: 'A2' }, message: { audioMessage: { mimetype: 'audio/mpeg' } }, messageTimestamp: TS },
      { key: { remoteJid: CUSTOMER, id: 'D1' }, message: { documentWithCaptionMessage: { message: { documentMessage: { mimetype: 'application/pdf', fileName: 'invoice.pdf', caption: 'bill' } } } }, messageTimestamp: TS },
      { key: { remoteJid: CUSTOMER, id: 'S1' }, message: { stickerMessage: { mimetype: 'image/webp' } }, messageTimestamp: TS },
      { key: { remoteJid: CUSTOMER, id: 'V1' }, message: { videoMessage: { mimetype: 'video/mp4', caption: 'clip' } }, messageTimestamp: TS },
    );
    expect(events.map((e) => (e.kind === 'message' ? e.content.type : e.kind))).toEqual(['image', 'audio', 'audio', 'document', 'sticker', 'video']);
    const image = events[0] as Extract<InboundEvent, { kind: 'message' }>;
    expect(image.content).toMatchObject({ type: 'image', caption: 'look', media: { mimeType: 'image/jpeg', sha256: sha.toString('base64'), sizeBytes: 2048, url: 'https://mmg.whatsapp.net/x' } });
    expect((events[1] as Extract<InboundEvent, { kind: 'message' }>).content).toMatchObject({ type: 'audio', voice: true, media: { sizeBytes: 900 } });
    expect((events[2] as Extract<InboundEvent, { kind: 'message' }>).content).toMatchObject({ type: 'audio', voice: false });
    expect((events[3] as Extract<InboundEvent, { kind: 'message' }>).content).toMatchObject({ type: 'document', filename: 'invoice.pdf', caption: 'bill' });
  });

  it('location and contacts', () => {
    const [loc, card, cards] = upsert(
      { key: { remoteJid: CUSTOMER, id: 'L1' }, message: { locationMessage: { degreesLatitude: 12.97, degreesLongitude: 77.59, name: 'Office', address: 'MG Road' } }, messageTimestamp: TS },
      { key: { remoteJid: CUSTOMER, id: 'C1' }, message: { contactMessage: { displayName: 'Ravi', vcard: 'BEGIN:VCARD\nEND:VCARD' } }, messageTimestamp: TS },
      { key: { remoteJid: CUSTOMER, id: 'C2' }, message: { contactsArrayMessage: { contacts: [{ displayName: 'A' }, { displayName: 'B' }] } }, messageTimestamp: TS },
    ) as Array<Extract<InboundEvent, { kind: 'message' }>>;
    expect(loc!.content).toEqual({ type: 'location', lat: 12.97, lng: 77.59, name: 'Office', address: 'MG Road', url: undefined });
    expect(card!.content).toEqual({ type: 'contacts', contacts: [{ displayName: 'Ravi', vcard: 'BEGIN:VCARD\nEND:VCARD' }] });
    expect((cards!.content as { contacts: unknown[] }).contacts).toHaveLength(2);
  });

  it('fromMe (sent from the phone) and a group message with key.participant', () => {
    const [mine, group] = upsert(
      { key: { remoteJid: CUSTOMER, fromMe: true, id: 'M1' }, message: { conversation: 'sent from my phone' }, messageTimestamp: TS },
      { key: { remoteJid: GROUP, fromMe: false, id: 'G1', participant: '447700900123@s.whatsapp.net' }, message: { conversation: 'hi all' }, messageTimestamp: TS, pushName: 'Tom' },
    ) as Array<Extract<InboundEvent, { kind: 'message' }>>;
    expect(mine!.fromMe).toBe(true);
    expect(mine!.sender).toEqual({ id: '15550001111' });
    expect(group!.chat).toEqual({ chatId: GROUP, kind: 'group' });
    expect(group!.sender).toEqual({ id: '447700900123', name: 'Tom' });
  });

  it('LID addressing: the phone-number alternate names the chat and the sender', () => {
    const e = one(upsert({ key: { remoteJid: '123456789@lid', remoteJidAlt: CUSTOMER, id: 'L2' }, message: { conversation: 'x' }, messageTimestamp: TS }), 'message');
    expect(e.chat.chatId).toBe('919876543210@c.us');
    expect(e.chat.altIds).toContain('123456789@lid');
    expect(e.sender.id).toBe('919876543210');
  });

  it('forwarded and frequently forwarded', () => {
    const [a, b] = upsert(
      { key: { remoteJid: CUSTOMER, id: 'F1' }, message: { extendedTextMessage: { text: 'fwd', contextInfo: { isForwarded: true, forwardingScore: 1 } } }, messageTimestamp: TS },
      { key: { remoteJid: CUSTOMER, id: 'F2' }, message: { extendedTextMessage: { text: 'fwd', contextInfo: { isForwarded: true, forwardingScore: 7 } } }, messageTimestamp: TS },
    ) as Array<Extract<InboundEvent, { kind: 'message' }>>;
    expect(a!.forwarded).toBe('forwarded');
    expect(b!.forwarded).toBe('frequently_forwarded');
  });

  it('skips status broadcasts, stubs without content and protocol messages (taken from messages.update instead); unknown kinds are unsupported', () => {
    const events = upsert(
      { key: { remoteJid: 'status@broadcast', id: 'B1', participant: CUSTOMER }, message: { conversation: 'story' } },
      { key: { remoteJid: GROUP, id: 'ST1' }, messageStubType: 27 },
      { key: { remoteJid: CUSTOMER, id: 'P1' }, message: { protocolMessage: { type: 0, key: { remoteJid: CUSTOMER, id: 'X' } } } },
      { key: { remoteJid: CUSTOMER, id: 'U1' }, message: { orderMessage: { orderId: '1' } }, messageTimestamp: TS },
      { bogus: true },
      null,
    );
    expect(events).toHaveLength(1);
    expect((events[0] as Extract<InboundEvent, { kind: 'message' }>).content).toEqual({ type: 'unsupported', providerType: 'orderMessage' });
  });

  it('the "group created" stub (GROUP_CREATE, 20) is a system message in the group, so a new group reaches the inbox; only in groups', () => {
    const e = one(upsert({ key: { remoteJid: GROUP, fromMe: true, id: 'GC1', participant: '15550001111@s.whatsapp.net' }, messageStubType: 20, messageStubParameters: ['Launch club'], messageTimestamp: TS }), 'message');
    expect(e.chat).toMatchObject({ chatId: GROUP, kind: 'group' });
    expect(e).toMatchObject({ providerMessageId: 'GC1', fromMe: true, sender: { id: '15550001111' }, content: { type: 'system', text: 'Group “Launch club” created' } });
    expect(upsert({ key: { remoteJid: CUSTOMER, id: 'GC2' }, messageStubType: 20, messageStubParameters: ['x'] })).toEqual([]);
  });

  it('a reaction sent as a message (reactionMessage) is a reaction event', () => {
    const e = one(upsert({ key: { remoteJid: CUSTOMER, id: 'RX1' }, message: { reactionMessage: { key: { remoteJid: CUSTOMER, fromMe: true, id: 'OURS1' }, text: '👍', senderTimestampMs: TS * 1000 + 5 } }, messageTimestamp: TS }), 'reaction');
    expect(e).toMatchObject({ targetProviderMessageId: 'OURS1', emoji: '👍', sender: { id: '919876543210' }, fromMe: false });
    expect(e.at.getTime()).toBe(TS * 1000 + 5);
  });
});

describe('parseInbound: messages.update', () => {
  const update = (...u: unknown[]) => parseInbound({ event: 'messages.update', data: u }, ctx);

  it('status acks: ERROR 0 → failed, SERVER_ACK 2 → sent, DELIVERY_ACK 3 → delivered, READ 4 → read, PLAYED 5 → played', () => {
    const events = [0, 2, 3, 4, 5].flatMap((status) => update({ key: { remoteJid: CUSTOMER, fromMe: true, id: 'OUT1' }, update: { status } }));
    expect(events.map((e) => (e.kind === 'status' ? e.status : e.kind))).toEqual(['failed', 'sent', 'delivered', 'read', 'played']);
    expect(events[0]).toMatchObject({ providerMessageId: 'OUT1', recipientId: '919876543210', error: { retryable: false } });
  });

  it('an edit (editedMessage) carries the new content and the original id', () => {
    const e = one(update({ key: { remoteJid: CUSTOMER, fromMe: false, id: 'ORIG' }, update: { message: { editedMessage: { message: { conversation: 'fixed typo' } } }, messageTimestamp: TS + 60 } }), 'edit');
    expect(e).toMatchObject({ providerMessageId: 'ORIG', newContent: { type: 'text', text: 'fixed typo' } });
    expect(e.at.getTime()).toBe((TS + 60) * 1000);
  });

  it('an edit as protocolMessage MESSAGE_EDIT (14) targets protocolMessage.key', () => {
    const e = one(update({ key: { remoteJid: CUSTOMER, id: 'PM' }, update: { message: { protocolMessage: { type: 14, key: { remoteJid: CUSTOMER, id: 'ORIG2' }, editedMessage: { extendedTextMessage: { text: 'new' } }, timestampMs: TS * 1000 } } } }), 'edit');
    expect(e).toMatchObject({ providerMessageId: 'ORIG2', newContent: { type: 'text', text: 'new' } });
  });

  it('delete for everyone: the REVOKE stub (message null) and protocolMessage REVOKE (0)', () => {
    const stub = one(update({ key: { remoteJid: CUSTOMER, fromMe: false, id: 'GONE1' }, update: { message: null, messageStubType: 1, key: { remoteJid: CUSTOMER, id: 'GONE1' } } }), 'delete');
    expect(stub.providerMessageId).toBe('GONE1');
    const proto = one(update({ key: { remoteJid: GROUP, id: 'REV', participant: CUSTOMER }, update: { message: { protocolMessage: { type: 0, key: { remoteJid: GROUP, id: 'GONE2' } } } } }), 'delete');
    expect(proto).toMatchObject({ providerMessageId: 'GONE2', chat: { chatId: GROUP, kind: 'group' } });
  });

  it("who made an edit or delete is the update key's sender (the stanza's: group participant, the 1:1 person, or our phone), never the protocol message's target key", () => {
    const P = '447700900111@s.whatsapp.net';
    const edit = one(update({ key: { remoteJid: GROUP, fromMe: false, id: 'PM2', participant: P }, update: { message: { protocolMessage: { type: 14, key: { remoteJid: GROUP, id: 'T1', participant: CUSTOMER }, editedMessage: { conversation: 'x' } } } } }), 'edit');
    expect(edit).toMatchObject({ sender: { id: '447700900111' }, fromMe: false, providerMessageId: 'T1', chat: { chatId: GROUP } });
    const del = one(update({ key: { remoteJid: GROUP, fromMe: false, id: 'T2', participant: P }, update: { message: null, messageStubType: 1, key: { remoteJid: GROUP, id: 'REV2', participant: P } } }), 'delete');
    expect(del).toMatchObject({ sender: { id: '447700900111' }, fromMe: false, providerMessageId: 'T2' });
    const dm = one(update({ key: { remoteJid: CUSTOMER, fromMe: false, id: 'T3' }, update: { message: { editedMessage: { message: { conversation: 'y' } } } } }), 'edit');
    expect(dm).toMatchObject({ sender: { id: '919876543210' }, fromMe: false });
    const mine = one(update({ key: { remoteJid: CUSTOMER, fromMe: true, id: 'T4' }, update: { message: null, messageStubType: 1 } }), 'delete');
    expect(mine).toMatchObject({ sender: { id: ctx.ownId }, fromMe: true });
  });

  it('ignores updates without a key or without anything known', () => {
    expect(update({ update: { status: 3 } }, { key: { remoteJid: CUSTOMER, id: 'Z' }, update: { starred: true } }, 'junk')).toEqual([]);
  });
});

describe('parseInbound: messages.reaction and message-receipt.update', () => {
  it('a reaction and its removal (falsy text)', () => {
    const [add, remove] = parseInbound(
      {
        event: 'messages.reaction',
        data: [
          { key: { remoteJid: CUSTOMER, fromMe: true, id: 'OURS' }, reaction: { key: { remoteJid: CUSTOMER, fromMe: false, id: 'R9' }, text: '❤️', senderTimestampMs: 1000 } },
          { key: { remoteJid: CUSTOMER, fromMe: true, id: 'OURS' }, reaction: { key: { remoteJid: CUSTOMER, fromMe: false, id: 'R10' }, text: '', senderTimestampMs: 2000 } },
        ],
      },
      ctx,
    ) as Array<Extract<InboundEvent, { kind: 'reaction' }>>;
    expect(add).toMatchObject({ targetProviderMessageId: 'OURS', emoji: '❤️', sender: { id: '919876543210' } });
    expect(remove).toMatchObject({ targetProviderMessageId: 'OURS', emoji: null });
  });

  it("chat and reactor come from the reaction's own key (the stanza's); a target key naming another chat or person changes neither; no own key, no reaction", () => {
    const VICTIM = '919800000001@s.whatsapp.net';
    const events = parseInbound(
      {
        event: 'messages.reaction',
        data: [
          // the target key is the reactor's payload: it claims a group and another participant
          { key: { remoteJid: GROUP, fromMe: false, id: 'G-MSG', participant: VICTIM }, reaction: { key: { remoteJid: CUSTOMER, fromMe: false, id: 'R11' }, text: '👍', senderTimestampMs: 3000 } },
          { key: { remoteJid: VICTIM, fromMe: false, id: 'OTHER' }, reaction: { text: '👎', senderTimestampMs: 4000 } },
        ],
      },
      ctx,
    ) as Array<Extract<InboundEvent, { kind: 'reaction' }>>;
    expect(events).toHaveLength(1);
    expect(events[0]).toMatchObject({ chat: { chatId: '919876543210@c.us', kind: 'direct' }, sender: { id: '919876543210' }, targetProviderMessageId: 'G-MSG' });
  });

  it('a group participant receipt: read wins over delivered, played over read', () => {
    const events = parseInbound(
      {
        event: 'message-receipt.update',
        data: [
          { key: { remoteJid: GROUP, fromMe: true, id: 'G-OUT' }, receipt: { userJid: '447700900123@s.whatsapp.net', receiptTimestamp: TS } },
          { key: { remoteJid: GROUP, fromMe: true, id: 'G-OUT' }, receipt: { userJid: '447700900123@s.whatsapp.net', receiptTimestamp: TS, readTimestamp: TS + 5 } },
          { key: { remoteJid: GROUP, fromMe: true, id: 'G-OUT' }, receipt: { userJid: '447700900123@s.whatsapp.net', playedTimestamp: TS + 9 } },
        ],
      },
      ctx,
    );
    expect(events.map((e) => (e.kind === 'status' ? [e.status, e.recipientId, e.at.getTime()] : e.kind))).toEqual([
      ['delivered', '447700900123', TS * 1000],
      ['read', '447700900123', (TS + 5) * 1000],
      ['played', '447700900123', (TS + 9) * 1000],
    ]);
  });

  it('unknown events and garbage give nothing and never throw', () => {
    for (const raw of [null, 1, 'x', {}, { event: 'call', data: [] }, { event: 'messages.upsert', data: null }, { event: 'messages.update', data: { __proto__: { polluted: 1 } } }]) {
      expect(parseInbound(raw, ctx)).toEqual([]);
    }
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });
});

describe('helpers', () => {
  it('jids and chat ids map both ways; longs become numbers', () => {
    expect(chatRefOf('15551234567:3@s.whatsapp.net').chatId).toBe('15551234567@c.us');
    expect(jidOfChat('15551234567@c.us')).toBe('15551234567@s.whatsapp.net');
    expect(jidOfChat(GROUP)).toBe(GROUP);
    expect(toNumber({ low: 5, high: 1 })).toBe(2 ** 32 + 5);
    expect(toNumber('12')).toBe(12);
    expect(toNumber('x')).toBeUndefined();
  });
});

/** A transport that records what it was asked to do (§C.1 item 1). */
function recordingTransport(opts: { admins?: string[]; fail?: Error } = {}) {
  const calls: Array<{ op: string; args: unknown[] }> = [];
  let n = 0;
  const t: Transport = {
    async sendMessage(jid, content, options) {
      calls.push({ op: 'sendMessage', args: [jid, content, options] });
      if (opts.fail) throw opts.fail;
      return { key: { remoteJid: jid, fromMe: true, id: `SENT${++n}` } };
    },
    async readMessages(keys) {
      calls.push({ op: 'readMessages', args: [keys] });
    },
    async groupMetadata(jid) {
      calls.push({ op: 'groupMetadata', args: [jid] });
      return { participants: [{ id: '15550001111@s.whatsapp.net', admin: opts.admins?.includes('me') ? 'admin' : null }, { id: CUSTOMER, admin: null }] };
    },
    me: () => '15550001111:7@s.whatsapp.net',
  };
  return { t, calls };
}

describe('WaWebConnector outbound (Baileys shapes)', () => {
  const NOW = Date.parse('2026-11-22T10:00:00Z');
  const direct = chatRefOf(CUSTOMER);
  const group = chatRefOf(GROUP);
  const ours = (ageMs: number) => ({ providerMessageId: 'OURS', fromMe: true, sentAt: new Date(NOW - ageMs) });

  it('send text with a quote: { text } and options.quoted with the quoted key', async () => {
    const { t, calls } = recordingTransport();
    const res = await new WaWebConnector(t, () => NOW).send(direct, { type: 'text', text: 'hi' }, { replyTo: { providerMessageId: 'Q1', fromMe: false, sentAt: new Date(NOW), text: 'question' } });
    expect(res.providerMessageId).toBe('SENT1');
    expect(res.providerKey).toEqual({ remoteJid: CUSTOMER, fromMe: true, id: 'SENT1' });
    expect(calls).toEqual([{ op: 'sendMessage', args: [CUSTOMER, { text: 'hi' }, { quoted: { key: { remoteJid: CUSTOMER, fromMe: false, id: 'Q1' }, message: { conversation: 'question' } } }] }]);
  });

  it('send a file: image with caption, voice note as ptt audio', async () => {
    const { t, calls } = recordingTransport();
    const c = new WaWebConnector(t, () => NOW);
    await c.send(direct, { type: 'file', kind: 'image', bytes: new Uint8Array([1, 2]), mimeType: 'image/png', caption: 'pic' });
    await c.send(direct, { type: 'file', kind: 'audio', bytes: new Uint8Array([3]), mimeType: 'audio/ogg; codecs=opus', voice: true });
    expect(calls[0]!.args[1]).toEqual({ image: Buffer.from([1, 2]), mimetype: 'image/png', caption: 'pic' });
    expect(calls[1]!.args[1]).toEqual({ audio: Buffer.from([3]), mimetype: 'audio/ogg; codecs=opus', ptt: true });
  });

  it('edit within 15 minutes sends { text, edit: key }; at 15:01 it is refused before the transport (INVALID)', async () => {
    const { t, calls } = recordingTransport();
    const c = new WaWebConnector(t, () => NOW);
    await c.edit(direct, ours(14 * 60_000 + 59_000), 'fixed');
    expect(calls).toEqual([{ op: 'sendMessage', args: [CUSTOMER, { text: 'fixed', edit: { remoteJid: CUSTOMER, fromMe: true, id: 'OURS' } }, undefined] }]);
    await expect(c.edit(direct, ours(15 * 60_000 + 1_000), 'late')).rejects.toMatchObject({ code: 'INVALID', retryable: false });
    await expect(c.edit(direct, { ...ours(1000), fromMe: false }, 'theirs')).rejects.toBeInstanceOf(ConnectorError);
    expect(calls).toHaveLength(1);
  });

  it('delete within 48 hours sends { delete: key }; at 48:01 it is refused before the transport', async () => {
    const { t, calls } = recordingTransport();
    const c = new WaWebConnector(t, () => NOW);
    await c.delete(direct, ours(47 * 3_600_000 + 59 * 60_000));
    expect(calls[0]!.args[1]).toEqual({ delete: { remoteJid: CUSTOMER, fromMe: true, id: 'OURS' } });
    await expect(c.delete(direct, ours(48 * 3_600_000 + 60_000))).rejects.toMatchObject({ code: 'INVALID', reason: 'Cannot delete messages older than 48 hrs' });
    expect(calls).toHaveLength(1);
  });

  it("someone else's group message: deleted with key.participant when this number is admin, refused otherwise; never in a 1:1", async () => {
    const theirs = { providerMessageId: 'THEIRS', fromMe: false, participant: '919876543210', sentAt: new Date(NOW - 60_000) };
    const admin = recordingTransport({ admins: ['me'] });
    await new WaWebConnector(admin.t, () => NOW).delete(group, theirs);
    expect(admin.calls.map((c) => c.op)).toEqual(['groupMetadata', 'sendMessage']);
    expect(admin.calls[1]!.args[1]).toEqual({ delete: { remoteJid: GROUP, fromMe: false, id: 'THEIRS', participant: CUSTOMER } });
    const plain = recordingTransport();
    await expect(new WaWebConnector(plain.t, () => NOW).delete(group, theirs)).rejects.toMatchObject({ code: 'UNSUPPORTED' });
    expect(plain.calls.map((c) => c.op)).toEqual(['groupMetadata']);
    await expect(new WaWebConnector(plain.t, () => NOW).delete(direct, theirs)).rejects.toMatchObject({ code: 'UNSUPPORTED' });
  });

  it("react: { react: { text, key } }, '' removes; markRead passes the keys", async () => {
    const { t, calls } = recordingTransport();
    const c = new WaWebConnector(t, () => NOW);
    await c.react(direct, { providerMessageId: 'IN1', fromMe: false }, '🔥');
    await c.react(direct, { providerMessageId: 'IN1', fromMe: false }, null);
    await c.markRead(group, [{ providerMessageId: 'G1', participant: '447700900123' }]);
    expect(calls.map((x) => x.args[1])).toEqual([
      { react: { text: '🔥', key: { remoteJid: CUSTOMER, fromMe: false, id: 'IN1' } } },
      { react: { text: '', key: { remoteJid: CUSTOMER, fromMe: false, id: 'IN1' } } },
      undefined,
    ]);
    expect(calls[2]!.args[0]).toEqual([{ remoteJid: GROUP, fromMe: false, id: 'G1', participant: '447700900123@s.whatsapp.net' }]);
  });

  it('transport failures become retryable TRANSIENT errors', async () => {
    const { t } = recordingTransport({ fail: new Error('socket closed') });
    await expect(new WaWebConnector(t, () => NOW).send(direct, { type: 'text', text: 'x' })).rejects.toMatchObject({ code: 'TRANSIENT', retryable: true });
  });

  it('declares the wa_web capabilities', () => {
    const caps = new WaWebConnector(recordingTransport().t).capabilities();
    expect(caps).toMatchObject({ edit: true, delete: true, react: true, editWindowMs: 15 * 60_000, deleteWindowMs: 48 * 3_600_000 });
  });
});
