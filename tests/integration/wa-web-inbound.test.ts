import { linkWaWebNumber } from '../factories/wa-web.ts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestRuntime, type TestRuntime } from '../factories/runtime.ts';
import { eventually } from '../factories/wait.ts';
import { db } from '../../shared/db/service.ts';
import { documentClient } from '../../shared/db/client.ts';
import { fromQueueBody } from '../../shared/whatsapp/web/inbound-queue.ts';
import type { Message } from '../../shared/message/message.schemas.ts';
import type { Chat } from '../../shared/chat/chat.schemas.ts';
import { forgetOrgPreferences } from '../../shared/org/preferences.ts';
import { refreshGroupMetadata } from '../../shared/whatsapp/web/group-metadata.ts';
import { updateChatRow } from '../../shared/chat/chat-write.ts';

/**
 * WhatsApp Web inbound is durable (whatsapp-protocols.md §B.11): the session worker only
 * normalizes what the socket received and puts it on the wa-web-inbound queue; the queue's consumer
 * stores it. A refused enqueue, a failed consumer and a failed table write only delay a message:
 * it is stored once, never lost. Then the group admins kept on a group chat (read through the
 * session) decide the spec §5 delete rule for members.
 */
let rt: TestRuntime;
let admin: string;
let member: string;
const PHONE = 'waweb_in_1';
const OWN = '15550008888';
const CUSTOMER = '919800011122';
const JID = `${CUSTOMER}@s.whatsapp.net`;
const CHAT = `${CUSTOMER}@c.us`;
const OTHER = '919800033344';
const enc = encodeURIComponent;
const TS = () => Math.floor(Date.now() / 1000);

type Json = Record<string, unknown>;
const as = async <T = Json>(token: string, method: string, path: string, json?: unknown): Promise<{ status: number; body: T }> => {
  const r = await rt.api(token, `/api/orgs/${rt.orgId}${path}`, { method, json });
  return { status: r.status, body: (await r.json()) as T };
};
const messagesOf = async (chatId: string) => (await as<{ messages: Message[] }>(admin, 'GET', `/chats/${enc(chatId)}/messages`)).body.messages;
const text = (id: string, body: string, jid = JID, extra: Json = {}) => ({ key: { remoteJid: jid, fromMe: false, id, ...extra }, message: { conversation: body }, messageTimestamp: TS(), pushName: 'Meera' });
const inject = async (event: string, data: unknown) => {
  rt.waWeb.inject(PHONE, { event, data } as never);
  await rt.waWebWorker.idle();
  await rt.idle();
};

/** Table faults: the next `times` writes whose request names `match` fail, before reaching DynamoDB. */
const faults: Array<{ match: string; left: number }> = [];
const failWrites = (match: string, times = 1) => {
  const f = { match, left: times };
  faults.push(f);
  return f;
};

/** Every body the wa-web-inbound queue accepted, and a switch to make it refuse the next sends. */
const accepted: string[] = [];
let refuseNext = 0;

beforeAll(async () => {
  rt = await startTestRuntime();
  [admin, member] = await Promise.all([rt.signIn(rt.adminEmail), rt.signIn(rt.memberEmail)]);
  documentClient().middlewareStack.add(
    (next, context) => async (args) => {
      if (/Transact|Put|Update|BatchWrite/.test(context.commandName ?? '')) {
        const input = JSON.stringify((args as { input: unknown }).input);
        const f = faults.find((x) => x.left > 0 && input.includes(x.match));
        if (f) {
          f.left--;
          throw new Error(`injected fault: ${context.commandName} naming ${f.match}`);
        }
      }
      return next(args);
    },
    { step: 'initialize', name: 'testFaults' },
  );
  const q = rt.queues.get('wa-web-inbound')!;
  const send = q.send.bind(q);
  q.send = async (body: string) => {
    if (refuseNext > 0) {
      refuseNext--;
      throw new Error('injected fault: the queue is unavailable');
    }
    accepted.push(body);
    return send(body);
  };
  await linkWaWebNumber(rt, PHONE, OWN);
}, 120_000);

afterAll(async () => {
  await rt?.cleanup();
});

