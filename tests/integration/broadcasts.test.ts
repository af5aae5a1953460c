import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestRuntime, type TestRuntime } from '../factories/runtime.ts';
import { inboundText, statusUpdate } from '../../shared/whatsapp/cloud/payloads.ts';
import { db } from '../../shared/db/service.ts';
import { commitTransaction } from '../../shared/db/transaction.ts';
import { chatWriteItems, counterItems, type ChatRow } from '../../shared/chat/chat-write.ts';
import { mergeDeltas } from '../../shared/chat/chat-state.rules.ts';
import { forgetOrgPreferences } from '../../shared/org/preferences.ts';
import { eventually } from '../factories/wait.ts';
import { seedWaWebPhone } from '../factories/wa-web.ts';
import sharp from 'sharp';
import { inboundImage } from '../../shared/whatsapp/cloud/payloads.ts';
import { DEAD_SEND_CLAIM_MS, runBroadcastStep, STALE_CLAIM_MS, type EngineDeps } from '../../shared/broadcast/broadcast.ts';
import { runOutboundCrashChild } from '../factories/outbound-crash.ts';
import { UNCERTAIN_REASON } from '../../shared/inbox/send-reconcile.rules.ts';
import { creditMonth } from '../../shared/broadcast/broadcast.rules.ts';
import type { Broadcast, BroadcastPreview, CreditUsage, Recipient } from '../../shared/broadcast/broadcast.schemas.ts';

/**
 * Broadcasts on the local runtime (issue 16 part B): a broadcast to picked chats runs on the
 * broadcasts queue through the inbox's send path (the Graph stand-in receives one request per
 * recipient, the messages are in the threads), skips opted-out customers and Cloud API chats
 * outside the 24-hour window, takes one credit per recipient sent and refuses a broadcast past the
 * month's remainder; the log, its filters and the CSV export; pause / resume / cancel; and the CI
 * form of the bench's crash test: the engine "dies" with claimed recipients (some with their
 * message stored, some not) and a restarted run sends nobody twice and skips nobody.
 */
let rt: TestRuntime;
let admin: string;
let member: string;
const enc = encodeURIComponent;
const chatOf = (n: number) => `1555888${String(n).padStart(4, '0')}@c.us`;

type Res<T> = { status: number; body: T };
const call = async <T = Record<string, unknown>>(token: string, method: string, path: string, json?: unknown): Promise<Res<T>> => {
  const r = await rt.api(token, `/api/orgs/${rt.orgId}${path}`, { method, json });
  const text = await r.text();
  return { status: r.status, body: (text && r.headers.get('content-type')?.includes('json') ? JSON.parse(text) : text) as T };
};
const get = async (id: string) => (await call<{ broadcast: Broadcast }>(admin, 'GET', `/broadcasts/${id}`)).body.broadcast;
/** Graph requests per recipient number (what WhatsApp received). */
const graphSendsTo = (to: string) => rt.graph.sent.filter((r) => r.wamid && (r.body as { to?: string }).to === to).length;

/** Store chats the way the write path does, each with a customer message 1 hour ago (window open) unless `old`. */
async function seedChats(from: number, to: number, opts: { old?: boolean; lastBody?: string; idOf?: (n: number) => string } = {}): Promise<void> {
  const phone = (await db().entities.phone.query.byOrg({ org_id: rt.orgId }).go()).data[0]!;
  for (let start = from; start < to; start += 20) {
    const now = Date.now();
    const at = opts.old ? now - 30 * 3600_000 : now - 3600_000;
    const ok = await commitTransaction((e) => {
      const items = [];
      let deltas: Record<string, number> = {};
      for (let n = start; n < Math.min(to, start + 20); n++) {
        const row = {
          org_id: rt.orgId,
          chat_id: (opts.idOf ?? chatOf)(n),
          chat_name: `Customer ${n}`,
          chat_type: 'user',
          org_phone: phone.org_phone,
          phone_id: phone.phone_id,
          chat_org_phones: [phone.org_phone],
          latest_message_timestamp: at,
          latest_message: { unique_id: `u${n}`, body: opts.lastBody ?? `Hello ${n}`, message_type: 'text', from_me: false, ack: 0, timestamp: at },
          last_customer_message_at: { [phone.org_phone]: at },
          message_unread_count: 0,
          unread_count: {},
        } as unknown as ChatRow;
        const w = chatWriteItems(e, null, row, now);
        items.push(...w.items);
        deltas = mergeDeltas(deltas, w.deltas);
      }
      return [...items, ...counterItems(e, rt.orgId, deltas)];
    });
    expect(ok).toBe(true);
  }
}

beforeAll(async () => {
  rt = await startTestRuntime();
  [admin, member] = await Promise.all([rt.signIn(rt.adminEmail), rt.signIn(rt.memberEmail)]);
  await seedChats(0, 10);
  await seedChats(10, 12, { lastBody: 'stop' }); // opted out by keyword
  await seedChats(12, 14, { old: true }); // outside the 24-hour window
  await seedChats(100, 200); // the crash test's 100
}, 120_000);
afterAll(async () => {
  rt?.queues.get('broadcasts')?.resume();
  await rt?.cleanup();
});

