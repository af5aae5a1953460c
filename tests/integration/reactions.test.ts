import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestRuntime, type TestRuntime } from '../factories/runtime.ts';
import { inboundMessage, inboundText, statusUpdate } from '../../shared/whatsapp/cloud/payloads.ts';
import { seedDemo } from '../../scripts/local/seed.ts';
import { db } from '../../shared/db/service.ts';
import { storeInboundMessage } from '../../shared/inbox/ingest.ts';
import { forgetOrgPreferences } from '../../shared/org/preferences.ts';
import type { Message } from '../../shared/message/message.schemas.ts';
import type { ReactionsResponse } from '../../shared/message/reaction.schemas.ts';

/**
 * Reaction rows (spec §3 Reaction): inbound reactions (add, replace, remove) and ours (sent, then
 * acked by status webhooks) kept as one row per sender beside the message's summary map, and
 * 'who reacted' paged over HTTP, masked for members, refused for other orgs.
 */
let rt: TestRuntime;
let admin: string;
let member: string;
let outsider: string;
const chat = '15557770001@c.us';
let target: Message;
const enc = encodeURIComponent;

const call = <T = Record<string, unknown>>(token: string, method: string, path: string, json?: unknown) => rt.orgCall<T>(token, method, path, json);
const rows = async () => (await db().entities.reaction.query.byMessage({ org_id: rt.orgId, chat_id: chat, unique_id: target.unique_id }).go()).data;
const getMessage = async () => (await call<{ messages: Message[] }>(admin, 'GET', `/chats/${enc(chat)}/messages`)).body.messages.find((m) => m.unique_id === target.unique_id)!;
const who = (token: string, q = '') => call<ReactionsResponse>(token, 'GET', `/chats/${enc(chat)}/messages/${target.unique_id}/reactions${q}`);
const react = (from: string, emoji: string | undefined, ts: number, name = 'Customer') =>
  rt.postWebhook(inboundMessage(rt.phone, { from, name, type: 'reaction', timestampS: ts, fields: { reaction: { message_id: target.message_id, ...(emoji ? { emoji } : {}) } } }));

beforeAll(async () => {
  rt = await startTestRuntime();
  const outsiderEmail = 'outsider@reactions.chorus';
  const sub = await rt.createUser(outsiderEmail, rt.password);
  await seedDemo({ orgName: 'Other Co', admin: { email: outsiderEmail, sub, name: 'Outsider' }, member: { email: 'm2@reactions.chorus', sub: 'x', name: 'M2' }, phone: { phone_number_id: '777000555', display_phone_number: '15557770000' } });
  [admin, member, outsider] = await Promise.all([rt.signIn(rt.adminEmail), rt.signIn(rt.memberEmail), rt.signIn(outsiderEmail)]);
  await rt.postWebhook(inboundText(rt.phone, '15557770001', 'Our order is late', { name: 'Ada' }));
  await rt.idle();
  target = (await call<{ messages: Message[] }>(admin, 'GET', `/chats/${enc(chat)}/messages`)).body.messages[0]!;
});
afterAll(async () => rt?.cleanup());

describe('inbound reactions', () => {
  const now = Math.floor(Date.now() / 1000);
  it('a reaction from the webhook is a row beside the summary map', async () => {
    await react('15557770001', '👍', now, 'Ada');
    await rt.idle();
    const r = await rows();
    expect(r).toHaveLength(1);
    expect(r[0]).toMatchObject({ sender_id: '15557770001', reaction: '👍', message_id: target.message_id, from_me: false, ack: 0, org_phone: rt.phone.display_phone_number, timestamp: now * 1000, sender_name: 'Ada', read: false });
    expect(r[0]!.reaction_id).toMatch(/^wamid\./);
    expect((await getMessage()).reactions).toEqual({ '15557770001': { reaction: '👍', timestamp: now * 1000 } });
  });

  it('a new reaction from the same sender replaces the row; an older one arriving late is ignored', async () => {
    await react('15557770001', '❤️', now + 2, 'Ada');
    await rt.idle();
    await react('15557770001', '😮', now + 1, 'Ada');
    await rt.idle();
    const r = await rows();
    expect(r.map((x) => [x.sender_id, x.reaction])).toEqual([['15557770001', '❤️']]);
    expect((await getMessage()).reactions?.['15557770001']?.reaction).toBe('❤️');
  });

  it('a removal deletes the row and the map entry', async () => {
    await react('15557770001', undefined, now + 3);
    await rt.idle();
    expect(await rows()).toEqual([]);
    expect((await getMessage()).reactions).toEqual({});
  });
});

