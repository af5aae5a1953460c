import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { startTestRuntime, type TestRuntime } from '../factories/runtime.ts';
import { inboundText } from '../../shared/whatsapp/cloud/payloads.ts';
import { seedDemo } from '../../scripts/local/seed.ts';
import { db } from '../../shared/db/service.ts';
import { commitTransaction } from '../../shared/db/transaction.ts';
import { chatWriteItems, counterItems, type ChatRow } from '../../shared/chat/chat-write.ts';
import { mergeDeltas } from '../../shared/chat/chat-state.rules.ts';
import { forgetOrgPreferences } from '../../shared/org/preferences.ts';
import { eventually } from '../factories/wait.ts';
import type { Chat, ChatLabel } from '../../shared/chat/chat.schemas.ts';
import type { FolderCounts, InboxState } from '../../shared/chat/chat-state.rules.ts';
import type { BulkJob } from '../../shared/bulk/bulk-job.schemas.ts';

/**
 * Bulk jobs on chats over HTTP on the local runtime (issue 4 part 11): 250 chats labelled through a
 * filter in background steps with progress pushed to the creator only, filter counters right
 * afterwards, undo (once) restoring the previous labels, per-chat failures for a member without
 * access, other orgs' jobs 404, field errors, and the CSV export (header, rows, masking).
 */
let rt: TestRuntime;
let admin: string;
let member: string;
let outsider: string;
let otherOrg: string;
let batch: ChatLabel;
let vip: ChatLabel;
const N = 250;
/** chats 0..9 already carry VIP; chats 0..4 are hidden from the member (chat_access) */
const chatOf = (n: number) => `1555777${String(n).padStart(4, '0')}@c.us`;
const enc = encodeURIComponent;

type Res<T> = { status: number; body: T };
const call = async <T = Record<string, unknown>>(token: string, method: string, path: string, json?: unknown, org = rt.orgId): Promise<Res<T>> => {
  const r = await rt.api(token, `/api/orgs/${org}${path}`, { method, json });
  return { status: r.status, body: (await r.json()) as T };
};
const counts = async (token: string) => (await call<{ counts: Record<InboxState, FolderCounts> }>(token, 'GET', '/chats/counts')).body.counts;
const job = async (token: string, id: string) => (await call<{ job: BulkJob }>(token, 'GET', `/chats/bulk-jobs/${id}`)).body.job;
type ErrorBody = { error: { code: string; details?: Array<{ field: string; reason: string }> } };

function connect(token: string): Promise<{ ws: WebSocket; events: Array<{ type: string; properties: Record<string, unknown> }> }> {
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(`ws://127.0.0.1:${rt.port}/ws?token=${enc(token)}&org_id=${enc(rt.orgId)}`);
    const events: Array<{ type: string; properties: Record<string, unknown> }> = [];
    ws.on('message', (d) => events.push(JSON.parse(String(d))));
    ws.on('open', () => resolve({ ws, events }));
    ws.on('error', reject);
  });
}