describe('a broadcast to picked chats', () => {
  let bc: Broadcast;
  it('previews per recipient with variables filled, and counts opt-outs and chats that need a template', async () => {
    const chat_ids = [0, 1, 2, 10, 12].map(chatOf);
    const r = await call<BroadcastPreview>(admin, 'POST', '/broadcasts/preview', { audience: { kind: 'chats', chat_ids }, content: { body: 'Hi {{name}}, *sale* today' } });
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({ total: 5, to_send: 3, skipped_opt_out: 1, needs_template: 1 });
    expect(r.body.rows[0]).toMatchObject({ chat_id: chatOf(0), text: 'Hi Customer 0, *sale* today', skip_reason: null });
    expect(r.body.rows.find((x) => x.chat_id === chatOf(10))).toMatchObject({ skip_reason: 'opt_out', text: null });
  });

  it('sends each recipient once through the send path, and the stats and credits follow', async () => {
    const before = (await call<CreditUsage>(admin, 'GET', '/broadcasts/credits')).body;
    const chat_ids = [0, 1, 2, 10, 12].map(chatOf);
    const r = await call<{ broadcast: Broadcast }>(admin, 'POST', '/broadcasts', { name: 'Sale', audience: { kind: 'chats', chat_ids }, content: { body: 'Hi {{name}}, *sale* today' }, options: { pace_ms: 20 } });
    expect(r.status, JSON.stringify(r.body)).toBe(201);
    bc = r.body.broadcast;
    expect(bc).toMatchObject({ status: 'running', stats: { total: 5, skipped: 2, skipped_opt_out: 1, skipped_no_template: 1 } });
    await eventually(async () => (await get(bc.broadcast_id)).status === 'completed', 20_000, 'the broadcast completes');
    await rt.idle();
    const done = await get(bc.broadcast_id);
    expect(done.stats).toMatchObject({ sent: 3, failed: 0, pending: 0, skipped: 2 });
    for (const n of [0, 1, 2]) expect(graphSendsTo(chatOf(n).split('@')[0]!)).toBe(1);
    for (const n of [10, 12]) expect(graphSendsTo(chatOf(n).split('@')[0]!)).toBe(0);
    // the message is in the thread, from the creator
    const thread = await call<{ messages: Array<{ body: string; author: string }> }>(admin, 'GET', `/chats/${enc(chatOf(1))}/messages`);
    expect(thread.body.messages.some((m) => m.body === 'Hi Customer 1, *sale* today' && m.author === rt.adminEmail)).toBe(true);
    const after = (await call<CreditUsage>(admin, 'GET', '/broadcasts/credits')).body;
    expect(after.used - before.used).toBe(3);
    expect(after.limit).toBeGreaterThanOrEqual(3000);
  });

  it('the log filters by state and exports a CSV', async () => {
    const all = await call<{ recipients: Recipient[] }>(admin, 'GET', `/broadcasts/${bc.broadcast_id}/recipients`);
    expect(all.body.recipients).toHaveLength(5);
    const skipped = await call<{ recipients: Recipient[] }>(admin, 'GET', `/broadcasts/${bc.broadcast_id}/recipients?filter=skipped`);
    expect(skipped.body.recipients.map((x) => x.skip_reason).sort()).toEqual(['no_template', 'opt_out']);
    const sent = await call<{ recipients: Recipient[] }>(admin, 'GET', `/broadcasts/${bc.broadcast_id}/recipients?filter=sent`);
    expect(sent.body.recipients).toHaveLength(3);
    const csv = await call<string>(admin, 'GET', `/broadcasts/${bc.broadcast_id}/recipients.csv`);
    expect(csv.status).toBe(200);
    const lines = csv.body.trim().split('\r\n');
    expect(lines[0]).toBe('recipient,name,phone,chat_id,state,skip_reason,delivery,error,sent_at,replied_at');
    expect(lines).toHaveLength(6);
    expect(csv.body).toContain('opt_out');
    const list = await call<{ broadcasts: Broadcast[] }>(admin, 'GET', '/broadcasts');
    expect(list.body.broadcasts[0]!.broadcast_id).toBe(bc.broadcast_id);
  });

  it('statuses and replies reach the stats once each; a failure gives the credit back', async () => {
    const wamidOf = (n: number) => rt.graph.sent.find((r) => r.wamid && (r.body as { to?: string }).to === chatOf(n).split('@')[0])!.wamid!;
    const post = (n: number, status: 'delivered' | 'read' | 'failed') =>
      rt.postWebhook(statusUpdate(rt.phone, { id: wamidOf(n), status, recipient: chatOf(n).split('@')[0]!, ...(status === 'failed' ? { errors: [{ code: 131026, title: 'Message Undeliverable' }] } : {}) }));
    const usedBefore = (await call<CreditUsage>(admin, 'GET', '/broadcasts/credits')).body.used;
    await post(0, 'delivered');
    await post(0, 'read');
    await post(0, 'delivered'); // late and out of order: counts nothing
    await post(1, 'delivered');
    await post(2, 'failed');
    await rt.postWebhook(inboundText(rt.phone, chatOf(1).split('@')[0]!, 'Yes please!'));
    await rt.postWebhook(inboundText(rt.phone, chatOf(1).split('@')[0]!, 'And one more'));
    await rt.idle();
    await eventually(async () => (await get(bc.broadcast_id)).stats.replied === 1, 15_000, 'the reply is counted');
    const s = (await get(bc.broadcast_id)).stats;
    expect(s).toMatchObject({ sent: 2, delivered: 2, read: 1, replied: 1, failed: 1 });
    const failed = await call<{ recipients: Recipient[] }>(admin, 'GET', `/broadcasts/${bc.broadcast_id}/recipients?filter=failed`);
    expect(failed.body.recipients).toHaveLength(1);
    expect(failed.body.recipients[0]!.error).toBeTruthy();
    expect((await call<CreditUsage>(admin, 'GET', '/broadcasts/credits')).body.used).toBe(usedBefore - 1);
  });

  it('refuses a broadcast past the month’s remaining credits, and one where everybody is skipped', async () => {
    const usage = (await call<CreditUsage>(admin, 'GET', '/broadcasts/credits')).body;
    await db().entities.broadcastUsage.update({ org_id: rt.orgId, month: creditMonth(Date.now()) }).set({ used: usage.limit - 1 }).go();
    const r = await call<{ error: { code: string; message: string } }>(admin, 'POST', '/broadcasts', { name: 'Too big', audience: { kind: 'chats', chat_ids: [0, 1].map(chatOf) }, content: { body: 'x' } });
    expect(r.status).toBe(400);
    expect(r.body.error.code).toBe('broadcast.credits_exceeded');
    expect(r.body.error.message).toContain('needs 2 credits but only 1');
    await db().entities.broadcastUsage.update({ org_id: rt.orgId, month: creditMonth(Date.now()) }).set({ used: usage.used }).go();
    const none = await call<{ error: { code: string } }>(admin, 'POST', '/broadcasts', { name: 'Nobody', audience: { kind: 'chats', chat_ids: [chatOf(10)] }, content: { body: 'x' } });
    expect(none.status).toBe(400);
    expect(none.body.error.code).toBe('broadcast.no_recipients');
  });

  it('a CSV audience fills per-recipient variables; unknown numbers are skipped', async () => {
    const rows = [{ phone: chatOf(3).split('@')[0], vars: { order: 'A-17' } }, { phone: '+1 555 000 0000', vars: {} }];
    const r = await call<BroadcastPreview>(admin, 'POST', '/broadcasts/preview', { audience: { kind: 'csv', rows }, content: { body: 'Order {{order}} for {{name}}' } });
    expect(r.status).toBe(200);
    expect(r.body.rows.map((x) => [x.text, x.skip_reason])).toEqual([['Order A-17 for Customer 3', null], [null, 'no_chat']]);
  });

  it('a member without bulk_message is refused (403, the Restricted page’s words)', async () => {
    await call(admin, 'PUT', '/settings/permissions', { member_permissions: { bulk_message: false } });
    forgetOrgPreferences(rt.orgId);
    const r = await call<{ error: { code: string; message: string } }>(member, 'GET', '/broadcasts');
    expect(r.status).toBe(403);
    expect(r.body.error.message).toBe('This page is restricted for non-admin members. Contact an administrator if you think this is a mistake.');
    await call(admin, 'PUT', '/settings/permissions', { member_permissions: { bulk_message: true } });
    forgetOrgPreferences(rt.orgId);
    expect((await call(member, 'GET', '/broadcasts')).status).toBe(200);
  });
});

