import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { linkWaWebNumber } from '../factories/wa-web.ts';
import { startTestRuntime, type TestRuntime } from '../factories/runtime.ts';
import type { Message } from '../../shared/message/message.schemas.ts';
import type { Chat } from '../../shared/chat/chat.schemas.ts';

/**
 * WhatsApp Web protocol messages (issue 11 item 5; shared/whatsapp/web/protocol.rules.ts) sent
 * through the local WhatsApp Web stand-in as Baileys events, so the connector, the wa-web-inbound
 * queue and the storing pipeline all take part:
 * - an edit applies only from the message's author, in the message's chat;
 * - a revoke (delete for everyone) only from the author, or from a group admin in a group;
 * - a reaction only counts as its sender's, on a message of the chat it was sent in.
 * A WhatsApp message id is chosen by the sending client and group ids are seen by every
 * participant, so each case names a real message id from the wrong place or person.
 */
let rt: TestRuntime;
let admin: string;
const PHONE = 'waweb_proto_1';
const OWN = '15550007777';
const CUST_A = '919811100001';
const CUST_B = '919811100002';
const GROUP = '120363000000000077@g.us';
const P1 = '447700900001'; // a participant, author of the group messages
const P2 = '447700900002'; // a group admin
const P3 = '447700900003'; // a participant, not an admin
const jid = (n: string) => `${n}@s.whatsapp.net`;
const chatOf = (n: string) => `${n}@c.us`;
const enc = encodeURIComponent;
const TS = () => Math.floor(Date.now() / 1000);

const inject = async (event: string, data: unknown) => {
  rt.waWeb.inject(PHONE, { event, data } as never);
  await rt.waWebWorker.idle();
  await rt.idle();
};
const messagesOf = async (chatId: string) => (await rt.orgJson<{ messages: Message[] }>(admin, `/chats/${enc(chatId)}/messages`)).messages;
const byId = async (chatId: string, id: string) => (await messagesOf(chatId)).find((m) => m.message_id === id)!;
const text = (remoteJid: string, id: string, body: string, extra: Record<string, unknown> = {}) => ({ key: { remoteJid, fromMe: false, id, ...extra }, message: { conversation: body }, messageTimestamp: TS(), pushName: 'Someone' });

/** Baileys' messages.update of an edit: the key is the edit stanza's (who sent it, where) with the edited message's id. */
const edit = (remoteJid: string, id: string, body: string, extra: Record<string, unknown> = {}) => ({ key: { remoteJid, fromMe: false, id, ...extra }, update: { message: { editedMessage: { message: { conversation: body } } }, messageTimestamp: TS() } });
/** Baileys' messages.update of a revoke: the REVOKE stub, the key as for edits. */
const revoke = (remoteJid: string, id: string, extra: Record<string, unknown> = {}) => ({ key: { remoteJid, fromMe: false, id, ...extra }, update: { message: null, messageStubType: 1, key: { remoteJid, fromMe: false, id: `REV-${id}`, ...extra } } });

beforeAll(async () => {
  rt = await startTestRuntime();
  admin = await rt.signIn(rt.adminEmail);
  await linkWaWebNumber(rt, PHONE, OWN);
  rt.waWeb.setGroup(GROUP, {
    subject: 'Orders',
    participants: [
      { id: jid(OWN), admin: null },
      { id: jid(P1), admin: null },
      { id: jid(P2), admin: 'admin' },
      { id: jid(P3), admin: null },
    ],
  });
  await inject('messages.upsert', {
    type: 'notify',
    messages: [
      text(jid(CUST_A), 'A-1', 'Deliver to 1 Main St'),
      text(jid(CUST_A), 'A-2', 'Please call me'),
      text(jid(CUST_B), 'B-1', 'Hello from B'),
      text(GROUP, 'G-1', 'Group order: 3 boxes', { participant: jid(P1) }),
      text(GROUP, 'G-2', 'Group order: 4 boxes', { participant: jid(P1) }),
    ],
  });
  // a message of ours, typed on the number's phone
  await inject('messages.upsert', { type: 'append', messages: [{ key: { remoteJid: jid(CUST_A), fromMe: true, id: 'OUR-1' }, message: { conversation: 'Your refund is 40 EUR' }, messageTimestamp: TS() }] });
  // the worker read the group's admins after its first message
  const chat = (await rt.orgJson<{ chat: Chat }>(admin, `/chats/${enc(GROUP)}`)).chat;
  expect(chat.group_metadata?.admins).toEqual([P2]);
}, 120_000);