describe('a reaction that arrives before its message (issue 23 item 2)', () => {
  it('waits for the message and lands on it when it is stored; nothing is left parked', async () => {
    const now = Math.floor(Date.now() / 1000);
    const wamid = `wamid.early${Date.now()}`;
    await rt.postWebhook(inboundMessage(rt.phone, { from: '15557770001', name: 'Ada', type: 'reaction', timestampS: now + 1, fields: { reaction: { message_id: wamid, emoji: '🎉' } } }));
    await rt.idle();
    expect((await db().entities.parkedChange.get({ org_id: rt.orgId, message_id: wamid }).go()).data?.reactions).toMatchObject({ '15557770001': { emoji: '🎉' } });
    await rt.postWebhook(inboundText(rt.phone, '15557770001', 'Sent from the train', { name: 'Ada', id: wamid, timestampS: now }));
    await rt.idle();
    const early = (await call<{ messages: Message[] }>(admin, 'GET', `/chats/${enc(chat)}/messages`)).body.messages.find((m) => m.message_id === wamid)!;
    expect(early.reactions).toEqual({ '15557770001': { reaction: '🎉', timestamp: (now + 1) * 1000 } });
    expect((await db().entities.reaction.query.byMessage({ org_id: rt.orgId, chat_id: chat, unique_id: early.unique_id }).go()).data).toHaveLength(1);
    expect((await db().entities.parkedChange.get({ org_id: rt.orgId, message_id: wamid }).go()).data).toBeNull();
  });
});

describe('a reaction whose webhook is delivered again (a crash between storing and applying it)', () => {
  const now = Math.floor(Date.now() / 1000) + 100;
  const wamid = `wamid.again${Date.now()}`;
  const raw = () => JSON.stringify(inboundMessage(rt.phone, { from: '15557770001', name: 'Ada', type: 'reaction', id: wamid, timestampS: now, fields: { reaction: { message_id: target.message_id, emoji: '🙏' } } }));
  const key = () => ({ org_id: rt.orgId, chat_id: chat, timestamp: target.timestamp, unique_id: target.unique_id });
  const version = async () => ((await db().entities.message.get(key()).go()).data as { version: number }).version;
  const pending = async () => (await db().entities.waMessageRef.get({ org_id: rt.orgId, message_id: wamid }).go()).data?.reaction_pending;
  /** the state a kill -9 leaves after the reaction's row was stored but before it was applied */
  const crashBeforeApplying = async () => {
    await db().entities.message.patch(key()).set({ reactions: {}, version: (await version()) + 1 } as never).go();
    await db().entities.reaction.delete({ org_id: rt.orgId, chat_id: chat, unique_id: target.unique_id, sender_id: '15557770001' }).go();
    await db().entities.waMessageRef.patch({ org_id: rt.orgId, message_id: wamid }).set({ reaction_pending: true }).go();
  };

  it('is applied on the redelivery; a redelivery of one already applied writes nothing', async () => {
    await rt.postWebhook(raw());
    await rt.idle();
    expect((await getMessage()).reactions?.['15557770001']?.reaction).toBe('🙏');
    expect(await pending()).toBeFalsy(); // decided
    await crashBeforeApplying();
    await rt.postWebhook(raw());
    await rt.idle();
    const again = await version();
    expect((await getMessage()).reactions).toEqual({ '15557770001': { reaction: '🙏', timestamp: now * 1000 } });
    expect((await rows()).map((x) => x.reaction)).toEqual(['🙏']);
    expect(await pending()).toBeFalsy();
    await rt.postWebhook(raw());
    await rt.idle();
    expect(await version()).toBe(again);
  });

  it('a redelivery after a newer removal does not bring the reaction back', async () => {
    await react('15557770001', undefined, now + 1);
    await rt.idle();
    expect(await rows()).toEqual([]);
    const before = await version();
    await rt.postWebhook(raw());
    await rt.idle();
    expect(await rows()).toEqual([]);
    expect((await getMessage()).reactions ?? {}).toEqual({});
    expect(await version()).toBe(before);
  });
});