describe('pause, resume, cancel', () => {
  it('a paused broadcast stops sending until resumed; a cancelled one sends nobody else', async () => {
    const chat_ids = [3, 4, 5, 6, 7, 8].map(chatOf);
    const r = await call<{ broadcast: Broadcast }>(admin, 'POST', '/broadcasts', { name: 'Slow', audience: { kind: 'chats', chat_ids }, content: { body: 'slow one' }, options: { pace_ms: 2000 } });
    const id = r.body.broadcast.broadcast_id;
    await eventually(async () => (await get(id)).stats.sent >= 1, 15_000, 'the first is sent');
    const paused = await call<{ broadcast: Broadcast }>(admin, 'POST', `/broadcasts/${id}/actions`, { action: 'pause' });
    expect(paused.body.broadcast.status).toBe('paused');
    expect((await call(admin, 'POST', `/broadcasts/${id}/actions`, { action: 'pause' })).status).toBe(409);
    await rt.idle();
    const sentWhilePaused = (await get(id)).stats.sent;
    expect(sentWhilePaused).toBeLessThan(6);
    expect((await call<{ broadcast: Broadcast }>(admin, 'POST', `/broadcasts/${id}/actions`, { action: 'resume' })).body.broadcast.status).toBe('running');
    await eventually(async () => (await get(id)).stats.sent > sentWhilePaused, 15_000, 'sending again');
    expect((await call<{ broadcast: Broadcast }>(admin, 'POST', `/broadcasts/${id}/actions`, { action: 'cancel' })).body.broadcast.status).toBe('cancelled');
    await rt.idle();
    const end = await get(id);
    const sends = chat_ids.reduce((n, c) => n + graphSendsTo(c.split('@')[0]!), 0);
    expect(sends).toBe(end.stats.sent); // nobody sent after cancel, nobody twice
    expect(end.stats.sent).toBeLessThan(6);
  });
});