afterAll(async () => {
  await rt?.cleanup();
});

describe('edits apply only from the author, in the same chat', () => {
  it("another customer's edit naming a message of someone else's chat is refused", async () => {
    await inject('messages.update', [edit(jid(CUST_B), 'A-1', 'Deliver to 666 Fake St')]);
    expect(await byId(chatOf(CUST_A), 'A-1')).toMatchObject({ body: 'Deliver to 1 Main St' });
    expect((await byId(chatOf(CUST_A), 'A-1')).edited_at ?? null).toBeNull();
  });

  it('a customer cannot edit our message in their chat', async () => {
    await inject('messages.update', [edit(jid(CUST_A), 'OUR-1', 'Your refund is 4000 EUR')]);
    expect(await byId(chatOf(CUST_A), 'OUR-1')).toMatchObject({ body: 'Your refund is 40 EUR', from_me: true });
  });

  it("a group participant cannot edit another participant's message, also not through a protocol message whose target key names the author", async () => {
    await inject('messages.update', [edit(GROUP, 'G-1', 'Group order: 300 boxes', { participant: jid(P3) })]);
    await inject('messages.update', [
      { key: { remoteJid: GROUP, fromMe: false, id: 'PM-1', participant: jid(P3) }, update: { message: { protocolMessage: { type: 14, key: { remoteJid: GROUP, id: 'G-1', participant: jid(P1) }, editedMessage: { conversation: 'Group order: 30 boxes' } } } } },
    ]);
    expect(await byId(GROUP, 'G-1')).toMatchObject({ body: 'Group order: 3 boxes' });
  });

  it("the author's own edit applies (in a group and in a 1:1 chat), and ours from the phone", async () => {
    await inject('messages.update', [edit(GROUP, 'G-1', 'Group order: 5 boxes', { participant: jid(P1) })]);
    expect(await byId(GROUP, 'G-1')).toMatchObject({ body: 'Group order: 5 boxes' });
    await inject('messages.update', [edit(jid(CUST_A), 'A-1', 'Deliver to 2 Main St')]);
    expect(await byId(chatOf(CUST_A), 'A-1')).toMatchObject({ body: 'Deliver to 2 Main St', edit_history: [expect.objectContaining({ body: 'Deliver to 1 Main St', edited_by: `whatsapp:${CUST_A}` })] });
    await inject('messages.update', [{ ...edit(jid(CUST_A), 'OUR-1', 'Your refund is 45 EUR'), key: { remoteJid: jid(CUST_A), fromMe: true, id: 'OUR-1' } }]);
    expect(await byId(chatOf(CUST_A), 'OUR-1')).toMatchObject({ body: 'Your refund is 45 EUR' });
  });
});

describe('changes that arrive before their message (issue 23 item 2)', () => {
  it("an edit that comes first waits for the message, then applies to it", async () => {
    await inject('messages.update', [edit(GROUP, 'G-EARLY', 'Group order: 9 boxes', { participant: jid(P1) })]);
    await inject('messages.upsert', { type: 'notify', messages: [text(GROUP, 'G-EARLY', 'Group order: 8 boxes', { participant: jid(P1) })] });
    const m = await byId(GROUP, 'G-EARLY');
    expect(m).toMatchObject({ body: 'Group order: 9 boxes', edit_history: [expect.objectContaining({ body: 'Group order: 8 boxes', edited_by: `whatsapp:${P1}` })] });
  });

  it('an early edit from someone who is not the author is still refused when its message arrives', async () => {
    await inject('messages.update', [edit(GROUP, 'G-EARLY-2', 'Group order: 900 boxes', { participant: jid(P3) })]);
    await inject('messages.upsert', { type: 'notify', messages: [text(GROUP, 'G-EARLY-2', 'Group order: 2 boxes', { participant: jid(P1) })] });
    expect(await byId(GROUP, 'G-EARLY-2')).toMatchObject({ body: 'Group order: 2 boxes' });
  });
});