/** Store N chats the way the write path does (rows, label rows, counters), 20 to a transaction. */
async function seedChats(): Promise<void> {
  const phone = (await db().entities.phone.query.byOrg({ org_id: rt.orgId }).go()).data[0]!;
  const base = Date.now() - 3_600_000;
  for (let from = 0; from < N; from += 20) {
    const now = Date.now();
    const ok = await commitTransaction((e) => {
      const items = [];
      let deltas: Record<string, number> = {};
      for (let n = from; n < Math.min(N, from + 20); n++) {
        const row = {
          org_id: rt.orgId,
          chat_id: chatOf(n),
          // chat 7's customer chose a name a spreadsheet would run as a formula
          chat_name: n === 7 ? '=HYPERLINK("http://x")' : `Bulk customer ${n}`,
          chat_type: 'user',
          org_phone: phone.org_phone,
          phone_id: phone.phone_id,
          chat_org_phones: [phone.org_phone],
          latest_message_timestamp: base + n * 1000,
          message_unread_count: 0,
          unread_count: {},
          label_ids: n < 10 ? [batch.label_id, vip.label_id] : [batch.label_id],
          ...(n < 5 ? { chat_access: { [rt.adminEmail]: true } } : {}),
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
  const outsiderEmail = 'outsider@bulk.chorus';
  const sub = await rt.createUser(outsiderEmail, rt.password);
  otherOrg = await seedDemo({ orgName: 'Other Co', admin: { email: outsiderEmail, sub, name: 'Outsider' }, member: { email: 'm2@bulk.chorus', sub: 'x', name: 'M2' }, phone: { phone_number_id: '777000555', display_phone_number: '15557770000' } });
  [admin, member, outsider] = await Promise.all([rt.signIn(rt.adminEmail), rt.signIn(rt.memberEmail), rt.signIn(outsiderEmail)]);
  batch = (await call<{ label: ChatLabel }>(admin, 'POST', '/labels', { name: 'Batch', color: '#1f7a8c' })).body.label;
  vip = (await call<{ label: ChatLabel }>(admin, 'POST', '/labels', { name: '=VIP, "gold"', color: '#aa3300' })).body.label;
  // a few chats through real webhooks, the rest through the write path
  for (let n = 1; n <= 3; n++) await rt.postWebhook(inboundText(rt.phone, `155566600${n}`, `Hello ${n}`));
  await rt.idle();
  await seedChats();
}, 120_000);
afterAll(async () => rt?.cleanup());

describe('validation', () => {
  it('answers 400 with the field and reason', async () => {
    const cases: Array<[unknown, { field: string; reason?: string }]> = [
      [{ action: 'paint', chat_ids: ['1@c.us'] }, { field: 'action' }],
      [{ action: 'close' }, { field: 'chat_ids', reason: 'give either chat_ids or filter' }],
      [{ action: 'close', chat_ids: ['1@c.us'], filter: { state: 'open' } }, { field: 'chat_ids', reason: 'give either chat_ids or filter' }],
      [{ action: 'label', chat_ids: ['1@c.us'] }, { field: 'params.label_ids', reason: 'is required' }],
      [{ action: 'assign', chat_ids: ['1@c.us'] }, { field: 'params.assigned_to' }],
      [{ action: 'close', chat_ids: Array.from({ length: 10_001 }, (_, i) => `${i}@c.us`) }, { field: 'chat_ids', reason: 'must name at most 10000 chats (use a filter for more)' }],
      [{ action: 'close', filter: { state: 'everywhere' } }, { field: 'filter.state' }],
      [{ action: 'label', params: { label_ids: ['lbl_nope'] }, chat_ids: ['1@c.us'] }, { field: 'params.label_ids', reason: 'unknown label lbl_nope' }],
      [{ action: 'assign', params: { assigned_to: 'stranger@x.com' }, chat_ids: ['1@c.us'] }, { field: 'params.assigned_to', reason: 'is not a member of this workspace' }],
    ];
    for (const [input, detail] of cases) {
      const r = await call<ErrorBody>(admin, 'POST', '/chats/bulk-jobs', input);
      expect(r.status, JSON.stringify(input).slice(0, 80)).toBe(400);
      expect(r.body.error.details).toEqual(expect.arrayContaining([expect.objectContaining(detail)]));
    }
    expect((await call(admin, 'GET', '/chats/bulk-jobs/not-a-job')).status).toBe(400);
    expect((await call(admin, 'GET', '/chats/export.csv?unread=maybe')).status).toBe(400);
  });
});

describe('labelling 250 chats selected by a filter', () => {
  let labelled: BulkJob;

  it('runs in the background, pushes progress to its creator only, and keeps the counters right', async () => {
    const before = await counts(admin);
    expect(before.open.labels[batch.label_id]).toBe(N);
    expect(before.open.labels[vip.label_id]).toBe(10);
    const [mine, theirs] = await Promise.all([connect(admin), connect(member)]);
    try {
      const r = await call<{ job: BulkJob }>(admin, 'POST', '/chats/bulk-jobs', { action: 'label', params: { label_ids: [vip.label_id] }, filter: { label_id: batch.label_id } });
      expect(r.status).toBe(202);
      expect(r.body.job).toMatchObject({ action: 'label', status: 'queued', selection: { kind: 'filter', filter: { state: 'open', label_id: batch.label_id } }, created_by: rt.adminEmail, processed: 0 });
      await rt.idle();
      labelled = await eventually(async () => {
        const j = await job(admin, r.body.job.job_id);
        return j.status === 'done' && j;
      }, 30_000, 'the job to finish');
      expect(labelled).toMatchObject({ total: N, processed: N, succeeded: N, failed_count: 0, failures: [] });
      expect(labelled.finished_at).toBeGreaterThanOrEqual(labelled.created_at);
      // progress over the socket: the resolve step, then a step per 200 chats, up to the total
      const progress = await eventually(async () => {
        const evs = mine.events.filter((e) => e.type === 'bulk_job.updated').map((e) => e.properties.job as BulkJob);
        return evs.some((j) => j.status === 'done') && evs;
      }, 10_000, 'bulk_job.updated events');
      expect(progress.every((j) => j.job_id === labelled.job_id)).toBe(true);
      expect(progress.map((j) => j.processed)).toEqual([0, 200, 250]);
      expect(progress.at(-1)).toMatchObject({ status: 'done', total: N, processed: N });
      expect(theirs.events.filter((e) => e.type === 'bulk_job.updated')).toEqual([]);
      // every chat that did not have the label changed once, announced as chat.updated
      expect(new Set(mine.events.filter((e) => e.type === 'chat.updated').map((e) => (e.properties.chat as Chat).chat_id)).size).toBe(N - 10);
    } finally {
      mine.ws.close();
      theirs.ws.close();
    }
    const after = await counts(admin);
    expect(after.open.labels[vip.label_id]).toBe(N);
    expect(after.open.labels[batch.label_id]).toBe(N);
    expect(after.open.total).toBe(before.open.total);
    const chat = (await call<{ chat: Chat }>(admin, 'GET', `/chats/${enc(chatOf(42))}`)).body.chat;
    expect(chat.label_ids).toEqual([batch.label_id, vip.label_id]);
  });

  it('is not visible to other members or other orgs (404)', async () => {
    expect((await call<ErrorBody>(member, 'GET', `/chats/bulk-jobs/${labelled.job_id}`)).body.error.code).toBe('bulk_job.not_found');
    const other = await call<ErrorBody>(outsider, 'GET', `/chats/bulk-jobs/${labelled.job_id}`, undefined, otherOrg);
    expect([other.status, other.body.error.code]).toEqual([404, 'bulk_job.not_found']);
    expect((await call(outsider, 'GET', `/chats/bulk-jobs/${labelled.job_id}`)).status).toBe(404);
    expect((await call(outsider, 'POST', `/chats/bulk-jobs/${labelled.job_id}/undo`, undefined, otherOrg)).status).toBe(404);
    expect((await call(member, 'POST', `/chats/bulk-jobs/${labelled.job_id}/undo`)).status).toBe(404);
  });

  it('undo takes off only the labels the job added, once', async () => {
    const r = await call<{ job: BulkJob }>(admin, 'POST', `/chats/bulk-jobs/${labelled.job_id}/undo`);
    expect(r.status).toBe(202);
    expect(r.body.job).toMatchObject({ undo_of: labelled.job_id, action: 'label', status: 'queued', selection: { kind: 'undo', job_id: labelled.job_id } });
    await rt.idle();
    const undo = await eventually(async () => {
      const j = await job(admin, r.body.job.job_id);
      return j.status === 'done' && j;
    }, 30_000, 'the undo to finish');
    expect(undo).toMatchObject({ total: N, processed: N, succeeded: N, failed_count: 0 });
    expect((await job(admin, labelled.job_id)).undone_by_job).toBe(undo.job_id);
    const after = await counts(admin);
    expect(after.open.labels[vip.label_id]).toBe(10);
    expect(after.open.labels[batch.label_id]).toBe(N);
    expect((await call<{ chat: Chat }>(admin, 'GET', `/chats/${enc(chatOf(3))}`)).body.chat.label_ids).toEqual([batch.label_id, vip.label_id]);
    expect((await call<{ chat: Chat }>(admin, 'GET', `/chats/${enc(chatOf(42))}`)).body.chat.label_ids).toEqual([batch.label_id]);
    // once only; an undo is not undone; a close cannot be undone
    const again = await call<ErrorBody>(admin, 'POST', `/chats/bulk-jobs/${labelled.job_id}/undo`);
    expect([again.status, again.body.error.code]).toEqual([409, 'bulk_job.already_undone']);
    expect((await call<ErrorBody>(admin, 'POST', `/chats/bulk-jobs/${undo.job_id}/undo`)).body.error.code).toBe('bulk_job.not_undoable');
  });
});

describe('a member', () => {
  it('gets a per-chat failure for each chat they may not see', async () => {
    const ids = Array.from({ length: 12 }, (_, i) => chatOf(i));
    const r = await call<{ job: BulkJob }>(member, 'POST', '/chats/bulk-jobs', { action: 'assign', params: { assigned_to: rt.memberEmail }, chat_ids: [...ids, 'nobody@c.us'] });
    expect(r.status).toBe(202);
    await rt.idle();
    const done = await eventually(async () => {
      const j = await job(member, r.body.job.job_id);
      return j.status === 'done' && j;
    }, 30_000, 'the member job');
    expect(done).toMatchObject({ total: 13, processed: 13, succeeded: 7, failed_count: 6 });
    expect(done.failures).toEqual(
      expect.arrayContaining([
        ...[0, 1, 2, 3, 4].map((n) => ({ chat_id: chatOf(n), reason: 'You do not have access to this chat' })),
        { chat_id: 'nobody@c.us', reason: 'Chat not found' },
      ]),
    );
    expect((await counts(member)).open.mine).toBe(7);
    // undo puts the assignee back (unassigned)
    const undo = await call<{ job: BulkJob }>(member, 'POST', `/chats/bulk-jobs/${done.job_id}/undo`);
    expect(undo.status).toBe(202);
    await rt.idle();
    await eventually(async () => (await job(member, undo.body.job.job_id)).status === 'done', 30_000, 'the undo');
    expect((await counts(member)).open.mine).toBe(0);
    // the admin sees the member's job; a close cannot be undone
    expect((await job(admin, done.job_id)).undone_by_job).toBe(undo.body.job.job_id);
    const close = await call<{ job: BulkJob }>(member, 'POST', '/chats/bulk-jobs', { action: 'close', chat_ids: [chatOf(200)] });
    await rt.idle();
    await eventually(async () => (await job(member, close.body.job.job_id)).status === 'done', 30_000, 'the close');
    expect((await call<ErrorBody>(member, 'POST', `/chats/bulk-jobs/${close.body.job.job_id}/undo`)).body.error.code).toBe('bulk_job.not_undoable');
    expect((await counts(admin)).closed.total).toBe(1);
  });
});

describe('archiving a whole folder', () => {
  it('reads the filter to the end first, so chats leaving the folder as they are archived are not skipped', async () => {
    const before = await counts(admin);
    const r = await call<{ job: BulkJob }>(admin, 'POST', '/chats/bulk-jobs', { action: 'archive', filter: { state: 'open', label_id: batch.label_id } });
    await rt.idle();
    const done = await eventually(async () => {
      const j = await job(admin, r.body.job.job_id);
      return j.status === 'done' && j;
    }, 30_000, 'the archive job');
    expect(done).toMatchObject({ total: N - 1, succeeded: N - 1, failed_count: 0 });
    const after = await counts(admin);
    expect(after.open.labels[batch.label_id] ?? 0).toBe(0);
    expect(after.archived.total).toBe(before.archived.total + N - 1);
    // and back
    const back = await call<{ job: BulkJob }>(admin, 'POST', '/chats/bulk-jobs', { action: 'unarchive', filter: { state: 'archived' } });
    await rt.idle();
    await eventually(async () => (await job(admin, back.body.job.job_id)).status === 'done', 30_000, 'the unarchive job');
    expect((await counts(admin)).open.labels[batch.label_id]).toBe(N - 1);
  });
});

describe('CSV export', () => {
  const csv = async (token: string, q: string) => {
    const r = await rt.api(token, `/api/orgs/${rt.orgId}/chats/export.csv?${q}`);
    return { status: r.status, type: r.headers.get('content-type'), disposition: r.headers.get('content-disposition'), lines: (await r.text()).split('\r\n').filter(Boolean) };
  };

  it('has the header and one row per chat of the filter, labels by name', async () => {
    const r = await csv(admin, `label_id=${batch.label_id}`);
    expect(r.status).toBe(200);
    expect(r.type).toMatch(/^text\/csv/);
    expect(r.disposition).toMatch(/^attachment; filename="chats-open-\d{4}-\d{2}-\d{2}\.csv"$/);
    expect(r.lines[0]).toBe('chat_id,chat_name,chat_type,org_phone,inbox_state,assigned_to,labels,unread,latest_message_timestamp,closed_at,customer_number,username');
    expect(r.lines).toHaveLength(1 + N - 1);
    // newest first: chat 249; a name a spreadsheet would run is defused and quoted
    expect(r.lines[1]).toMatch(new RegExp(`^${chatOf(249)},Bulk customer 249,user,\\d+,open,,Batch,false,\\d{4}-\\d{2}-\\d{2}T[\\d:.]+Z,,${chatOf(249).replace('@c.us', '')},$`));
    expect(r.lines.find((l) => l.startsWith(chatOf(3)))).toContain(`,"Batch; =VIP, ""gold""",`);
    expect(r.lines.find((l) => l.startsWith(chatOf(7)))).toContain(`,"'=HYPERLINK(""http://x"")",user,`);
  });

  it('leaves out chats the member may not see and masks numbers when the org masks them', async () => {
    await db().entities.organization.patch({ org_id: rt.orgId }).set({ org_metadata: { preferences: { mask_phone_numbers: true } } }).go();
    forgetOrgPreferences();
    try {
      const r = await csv(member, `label_id=${batch.label_id}`);
      expect(r.lines).toHaveLength(1 + N - 1 - 5);
      expect(r.lines.some((l) => l.includes(chatOf(3)))).toBe(false);
      // issue 41 §5: the number chat id comes sealed, as the API gives it to this member
      expect(r.lines[1]!.startsWith('cht__')).toBe(true);
      expect(r.lines.join('\n')).not.toMatch(/\d{7,}@c\.us/);
      expect(r.lines[1]!.endsWith(',15*******49,')).toBe(true);
      expect((await csv(admin, `label_id=${batch.label_id}`)).lines[1]!.startsWith(`${chatOf(249)},`)).toBe(true);
    } finally {
      await db().entities.organization.patch({ org_id: rt.orgId }).set({ org_metadata: { preferences: {} } }).go();
      forgetOrgPreferences();
    }
    expect((await rt.api(outsider, `/api/orgs/${rt.orgId}/chats/export.csv`)).status).toBe(404);
  });
});