describe('crash safety (the CI form of npm run bench:broadcast)', () => {
  it('a run that dies with claimed recipients is resumed by the next: nobody twice, nobody missing', async () => {
    const q = rt.queues.get('broadcasts')!;
    q.pause(); // this test drives the engine itself (resumed in afterAll too)
    const chat_ids = Array.from({ length: 100 }, (_, i) => chatOf(100 + i));
    const r = await call<{ broadcast: Broadcast }>(admin, 'POST', '/broadcasts', { name: 'Crash', audience: { kind: 'chats', chat_ids }, content: { body: 'Hello {{name}}' }, options: { pace_ms: 10 } });
    expect(r.status).toBe(201);
    const id = r.body.broadcast.broadcast_id;
    const never = new Promise<void>(() => undefined);
    // the first run "dies" with four sends in flight: recipients 46-48 claimed but their messages not
    // stored yet, recipient 49's message stored (and queued for WhatsApp) but the recipient not finished
    const first: EngineDeps = {
      now: Date.now,
      sleep: (ms) => new Promise((res) => setTimeout(res, ms)),
      rand: Math.random,
      budgetMs: 60_000,
      crashPoint: async (point, rid) => {
        const n = Number(rid);
        if ((n === 49 && point === 'stored') || (n >= 46 && n < 49 && point === 'claimed')) await never;
      },
    };
    void runBroadcastStep({ org_id: rt.orgId, broadcast_id: id, seq: 0 }, first);
    // stuck: the 96 others finished (the engine keeps sending around the four sends that hang), four claimed
    await eventually(async () => {
      const rows = (await db().entities.broadcastRecipient.query.byState({ org_id: rt.orgId, broadcast_id: id, state: 'sending' }).go()).data;
      const s = (await get(id)).stats;
      return rows.length === 4 && s.sent === 96;
    }, 90_000, 'the first run is stuck with claimed recipients');
    expect(chat_ids.slice(46, 49).every((c) => graphSendsTo(c.split('@')[0]!) === 0)).toBe(true);
    // the restarted run (the queue redelivers the step): a clock past the claims' staleness
    const offset = STALE_CLAIM_MS + 1000;
    try {
      await runBroadcastStep({ org_id: rt.orgId, broadcast_id: id, seq: 0 }, { now: () => Date.now() + offset, sleep: (ms) => new Promise((res) => setTimeout(res, ms)), rand: Math.random, budgetMs: 60_000 });
    } finally {
      q.resume();
    }
    await rt.idle();
    const end = await get(id);
    expect(end.status).toBe('completed');
    expect(end.stats).toMatchObject({ sent: 100, failed: 0, pending: 0 });
    const perRecipient = chat_ids.map((c) => graphSendsTo(c.split('@')[0]!));
    expect(perRecipient.filter((n) => n === 0)).toHaveLength(0); // nobody missing
    expect(perRecipient.filter((n) => n > 1)).toHaveLength(0); // nobody twice
  }, 240_000);
});