describe('revokes apply only from the author, or a group admin in a group', () => {
  it('a revoke from another chat is refused', async () => {
    await inject('messages.update', [revoke(jid(CUST_B), 'A-2')]);
    expect(await byId(chatOf(CUST_A), 'A-2')).toMatchObject({ body: 'Please call me' });
    expect((await byId(chatOf(CUST_A), 'A-2')).is_deleted ?? false).toBe(false);
  });

  it('a customer cannot delete our message in a 1:1 chat (no admins there)', async () => {
    await inject('messages.update', [revoke(jid(CUST_A), 'OUR-1')]);
    expect((await byId(chatOf(CUST_A), 'OUR-1')).is_deleted ?? false).toBe(false);
  });

  it("a participant who is not an admin cannot delete another's group message; a group admin can", async () => {
    await inject('messages.update', [revoke(GROUP, 'G-2', { participant: jid(P3) })]);
    expect((await byId(GROUP, 'G-2')).is_deleted ?? false).toBe(false);
    await inject('messages.update', [revoke(GROUP, 'G-2', { participant: jid(P2) })]);
    expect(await byId(GROUP, 'G-2')).toMatchObject({ is_deleted: true, deleted_by: `whatsapp:${P2}`, body: 'Group order: 4 boxes' });
  });

  it("the author's own revoke applies", async () => {
    await inject('messages.update', [revoke(jid(CUST_A), 'A-2')]);
    expect(await byId(chatOf(CUST_A), 'A-2')).toMatchObject({ is_deleted: true, deleted_by: `whatsapp:${CUST_A}` });
  });
});

describe("a reaction counts only as its sender's own, on a message of its chat", () => {
  const reactions = async (chatId: string, id: string) => ((await byId(chatId, id)).reactions ?? {}) as Record<string, { reaction: string }>;

  it('a reaction whose target key names a message of another chat (and another person) changes nothing there', async () => {
    // sent by B in B's chat (the stanza's key); the payload's target key claims the group and P1
    await inject('messages.reaction', [{ key: { remoteJid: GROUP, fromMe: false, id: 'G-1', participant: jid(P1) }, reaction: { key: { remoteJid: jid(CUST_B), fromMe: false, id: 'RX-1' }, text: '👎', senderTimestampMs: Date.now() } }]);
    expect(await reactions(GROUP, 'G-1')).toEqual({});
    // the same as a reaction message (messages.upsert reactionMessage)
    await inject('messages.upsert', { type: 'notify', messages: [{ key: { remoteJid: jid(CUST_B), fromMe: false, id: 'RX-2' }, message: { reactionMessage: { key: { remoteJid: jid(CUST_A), fromMe: false, id: 'A-1' }, text: '😡', senderTimestampMs: Date.now() } }, messageTimestamp: TS() }] });
    expect(await reactions(chatOf(CUST_A), 'A-1')).toEqual({});
  });

  it('a reaction without the stanza’s own key names nobody and is dropped (never counted as the target chat’s person)', async () => {
    await inject('messages.reaction', [{ key: { remoteJid: jid(CUST_A), fromMe: false, id: 'A-1' }, reaction: { text: '👍', senderTimestampMs: Date.now() } }]);
    expect(await reactions(chatOf(CUST_A), 'A-1')).toEqual({});
  });

  it("a participant's reaction counts as theirs, whoever the target key claims; the customer's on their own chat counts", async () => {
    await inject('messages.reaction', [{ key: { remoteJid: GROUP, fromMe: false, id: 'G-1', participant: jid(P2) }, reaction: { key: { remoteJid: GROUP, fromMe: false, id: 'RX-3', participant: jid(P3) }, text: '🎉', senderTimestampMs: Date.now() } }]);
    const g = await reactions(GROUP, 'G-1');
    expect(Object.keys(g)).toEqual([P3]);
    expect(g[P3]).toMatchObject({ reaction: '🎉' });

    await inject('messages.reaction', [{ key: { remoteJid: jid(CUST_A), fromMe: true, id: 'OUR-1' }, reaction: { key: { remoteJid: jid(CUST_A), fromMe: false, id: 'RX-4' }, text: '❤️', senderTimestampMs: Date.now() } }]);
    expect(await reactions(chatOf(CUST_A), 'OUR-1')).toMatchObject({ [CUST_A]: { reaction: '❤️' } });
    expect(rt.queues.get('wa-web-inbound')!.deadLettered).toBe(0);
  });
});