describe('durable WhatsApp Web inbound (the wa-web-inbound queue)', () => {
  it('a received message goes through the queue (one record, Dates as epoch ms) and is stored once; the same record delivered again stores nothing twice', async () => {
    const before = accepted.length;
    await inject('messages.upsert', { type: 'notify', messages: [text('Q-1', 'Is my order shipped?')] });
    expect(accepted.length).toBe(before + 1);
    const record = fromQueueBody(accepted[before]!);
    expect(record.phone).toEqual({ org_id: rt.orgId, phone_id: PHONE, org_phone: OWN });
    expect(record.events).toHaveLength(1);
    expect(record.events[0]).toMatchObject({ kind: 'message', providerMessageId: 'Q-1', chat: { chatId: CHAT, kind: 'direct' } });
    expect(JSON.parse(accepted[before]!).events[0].sentAt).toBeTypeOf('number');
    expect((await messagesOf(CHAT)).filter((m) => m.message_id === 'Q-1')).toHaveLength(1);

    // SQS delivers at least once: the same record again
    await rt.queues.get('wa-web-inbound')!.send(accepted[before]!);
    await rt.idle();
    const all = (await messagesOf(CHAT)).filter((m) => m.message_id === 'Q-1');
    expect(all).toHaveLength(1);
    expect(all[0]).toMatchObject({ body: 'Is my order shipped?', sender_phone: CUSTOMER, phone_id: PHONE });
    expect(rt.queues.get('wa-web-inbound')!.deadLettered).toBe(0);
  });

  it('nothing is lost when the table write fails the first time: the record is retried and the message stored once', async () => {
    const fault = failWrites('Q-2');
    await inject('messages.upsert', { type: 'notify', messages: [text('Q-2', 'Hello?')] });
    await eventually(async () => {
      await rt.idle();
      return (await messagesOf(CHAT)).some((m) => m.message_id === 'Q-2');
    }, 15_000, 'the message stored on redelivery');
    expect(fault.left).toBe(0); // the fault did hit the first attempt
    expect((await messagesOf(CHAT)).filter((m) => m.message_id === 'Q-2')).toHaveLength(1);
    expect(rt.queues.get('wa-web-inbound')!.deadLettered).toBe(0);
  });

  it('a consumer that fails after storing part of a record is retried: on redelivery the rest is stored and nothing twice', async () => {
    // one socket event with messages of two chats: the second chat's write fails on the first attempt
    const fault = failWrites('Q-3b');
    await inject('messages.upsert', { type: 'notify', messages: [text('Q-3a', 'first chat'), text('Q-3b', 'second chat', `${OTHER}@s.whatsapp.net`)] });
    await eventually(async () => {
      await rt.idle();
      return (await messagesOf(`${OTHER}@c.us`)).some((m) => m.message_id === 'Q-3b');
    }, 15_000, 'the second message stored on redelivery');
    expect(fault.left).toBe(0);
    expect((await messagesOf(CHAT)).filter((m) => m.message_id === 'Q-3a')).toHaveLength(1);
    expect((await messagesOf(`${OTHER}@c.us`)).filter((m) => m.message_id === 'Q-3b')).toHaveLength(1);
  });

  it('an edit whose message is not stored yet (the queue keeps no order) waits for it instead of being dropped', async () => {
    const fault = failWrites('Q-4');
    // the message's first store fails, so its edit (the next record) is handled before it
    rt.waWeb.inject(PHONE, { event: 'messages.upsert', data: { type: 'notify', messages: [text('Q-4', 'Order #1')] } } as never);
    rt.waWeb.inject(PHONE, { event: 'messages.update', data: [{ key: { remoteJid: JID, fromMe: false, id: 'Q-4' }, update: { message: { editedMessage: { message: { conversation: 'Order #2' } } }, messageTimestamp: TS() } }] } as never);
    await rt.waWebWorker.idle();
    const edited = await eventually(async () => {
      await rt.idle();
      const m = (await messagesOf(CHAT)).find((x) => x.message_id === 'Q-4') as (Message & { edited_at?: number }) | undefined;
      return m?.body === 'Order #2' ? m : undefined;
    }, 20_000, 'the edit applied once its message is stored');
    expect(fault.left).toBe(0);
    expect(edited.edited_at).toBeTruthy();
  });

  it('a refused enqueue is retried by the worker with backoff; a queue down longer keeps the record for the next heartbeat; the message lands once', async () => {
    refuseNext = 2;
    await inject('messages.upsert', { type: 'notify', messages: [text('Q-5', 'queue hiccup')] });
    expect(refuseNext).toBe(0);
    expect((await messagesOf(CHAT)).filter((m) => m.message_id === 'Q-5')).toHaveLength(1);

    // the queue is down for longer than a round of attempts (ENQUEUE_ATTEMPTS = 6): every attempt,
    // including any heartbeat's retry meanwhile (real 2 s timer), is refused until it is back
    refuseNext = 1_000;
    await inject('messages.upsert', { type: 'notify', messages: [text('Q-6', 'queue outage')] });
    expect(1_000 - refuseNext).toBeGreaterThanOrEqual(6);
    expect(rt.waWebWorker.pendingInbound()).toBe(1); // kept, not dropped
    refuseNext = 0; // the queue is back
    await rt.waWebWorker.tick();
    await rt.waWebWorker.idle();
    await eventually(async () => {
      await rt.idle();
      return (await messagesOf(CHAT)).some((m) => m.message_id === 'Q-6');
    }, 15_000, 'the kept record stored after the next heartbeat');
    expect(rt.waWebWorker.pendingInbound()).toBe(0);
    expect((await messagesOf(CHAT)).filter((m) => m.message_id === 'Q-6')).toHaveLength(1);
  }, 30_000);
});