describe('crash safety of the Graph call (a process killed between the outbound claim and the Graph result)', () => {
  it('the end of the run settles each claimed send from the Graph side: one WhatsApp took is recorded, one it never got is sent once', async () => {
    const bq = rt.queues.get('broadcasts')!;
    const oq = rt.queues.get('whatsapp-outbound')!;
    bq.pause(); // the test drives the engine itself
    oq.pause(); // messages are stored and queued, nobody sends them yet
    const chat_ids = [0, 1, 2].map((i) => chatOf(700 + i));
    await seedChats(700, 703);
    try {
      const r = await call<{ broadcast: Broadcast }>(admin, 'POST', '/broadcasts', { name: 'Graph crash', audience: { kind: 'chats', chat_ids }, content: { body: 'Hello {{name}}' }, options: { pace_ms: 10 } });
      expect(r.status).toBe(201);
      const id = r.body.broadcast.broadcast_id;
      const deps = (offset: number): EngineDeps => ({ now: () => Date.now() + offset, sleep: (ms) => new Promise((res) => setTimeout(res, ms)), rand: Math.random, budgetMs: 3000 });
      // every recipient stored and queued; the end check waits for WhatsApp, then hands over
      await runBroadcastStep({ org_id: rt.orgId, broadcast_id: id, seq: 0 }, deps(0));
      const rows = (await db().entities.broadcastRecipient.query.byState({ org_id: rt.orgId, broadcast_id: id, state: 'sent' }).go()).data;
      expect(rows).toHaveLength(3);
      const keyOf = (chatId: string) => {
        const row = rows.find((x) => x.chat_id === chatId)!;
        return { org_id: rt.orgId, chat_id: chatId, timestamp: row.msg_timestamp!, unique_id: row.msg_unique_id! };
      };
      const [a, b, c] = chat_ids.map(keyOf) as [ReturnType<typeof keyOf>, ReturnType<typeof keyOf>, ReturnType<typeof keyOf>];
      // a: a process took it to WhatsApp and was killed before it recorded the wamid
      const end = await runOutboundCrashChild(rt, a);
      expect(end, end.stderr).toMatchObject({ signal: 'SIGKILL' });
      const wamidA = rt.graph.sent.find((x) => x.wamid && (x.body as { to?: string }).to === a.chat_id.split('@')[0])!.wamid!;
      // b: a process claimed the Graph call and was killed before calling
      await db().entities.message.patch(b).set({ send_started_at: Date.now() }).go();
      // the queue redelivers: a and b are "may not have been sent" (never sent again on their own), c goes out
      oq.resume();
      await eventually(async () => {
        const got = await Promise.all([a, b, c].map(async (k) => (await db().entities.message.get(k).go()).data!));
        return got[0]!.send_uncertain_at != null && got[1]!.send_uncertain_at != null && !!got[2]!.message_id;
      }, 30_000, 'a and b uncertain, c sent');
      expect((await db().entities.message.get(b).go()).data!.delivery_error).toMatchObject({ reason: UNCERTAIN_REASON });
      expect(chat_ids.map((x) => graphSendsTo(x.split('@')[0]!))).toEqual([1, 0, 1]);
      // while the claims may still have a live owner, the run is not over: past a live send's time
      // (a clock 31 s on) it waits until the claims are dead
      let job = (await db().entities.broadcast.get({ org_id: rt.orgId, broadcast_id: id }).go()).data!;
      await runBroadcastStep({ org_id: rt.orgId, broadcast_id: id, seq: job.step }, deps(31_000));
      job = (await db().entities.broadcast.get({ org_id: rt.orgId, broadcast_id: id }).go()).data!;
      expect(job.status).toBe('running');
      expect(job.waiting_until).toBeGreaterThan(Date.now() + DEAD_SEND_CLAIM_MS - 60_000);
      // once no owner can be alive (a clock past DEAD_SEND_CLAIM_MS): a is recorded from the Graph side, b sent once
      await runBroadcastStep({ org_id: rt.orgId, broadcast_id: id, seq: job.step }, deps(DEAD_SEND_CLAIM_MS + 1000));
      bq.resume(); // the wake-ups queued meanwhile are stale steps: they do nothing
      await rt.idle();
      expect((await get(id)).status).toBe('completed');
      expect(chat_ids.map((x) => graphSendsTo(x.split('@')[0]!))).toEqual([1, 1, 1]);
      const [ma, mb] = await Promise.all([a, b].map(async (k) => (await db().entities.message.get(k).go()).data!));
      expect(ma!.message_id).toBe(wamidA);
      expect(ma!.send_uncertain_at).toBeUndefined();
      expect(mb!.message_id).toBe(rt.graph.sent.find((x) => x.wamid && (x.body as { to?: string }).to === b.chat_id.split('@')[0])!.wamid);
      expect(mb!.send_uncertain_at).toBeUndefined();
      expect(mb!.delivery_error).toBeUndefined();
    } finally {
      oq.resume();
      bq.resume();
    }
  }, 240_000);
});

describe('the create stores audience parts; the first step makes the recipient rows (a large audience never outlives the request)', () => {
  it('writes parts, not a row per recipient; a step waits while another holds the preparation, a stale one is taken over; everyone once', async () => {
    const q = rt.queues.get('broadcasts')!;
    q.pause(); // the create's step waits until this test has looked
    await seedChats(800, 840);
    const chat_ids = Array.from({ length: 40 }, (_, i) => chatOf(800 + i));
    let id = '';
    try {
      const r = await call<{ broadcast: Broadcast }>(admin, 'POST', '/broadcasts', { name: 'Parts', audience: { kind: 'chats', chat_ids }, content: { body: 'Hello {{name}}' }, options: { pace_ms: 10 } });
      expect(r.status, JSON.stringify(r.body)).toBe(201);
      id = r.body.broadcast.broadcast_id;
      expect(r.body.broadcast.stats).toMatchObject({ total: 40, pending: 40 });
      const key = { org_id: rt.orgId, broadcast_id: id };
      const rows = async () => (await db().entities.broadcastRecipient.query.byBroadcast(key).go({ pages: 'all' })).data;
      expect((await db().entities.broadcast.get(key).go()).data!.audience_parts).toBe(1);
      expect((await db().entities.broadcastAudience.query.byBroadcast(key).go()).data[0]!.rows).toHaveLength(40);
      expect(await rows()).toHaveLength(0);
      // another step holds the preparation (a live lease): this one writes no row and claims nobody
      await db().entities.broadcast.patch(key).set({ prepare_lease: Date.now() + 60_000, prepare_token: 'other' }).go();
      await runBroadcastStep({ ...key, seq: 0 }, { now: Date.now, sleep: (ms) => new Promise((res) => setTimeout(res, ms)), rand: Math.random, budgetMs: 1000 });
      expect(await rows()).toHaveLength(0);
      expect(rt.graph.sent.filter((x) => chat_ids.some((c) => (x.body as { to?: string }).to === c.split('@')[0]))).toHaveLength(0);
      // that step died: once its lease is stale the queued step takes over
      await db().entities.broadcast.patch(key).set({ prepare_lease: Date.now() - 1 }).go();
    } finally {
      q.resume();
    }
    await eventually(async () => (await get(id)).status === 'completed', 60_000, 'the broadcast completes');
    await rt.idle();
    const key = { org_id: rt.orgId, broadcast_id: id };
    expect((await db().entities.broadcast.get(key).go()).data!.prepared_at).toBeGreaterThan(0);
    expect((await db().entities.broadcastAudience.query.byBroadcast(key).go()).data).toHaveLength(0); // parts deleted
    expect((await get(id)).stats).toMatchObject({ sent: 40, pending: 0, failed: 0 });
    expect(chat_ids.map((c) => graphSendsTo(c.split('@')[0]!)).filter((n) => n !== 1)).toHaveLength(0);
  }, 180_000);
});