describe('our reactions', () => {
  it('are a row at ack 0, then 1 with the wamid once sent, then move with the status webhooks', async () => {
    const r = await call<{ message: Message }>(member, 'POST', `/chats/${enc(chat)}/messages/${target.unique_id}/reaction`, { reaction: '🙏' });
    expect(r.status).toBe(202);
    const ours = rt.phone.display_phone_number;
    const pending = (await rows()).find((x) => x.sender_id === ours);
    expect(pending).toMatchObject({ reaction: '🙏', from_me: true, by: rt.memberEmail });
    await rt.idle();
    const sent = rt.graph.sent.filter((s) => (s.body as { type?: string }).type === 'reaction').at(-1)!;
    let row = (await rows()).find((x) => x.sender_id === ours)!;
    expect(row).toMatchObject({ ack: 1, reaction_id: sent.wamid });
    await rt.postWebhook(statusUpdate(rt.phone, { id: sent.wamid!, status: 'read', recipient: '15557770001' }));
    await rt.postWebhook(statusUpdate(rt.phone, { id: sent.wamid!, status: 'delivered', recipient: '15557770001' }));
    await rt.idle();
    row = (await rows()).find((x) => x.sender_id === ours)!;
    expect(row.ack).toBe(3);
    expect((await getMessage()).reactions?.[ours]).toMatchObject({ reaction: '🙏', ack: 3, by: rt.memberEmail });
    // the status did not touch the reacted message's own ack
    expect((await getMessage()).ack).toBe(target.ack);
  });

  it('removing ours deletes its row', async () => {
    await call(member, 'POST', `/chats/${enc(chat)}/messages/${target.unique_id}/reaction`, { reaction: '' });
    await rt.idle();
    expect((await rows()).find((x) => x.sender_id === rt.phone.display_phone_number)).toBeUndefined();
  });

  it('one WhatsApp refuses leaves the row as it was before', async () => {
    await call(member, 'POST', `/chats/${enc(chat)}/messages/${target.unique_id}/reaction`, { reaction: '👍' });
    await rt.idle();
    rt.graph.failNext(131009);
    await call(member, 'POST', `/chats/${enc(chat)}/messages/${target.unique_id}/reaction`, { reaction: '😂' });
    await rt.idle();
    expect((await rows()).find((x) => x.sender_id === rt.phone.display_phone_number)).toMatchObject({ reaction: '👍', ack: 1 });
  });
});

describe('reactions from another chat', () => {
  it("another customer's reaction naming a message of someone else's chat is dropped (issue 11: a reaction counts only in its own chat)", async () => {
    await react('15557770009', '😡', Math.floor(Date.now() / 1000) + 5, 'Mallory');
    await rt.idle();
    expect((await rows()).some((r) => r.sender_id === '15557770009')).toBe(false);
    expect((await getMessage()).reactions ?? {}).not.toHaveProperty('15557770009');
  });
});

describe("who reacted (GET …/reactions)", () => {
  /**
   * Another participant's reaction in the target's own chat, as a WhatsApp Web group carries it. The
   * Cloud webhook is 1:1 (a reaction's chat is its sender's), and a reaction from another chat than
   * its target's is refused (whatsapp/web/protocol.rules.ts), so it goes straight to the inbound store.
   */
  const reactInChat = async (from: string, emoji: string, ts: number, name: string) => {
    const phone = (await db().entities.phone.get({ org_id: rt.orgId, phone_id: rt.phone.phone_number_id }).go()).data!;
    const message_id = `wamid.reaction-${from}`;
    await storeInboundMessage(phone, { message_id, chat_id: chat, chat_type: 'user', sender_phone: from, author: name, timestamp: ts * 1000, message_type: 'reaction', body: emoji, reaction: { target_message_id: target.message_id!, emoji }, content: { reaction: { message_id: target.message_id, emoji } } });
  };
  beforeAll(async () => {
    const now = Math.floor(Date.now() / 1000) + 10;
    await reactInChat('15557770002', '🔥', now, 'Grace');
    await reactInChat('15557770003', '🔥', now, 'Linus');
    await rt.idle();
  });

  it('pages the rows with names', async () => {
    const first = await who(admin, '?limit=2');
    expect(first.status).toBe(200);
    expect(first.body.reactions).toHaveLength(2);
    expect(first.body.cursor).toBeTruthy();
    const rest = await who(admin, `?limit=2&cursor=${enc(first.body.cursor!)}`);
    const all = [...first.body.reactions, ...rest.body.reactions];
    expect(all.map((r) => [r.sender_id, r.name, r.reaction])).toEqual([
      [rt.phone.display_phone_number, rt.memberEmail, '👍'],
      ['15557770002', 'Grace', '🔥'],
      ['15557770003', 'Linus', '🔥'],
    ]);
    expect(rest.body.cursor).toBeNull();
  });

  it('masks numbers for members when the org masks them', async () => {
    await db().entities.organization.patch({ org_id: rt.orgId }).set({ org_metadata: { preferences: { mask_phone_numbers: true } } }).go();
    forgetOrgPreferences();
    try {
      const r = await who(member);
      expect(r.body.reactions.find((x) => x.name === 'Grace')?.sender_id).toBe('15*******02');
      expect((await who(admin)).body.reactions.find((x) => x.name === 'Grace')?.sender_id).toBe('15557770002');
    } finally {
      await db().entities.organization.patch({ org_id: rt.orgId }).set({ org_metadata: { preferences: {} } }).go();
      forgetOrgPreferences();
    }
  });

  it('refuses bad input and other orgs', async () => {
    expect((await who(admin, '?limit=0')).status).toBe(400);
    const r = await rt.api(outsider, `/api/orgs/${rt.orgId}/chats/${enc(chat)}/messages/${target.unique_id}/reactions`);
    expect(r.status).toBe(404);
  });
});