describe('group admins for the delete rule (spec §5)', () => {
  const GROUP = '120363000000000001@g.us';
  const P1 = '447700900111'; // a participant, not an admin
  const P2 = '447700900222'; // the group's creator
  const group = (ownAdmin: boolean) =>
    rt.waWeb.setGroup(GROUP, {
      subject: 'Parcel help',
      participants: [
        { id: `${OWN}@s.whatsapp.net`, admin: ownAdmin ? 'admin' : null },
        { id: `${P1}@s.whatsapp.net`, admin: null },
        { id: `${P2}@s.whatsapp.net`, admin: 'superadmin' },
      ],
    });
  const chat = async (token = admin) => (await as<{ chat: Chat }>(token, 'GET', `/chats/${enc(GROUP)}`)).body.chat;
  const groupMsg = (id: string, body: string, from = P1) => ({ key: { remoteJid: GROUP, fromMe: false, id, participant: `${from}@s.whatsapp.net` }, message: { conversation: body }, messageTimestamp: TS(), pushName: 'Sam' });

  it('a group message makes the worker read the group (through the session) and keep subject and admins on the chat; fresh metadata is not read again', async () => {
    group(false);
    const reads = rt.waWeb.groupReads.length;
    await inject('messages.upsert', { type: 'notify', messages: [groupMsg('G-1', 'hello group')] });
    const c = await chat();
    expect(c.group_metadata).toMatchObject({ subject: 'Parcel help', admins: [P2] });
    expect(c.group_metadata!.fetched_at).toBeGreaterThan(Date.now() - 60_000);
    expect(c.chat_name).toBe('Parcel help');
    expect(rt.waWeb.groupReads.length).toBe(reads + 1);

    await inject('messages.upsert', { type: 'notify', messages: [groupMsg('G-2', 'anyone?')] });
    expect(rt.waWeb.groupReads.length).toBe(reads + 1); // younger than an hour: not read again
  });

  it("a member's delete of another participant's message is refused (400) while our number is not an admin, and accepted (202) once it is", async () => {
    const g1 = (await messagesOf(GROUP)).find((m) => m.message_id === 'G-1')!;
    const refused = await as<{ error: { code: string; message: string } }>(member, 'DELETE', `/chats/${enc(GROUP)}/messages/${g1.unique_id}`);
    expect(refused.status).toBe(400);
    expect(refused.body.error.message).toBe('Only group admins can delete other people’s messages.');
    expect(rt.waWeb.sent.some((s) => 'delete' in s.content)).toBe(false);

    // our number is made an admin; the chat's metadata is over an hour old, so the next group message reads it again
    group(true);
    const stale = (await chat()).group_metadata!;
    await db().entities.chat.patch({ org_id: rt.orgId, chat_id: GROUP }).set({ group_metadata: { ...stale, fetched_at: Date.now() - 2 * 3_600_000 } }).go();
    await inject('messages.upsert', { type: 'notify', messages: [groupMsg('G-3', 'still there?')] });
    expect((await chat()).group_metadata!.admins).toEqual([OWN, P2].sort());

    const ok = await as(member, 'DELETE', `/chats/${enc(GROUP)}/messages/${g1.unique_id}`);
    expect(ok.status).toBe(202);
    const del = await eventually(async () => rt.waWeb.sent.find((s) => 'delete' in s.content && s.jid === GROUP), 15_000, 'the delete to reach the stand-in');
    expect(del.content).toEqual({ delete: { remoteJid: GROUP, fromMe: false, id: 'G-1', participant: `${P1}@s.whatsapp.net` } });
  });

  it("a message from a group admin may be deleted even when our number is not one; members who see numbers masked get customers' admin numbers masked, ours as is", async () => {
    group(false);
    const gm = (await chat()).group_metadata!;
    await db().entities.chat.patch({ org_id: rt.orgId, chat_id: GROUP }).set({ group_metadata: { ...gm, fetched_at: Date.now() - 2 * 3_600_000 } }).go();
    await inject('messages.upsert', { type: 'notify', messages: [groupMsg('G-4', 'from the creator', P2)] });
    expect((await chat()).group_metadata!.admins).toEqual([P2]);
    const g4 = (await messagesOf(GROUP)).find((m) => m.message_id === 'G-4')!;
    expect((await as(member, 'DELETE', `/chats/${enc(GROUP)}/messages/${g4.unique_id}`)).status).toBe(202);
    // the delete and any metadata refresh still queued finish before the test writes the metadata itself
    await rt.idle();

    group(true);
    await db().entities.chat.patch({ org_id: rt.orgId, chat_id: GROUP }).set({ group_metadata: { ...gm, admins: [OWN, P2].sort(), fetched_at: Date.now() } }).go();
    const org = (await db().entities.organization.get({ org_id: rt.orgId }).go()).data!;
    const meta = (org.org_metadata as Json | undefined) ?? {};
    await db().entities.organization.patch({ org_id: rt.orgId }).set({ org_metadata: { ...meta, preferences: { ...((meta.preferences as Json) ?? {}), mask_phone_numbers: true } } }).go();
    forgetOrgPreferences(rt.orgId);
    try {
      const seen = (await chat(member)).group_metadata!;
      expect(seen.admins).toContain(OWN);
      expect(seen.admins).not.toContain(P2);
      expect(seen.admins).toContain(`${P2.slice(0, 2)}********${P2.slice(-2)}`);
      expect((await chat(admin)).group_metadata!.admins).toEqual([OWN, P2].sort());
    } finally {
      await db().entities.organization.patch({ org_id: rt.orgId }).set({ org_metadata: meta }).go();
      forgetOrgPreferences(rt.orgId);
    }
  });

  it('two refreshes racing: the metadata fetched later stays, whichever write lands last', async () => {
    const gm = (await chat()).group_metadata!;
    const now = Date.now();
    await db().entities.chat.patch({ org_id: rt.orgId, chat_id: GROUP }).set({ group_metadata: { ...gm, fetched_at: now - 2 * 3_600_000 } }).go();
    // while this refresh waits for WhatsApp, another one (that fetched later) stores its read
    const out = await refreshGroupMetadata(rt.orgId, GROUP, async () => {
      await updateChatRow(rt.orgId, GROUP, (c) => ({ ...c, group_metadata: { ...gm, admins: [OWN], fetched_at: now + 1000 } }));
      return { subject: gm.subject, participants: [{ id: `${P2}@s.whatsapp.net`, admin: 'superadmin' }] };
    }, now);
    expect(out).toBe('stored');
    const after = (await chat()).group_metadata!;
    expect(after.admins).toEqual([OWN]);
    expect(after.fetched_at).toBe(now + 1000);
  });
});