describe('validation', () => {
  it('answers 400 with the field and reason', async () => {
    const cases: Array<[unknown, string]> = [
      [{ audience: { kind: 'chats', chat_ids: [chatOf(0)] }, content: { body: 'x' } }, 'name'],
      [{ name: 'x', audience: { kind: 'nope' }, content: { body: 'x' } }, 'audience.kind'],
      [{ name: 'x', audience: { kind: 'chats', chat_ids: [] }, content: { body: 'x' } }, 'audience.chat_ids'],
      [{ name: 'x', audience: { kind: 'chats', chat_ids: [chatOf(0)] }, content: { body: '' } }, 'content.body'],
      [{ name: 'x', audience: { kind: 'chats', chat_ids: [chatOf(0)] }, content: { body: 'x' }, options: { pace_ms: 1 } }, 'options.pace_ms'],
      [{ name: 'x', audience: { kind: 'chats', chat_ids: [chatOf(0)] }, content: { body: 'x' }, options: { quiet_hours: { start: '25:00', end: '08:00' } } }, 'options.quiet_hours.start'],
      [{ name: 'x', audience: { kind: 'csv', rows: [{ phone: 'abc' }] }, content: { body: 'x' } }, 'audience.rows.0.phone'],
    ];
    for (const [body, field] of cases) {
      const r = await call<{ error: { details: Array<{ field: string }> } }>(admin, 'POST', '/broadcasts', body);
      expect(r.status, JSON.stringify(body)).toBe(400);
      expect(r.body.error.details.map((d) => d.field)).toContain(field);
    }
    expect((await call(admin, 'GET', '/broadcasts/bc_01HZZZZZZZZZZZZZZZZZZZZZZZ')).status).toBe(404);
    expect((await call(admin, 'GET', '/broadcasts/nope')).status).toBe(400);
  });
});

// a real webhook path to be sure a chat created by WhatsApp is broadcastable too
describe('a chat created by a webhook', () => {
  it('is in the audience of a filter', async () => {
    rt.queues.get('broadcasts')!.resume(); // whatever an earlier test left paused
    await rt.postWebhook(inboundText(rt.phone, '15559990001', 'Hi there'));
    await rt.idle();
    const r = await call<BroadcastPreview>(admin, 'POST', '/broadcasts/preview', { audience: { kind: 'filter', filter: { state: 'open' } }, content: { body: 'Hi {{name}}' } });
    expect(r.status).toBe(200);
    expect(r.body.rows.some((x) => x.chat_id === '15559990001@c.us' && x.skip_reason === null)).toBe(true);
  });
});

describe('template content', () => {
  const appointment = (values: Record<string, string>) => ({ name: 'appointment_reminder', language: 'en_US', values });
  const num = (n: number) => chatOf(n).split('@')[0]!;
  const templateSendsTo = (to: string) => rt.graph.sent.filter((r) => r.wamid && (r.body as { to?: string; type?: string }).to === to && (r.body as { type?: string }).type === 'template');
  beforeAll(async () => {
    rt.queues.get('broadcasts')!.resume();
    expect((await call(admin, 'POST', '/templates/sync', {})).status).toBe(200);
    await seedChats(300, 302, { old: true }); // outside the 24-hour window
    await seedChats(302, 303); // inside
  }, 60_000);

  it('text with a fallback template: the preview says per recipient what is sent', async () => {
    const content = { body: 'Hi {{name}}', template: appointment({ 'body.1': '{{name}}', 'body.2': 'Tuesday 3 pm' }) };
    const r = await call<BroadcastPreview>(admin, 'POST', '/broadcasts/preview', { audience: { kind: 'chats', chat_ids: [300, 301, 302].map(chatOf) }, content });
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    expect(r.body).toMatchObject({ total: 3, to_send: 3, needs_template: 2, via_template: 2, skipped_other: 0 });
    expect(r.body.rows[0]).toMatchObject({ chat_id: chatOf(300), via: 'template', skip_reason: null, text: 'Hello Customer 300, this is a reminder of your appointment on Tuesday 3 pm. Reply to this message if you need to change it.' });
    expect(r.body.rows[2]).toMatchObject({ chat_id: chatOf(302), via: 'text', text: 'Hi Customer 302' });
  });

  it('a Cloud API recipient outside the window gets the template at the Graph stand-in, the others the text', async () => {
    const content = { body: 'Hi {{name}}', template: appointment({ 'body.1': '{{name}}', 'body.2': 'Tuesday 3 pm' }) };
    const r = await call<{ broadcast: Broadcast }>(admin, 'POST', '/broadcasts', { name: 'Reminders', audience: { kind: 'chats', chat_ids: [300, 301, 302].map(chatOf) }, content, options: { pace_ms: 20 } });
    expect(r.status, JSON.stringify(r.body)).toBe(201);
    expect(r.body.broadcast.stats).toMatchObject({ total: 3, skipped: 0, skipped_no_template: 0 });
    await eventually(async () => (await get(r.body.broadcast.broadcast_id)).status === 'completed', 20_000, 'the broadcast completes');
    await rt.idle();
    expect((await get(r.body.broadcast.broadcast_id)).stats).toMatchObject({ sent: 3, failed: 0, pending: 0 });
    for (const n of [300, 301]) {
      const sends = templateSendsTo(num(n));
      expect(sends).toHaveLength(1);
      expect(graphSendsTo(num(n))).toBe(1);
      expect((sends[0]!.body as { template: unknown }).template).toEqual({
        name: 'appointment_reminder',
        language: { code: 'en_US' },
        components: [{ type: 'body', parameters: [{ type: 'text', text: `Customer ${n}` }, { type: 'text', text: 'Tuesday 3 pm' }] }],
      });
    }
    expect(templateSendsTo(num(302))).toHaveLength(0);
    expect(graphSendsTo(num(302))).toBe(1);
    const thread = await call<{ messages: Array<{ body: string; message_type: string }> }>(admin, 'GET', `/chats/${enc(chatOf(300))}/messages`);
    expect(thread.body.messages.some((m) => m.message_type === 'template' && m.body.startsWith('Hello Customer 300,'))).toBe(true);
  });

  it('refuses a template a recipient cannot get: an empty CSV variable, an unknown template (400 with the field)', async () => {
    const rows = [{ phone: num(300), vars: { day: 'Friday' } }, { phone: num(301), vars: {} }];
    const r = await call<{ error: { details: Array<{ field: string; reason: string }> } }>(admin, 'POST', '/broadcasts', { name: 'x', audience: { kind: 'csv', rows }, content: { template: appointment({ 'body.1': '{{name}}', 'body.2': '{{day}}' }) } });
    expect(r.status).toBe(400);
    expect(r.body.error.details[0]).toEqual({ field: 'content.template.values.body.2', reason: `is required (recipient ${num(301)})` });
    const u = await call<{ error: { details: Array<{ field: string }> } }>(admin, 'POST', '/broadcasts/preview', { audience: { kind: 'chats', chat_ids: [chatOf(300)] }, content: { template: { name: 'appointment_reminder', language: 'de_DE', values: {} } } });
    expect(u.status).toBe(400);
    expect(u.body.error.details[0]!.field).toBe('content.template.name');
  });

  it('WhatsApp Web numbers refuse template content with a 400; text with a fallback sends them the text', async () => {
    const p = await seedWaWebPhone(rt.orgId, 'waweb-bc-1', '15557770299');
    await db().entities.chat.create({ org_id: rt.orgId, chat_id: '15550008888@c.us', chat_type: 'user', chat_name: 'Web customer', org_phone: p.org_phone, phone_id: p.phone_id, chat_org_phones: [p.org_phone], latest_message_timestamp: Date.now() }).go();
    const audience = { kind: 'chats', chat_ids: ['15550008888@c.us', chatOf(300)] };
    const r = await call<{ error: { code: string; details: Array<{ field: string }> } }>(admin, 'POST', '/broadcasts', { name: 'x', audience, content: { template: appointment({ 'body.1': 'A', 'body.2': 'B' }) } });
    expect(r.status).toBe(400);
    expect(r.body.error).toMatchObject({ code: 'template.not_cloud', details: [{ field: 'content.template' }] });
    const ok = await call<BroadcastPreview>(admin, 'POST', '/broadcasts/preview', { audience, content: { body: 'Hi', template: appointment({ 'body.1': 'A', 'body.2': 'B' }) } });
    expect(ok.status).toBe(200);
    expect(ok.body.rows.map((x) => x.via)).toEqual(['text', 'template']);
  });
});

describe('media attachments', () => {
  it('sends a media-library file with the text as its caption through the media send path', async () => {
    rt.queues.get('broadcasts')!.resume();
    const photo = await sharp({ create: { width: 40, height: 30, channels: 3, background: { r: 20, g: 120, b: 200 } } }).png().toBuffer();
    rt.graph.addMedia('bc-photo-1', photo, 'image/png');
    await rt.postWebhook(inboundImage(rt.phone, '15558880401', { id: 'bc-photo-1', caption: 'source' }));
    await seedChats(320, 322);
    await rt.idle();
    const src = await eventually(async () => {
      const m = (await call<{ messages: Array<{ unique_id: string; message_type: string; media?: { status?: string } }> }>(admin, 'GET', `/chats/${enc('15558880401@c.us')}/messages`)).body.messages.find((x) => x.message_type === 'image');
      return m?.media?.status === 'stored' ? m : undefined;
    });
    const media = { chat_id: '15558880401@c.us', unique_id: src.unique_id };
    // a file that is not one of that chat's: 400 with the field
    const bad = await call<{ error: { details: Array<{ field: string }> } }>(admin, 'POST', '/broadcasts/preview', { audience: { kind: 'chats', chat_ids: [chatOf(320)] }, content: { body: 'x', media: { ...media, unique_id: 'nope' } } });
    expect(bad.status).toBe(400);
    expect(bad.body.error.details[0]!.field).toBe('content.media.unique_id');
    const uploadsBefore = rt.graph.uploads.length;
    const r = await call<{ broadcast: Broadcast }>(admin, 'POST', '/broadcasts', { name: 'Photo', audience: { kind: 'chats', chat_ids: [320, 321].map(chatOf) }, content: { body: 'New in, {{name}}', media }, options: { pace_ms: 20 } });
    expect(r.status, JSON.stringify(r.body)).toBe(201);
    await eventually(async () => (await get(r.body.broadcast.broadcast_id)).status === 'completed', 20_000, 'the broadcast completes');
    await rt.idle();
    expect((await get(r.body.broadcast.broadcast_id)).stats).toMatchObject({ sent: 2, failed: 0 });
    for (const n of [320, 321]) {
      const to = chatOf(n).split('@')[0]!;
      const sends = rt.graph.sent.filter((x) => x.wamid && (x.body as { to?: string }).to === to);
      expect(sends).toHaveLength(1);
      expect(sends[0]!.body).toMatchObject({ type: 'image', image: { id: expect.any(String), caption: `New in, Customer ${n}` } });
    }
    const uploads = rt.graph.uploads.slice(uploadsBefore);
    expect(uploads).toHaveLength(2);
    for (const u of uploads) expect(Buffer.compare(u.bytes, photo)).toBe(0);
  });
});

describe('contact-filter audience', () => {
  it("maps each filtered contact to its chat; contacts without one are skipped and counted", async () => {
    rt.queues.get('broadcasts')!.resume();
    const indian = (n: number) => `919876500${n}@c.us`; // numbers libphonenumber accepts (Indian mobiles)
    await seedChats(330, 331, { idOf: indian });
    for (const [phone, name] of [['+919876500330', 'Zebra One'], ['+919876500999', 'Zebra Two']] as const) {
      const c = await call(admin, 'POST', '/contacts', { phone, name });
      expect(c.status, JSON.stringify(c.body)).toBe(201);
    }
    const audience = { kind: 'contacts', filter: { q: 'zebra' } };
    const p = await eventually(async () => {
      const r = await call<BroadcastPreview>(admin, 'POST', '/broadcasts/preview', { audience, content: { body: 'Hi {{name}}' } });
      return r.status === 200 && r.body.total === 2 ? r : undefined;
    });
    expect(p.body).toMatchObject({ total: 2, to_send: 1, skipped_other: 1 });
    expect(p.body.rows.find((x) => x.chat_id === indian(330))).toMatchObject({ text: 'Hi Customer 330', skip_reason: null });
    expect(p.body.rows.find((x) => x.chat_id === null)).toMatchObject({ name: 'Zebra Two', skip_reason: 'no_chat' });
    // on another number nobody has a chat
    const other = await call<BroadcastPreview>(admin, 'POST', '/broadcasts/preview', { audience: { ...audience, phone_id: 'no-such-number' }, content: { body: 'Hi' } });
    expect(other.body).toMatchObject({ total: 2, to_send: 0, skipped_other: 2 });
    const r = await call<{ broadcast: Broadcast }>(admin, 'POST', '/broadcasts', { name: 'Zebras', audience, content: { body: 'Hi {{name}}' }, options: { pace_ms: 20 } });
    expect(r.status, JSON.stringify(r.body)).toBe(201);
    expect(r.body.broadcast).toMatchObject({ audience_kind: 'contacts', stats: { total: 2, skipped_other: 1 } });
    await eventually(async () => (await get(r.body.broadcast.broadcast_id)).status === 'completed', 20_000, 'the broadcast completes');
    await rt.idle();
    expect(graphSendsTo('919876500330')).toBe(1);
    expect(graphSendsTo('919876500999')).toBe(0);
  });
});

