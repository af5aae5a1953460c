import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestRuntime, type TestRuntime } from '../factories/runtime.ts';
import { inboundText } from '../../shared/whatsapp/cloud/payloads.ts';
import { seedDemo } from '../../scripts/local/seed.ts';
import { db } from '../../shared/db/service.ts';
import { forgetOrgPreferences } from '../../shared/org/preferences.ts';
import { eventually } from '../factories/wait.ts';
import type { Chat } from '../../shared/chat/chat.schemas.ts';
import type { FolderCounts, InboxState } from '../../shared/chat/chat-state.rules.ts';

/**
 * The team chat workflow over HTTP on the local runtime (issue 4): assign, labels, close and
 * reopen on a new message, 'close for me', snooze (woken by the customer and by the scheduler),
 * archive, mute, pin, mark unread, filters with their counters kept on write, chat_access and
 * masking, the chat_assignee permission, and other orgs.
 */
let rt: TestRuntime;
let admin: string;
let member: string;
let outsider: string;
const enc = encodeURIComponent;
const wa = (n: number) => `1555444${String(n).padStart(4, '0')}`;
const chatOf = (n: number) => `${wa(n)}@c.us`;

type Res<T> = { status: number; body: T };
const call = async <T = Record<string, unknown>>(token: string, method: string, path: string, json?: unknown): Promise<Res<T>> => {
  const r = await rt.api(token, `/api/orgs/${rt.orgId}${path}`, { method, json });
  return { status: r.status, body: (await r.json()) as T };
};
const list = async (token: string, q: string) => (await call<{ chats: Chat[]; cursor: string | null }>(token, 'GET', `/chats?${q}`)).body;
const ids = async (token: string, q: string) => (await list(token, q)).chats.map((c) => c.chat_id);
const counts = async (token: string) => (await call<{ counts: Record<InboxState, FolderCounts> }>(token, 'GET', '/chats/counts')).body.counts;
const say = async (n: number, text: string) => {
  await rt.postWebhook(inboundText(rt.phone, wa(n), text));
  await rt.idle();
};

beforeAll(async () => {
  rt = await startTestRuntime();
  const outsiderEmail = 'outsider@workflow.chorus';
  const sub = await rt.createUser(outsiderEmail, rt.password);
  await seedDemo({ orgName: 'Other Co', admin: { email: outsiderEmail, sub, name: 'Outsider' }, member: { email: 'm2@workflow.chorus', sub: 'x', name: 'M2' }, phone: { phone_number_id: '444000555', display_phone_number: '15554440000' } });
  [admin, member, outsider] = await Promise.all([rt.signIn(rt.adminEmail), rt.signIn(rt.memberEmail), rt.signIn(outsiderEmail)]);
  for (let n = 1; n <= 6; n++) await rt.postWebhook(inboundText(rt.phone, wa(n), `Hello ${n}`));
  await rt.idle();
});
afterAll(async () => rt?.cleanup());

describe('assign', () => {
  it('assigns several chats, notifies the assignee, and Mine / Unassigned follow with their counts', async () => {
    const before = await counts(member);
    const r = await call<{ chats: Chat[]; failed: unknown[] }>(admin, 'POST', '/chats/assign', { chat_ids: [chatOf(1), chatOf(2)], assigned_to: rt.memberEmail.toUpperCase() });
    expect(r.status).toBe(200);
    expect(r.body.failed).toEqual([]);
    expect(r.body.chats.map((c) => c.assigned_to)).toEqual([rt.memberEmail, rt.memberEmail]);
    expect(new Set(await ids(member, 'assignee=me'))).toEqual(new Set([chatOf(1), chatOf(2)]));
    expect(await ids(member, 'assignee=none')).not.toContain(chatOf(1));
    const after = await counts(member);
    expect(after.open.mine).toBe(before.open.mine + 2);
    expect(after.open.unassigned).toBe(before.open.unassigned - 2);
    const notes = await eventually(async () => {
      const n = (await call<{ notifications: Array<{ kind: string; chat_id: string }> }>(member, 'GET', '/notifications')).body.notifications;
      return n.filter((x) => x.kind === 'assigned').length >= 2 ? n : undefined;
    }, 10_000, 'assignment notifications');
    expect(notes.map((x) => x.chat_id)).toEqual(expect.arrayContaining([chatOf(1), chatOf(2)]));
  });

  it('refuses a non-member assignee and bad input with the field', async () => {
    const r = await call<{ error: { details: unknown[] } }>(admin, 'POST', '/chats/assign', { chat_ids: [chatOf(1)], assigned_to: 'nobody@else.io' });
    expect(r.status).toBe(400);
    expect(r.body.error.details).toContainEqual({ field: 'assigned_to', reason: 'is not a member of this workspace' });
    const bad = await call<{ error: { details: unknown[] } }>(admin, 'POST', '/chats/assign', { chat_ids: [], assigned_to: null });
    expect(bad.status).toBe(400);
    expect(bad.body.error.details).toContainEqual({ field: 'chat_ids', reason: 'must name at least one chat' });
  });

  it('members cannot change assignees when member_permissions.chat_assignee is false; admins still can', async () => {
    await db().entities.organization.patch({ org_id: rt.orgId }).set({ org_metadata: { preferences: { member_permissions: { chat_assignee: false } } } }).go();
    forgetOrgPreferences();
    await new Promise((r) => setTimeout(r, 5_100)); // the handlers' preference cache (5 s)
    try {
      const r = await call<{ error: { code: string } }>(member, 'POST', '/chats/assign', { chat_ids: [chatOf(3)], assigned_to: rt.memberEmail });
      expect(r.status).toBe(403);
      expect(r.body.error.code).toBe('chat.assignee_forbidden');
      expect((await call(admin, 'POST', '/chats/assign', { chat_ids: [chatOf(3)], assigned_to: null })).status).toBe(200);
    } finally {
      await db().entities.organization.patch({ org_id: rt.orgId }).set({ org_metadata: { preferences: {} } }).go();
      forgetOrgPreferences();
      await new Promise((r) => setTimeout(r, 5_100));
    }
  });
});

describe('labels', () => {
  it('admins manage labels; chats get and lose them; the label filter and usage count follow', async () => {
    const vip = (await call<{ label: { label_id: string } }>(admin, 'POST', '/labels', { name: 'Gold', color: '#AA3300' })).body.label;
    expect((await call(member, 'POST', '/labels', { name: 'Nope', color: '#000000' })).status).toBe(403);
    expect((await call<{ error: { details: unknown[] } }>(admin, 'POST', '/labels', { name: 'gold', color: '#112233' })).status).toBe(409);
    expect((await call<{ error: { details: unknown[] } }>(admin, 'POST', '/labels', { name: 'X', color: 'red' })).body.error.details).toContainEqual({ field: 'color', reason: 'must be a colour like #1f7a8c' });
    const r = await call<{ chats: Chat[] }>(member, 'POST', '/chats/labels', { chat_ids: [chatOf(2), chatOf(3)], add: [vip.label_id] });
    expect(r.body.chats.every((c) => c.label_ids?.includes(vip.label_id))).toBe(true);
    expect(new Set(await ids(member, `label_id=${vip.label_id}`))).toEqual(new Set([chatOf(2), chatOf(3)]));
    // a new message re-keys the label rows: still found once, on top
    await say(3, 'Any news?');
    expect(await ids(member, `label_id=${vip.label_id}`)).toEqual([chatOf(3), chatOf(2)]);
    expect(await ids(member, `label_id=${vip.label_id}&assignee=me`)).toEqual([chatOf(2)]);
    const labels = (await call<{ labels: Array<{ label_id: string; usage_count: number }> }>(member, 'GET', '/labels')).body.labels;
    expect(labels.find((l) => l.label_id === vip.label_id)?.usage_count).toBe(2);
    expect((await call<{ error: { details: unknown[] } }>(member, 'POST', '/chats/labels', { chat_ids: [chatOf(2)], add: ['lbl_nope'] })).status).toBe(400);
    const del = await call<{ removed_from: number }>(admin, 'DELETE', `/labels/${vip.label_id}`);
    expect(del.body.removed_from).toBe(2);
    expect(await ids(member, `label_id=${vip.label_id}`)).toEqual([]);
    expect((await counts(member)).open.labels[vip.label_id] ?? 0).toBe(0);
  });
});

describe('close, reopen, close for me', () => {
  it('closing moves the chat to Closed; a new customer message reopens it by itself', async () => {
    const r = await call<{ chats: Chat[] }>(member, 'POST', '/chats/close', { chat_ids: [chatOf(4)], is_closed: true });
    expect(r.body.chats[0]).toMatchObject({ inbox_state: 'closed', closed_by: rt.memberEmail });
    expect(await ids(member, 'state=closed')).toContain(chatOf(4));
    expect(await ids(member, 'state=open')).not.toContain(chatOf(4));
    await say(4, 'One more thing');
    expect(await ids(member, 'state=open')).toContain(chatOf(4));
    expect(await ids(member, 'state=closed')).not.toContain(chatOf(4));
  });

  it("'Close for me' hides the chat from that member only, until the next message; refused while closed", async () => {
    const r = await call<{ chats: Chat[]; failed: unknown[] }>(member, 'POST', '/chats/close', { chat_ids: [chatOf(5)], is_closed: true, type: 'me' });
    expect(r.body.failed).toEqual([]);
    expect(await ids(member, 'state=open&limit=1000')).not.toContain(chatOf(5));
    expect(await ids(admin, 'state=open&limit=1000')).toContain(chatOf(5));
    await say(5, 'Back again');
    expect(await ids(member, 'state=open&limit=1000')).toContain(chatOf(5));
    await call(admin, 'POST', '/chats/close', { chat_ids: [chatOf(5)], is_closed: true });
    const again = await call<{ failed: Array<{ reason: string }> }>(member, 'POST', '/chats/close', { chat_ids: [chatOf(5)], is_closed: true, type: 'me' });
    expect(again.body.failed[0].reason).toBe('This chat is already closed');
    await call(admin, 'POST', '/chats/close', { chat_ids: [chatOf(5)], is_closed: false });
    expect(await ids(member, 'state=open&limit=1000')).toContain(chatOf(5));
  });
});

describe('snooze', () => {
  it('leaves the inbox, comes back when the customer writes again, and tells the assignee', async () => {
    await call(admin, 'POST', '/chats/assign', { chat_ids: [chatOf(6)], assigned_to: rt.memberEmail });
    const until = Date.now() + 3_600_000;
    const r = await call<{ chats: Chat[] }>(member, 'POST', '/chats/snooze', { chat_ids: [chatOf(6)], snooze_until: until });
    expect(r.body.chats[0]).toMatchObject({ inbox_state: 'snoozed', snooze_metadata: { snooze_until: until, snoozed_by: rt.memberEmail } });
    expect(await ids(member, 'state=snoozed')).toEqual([chatOf(6)]);
    expect((await counts(member)).snoozed.mine).toBe(1);
    await say(6, 'Are you there?');
    expect(await ids(member, 'state=snoozed')).toEqual([]);
    expect(await ids(member, 'state=open&assignee=me')).toContain(chatOf(6));
    await eventually(async () => (await call<{ notifications: Array<{ kind: string }> }>(member, 'GET', '/notifications')).body.notifications.some((n) => n.kind === 'snooze_woke'), 10_000, 'the snooze notification');
  });

  it('wakes on time through the scheduler', async () => {
    const r = await call<{ chats: Chat[] }>(admin, 'POST', '/chats/snooze', { chat_ids: [chatOf(6)], snooze_until: Date.now() + 1500 });
    expect(r.body.chats[0].inbox_state).toBe('snoozed');
    await eventually(async () => (await ids(member, 'state=open&limit=1000')).includes(chatOf(6)), 15_000, 'the scheduled wake-up');
    expect(await ids(member, 'state=snoozed')).toEqual([]);
  });

  it('refuses a time in the past', async () => {
    const r = await call<{ error: { details: unknown[] } }>(admin, 'POST', '/chats/snooze', { chat_ids: [chatOf(6)], snooze_until: Date.now() - 1 });
    expect(r.status).toBe(400);
    expect(r.body.error.details).toContainEqual({ field: 'snooze_until', reason: 'must be in the future' });
  });
});

describe('archive, mute, pin, unread', () => {
  it('archive moves folders; mute is a flag; pins are per member and come first; mark unread feeds the Unread filter', async () => {
    await call(admin, 'POST', '/chats/archive', { chat_ids: [chatOf(1)], is_archived: true });
    expect(await ids(member, 'state=archived')).toEqual([chatOf(1)]);
    await say(1, 'still there?');
    expect(await ids(member, 'state=archived')).toEqual([chatOf(1)]); // stays archived
    await call(admin, 'POST', '/chats/archive', { chat_ids: [chatOf(1)], is_archived: false });
    const muted = await call<{ chats: Chat[] }>(member, 'POST', '/chats/mute', { chat_ids: [chatOf(2)], is_muted: true });
    expect(muted.body.chats[0].is_muted).toBe(true);

    await call(member, 'POST', '/chats/pin', { chat_ids: [chatOf(2)], is_pinned: true });
    const pinned = async (token: string, q: string) => (await call<{ chats: Chat[] }>(token, 'GET', `/chats/pinned?${q}`)).body.chats;
    const mine = await pinned(member, 'state=open');
    expect(mine.map((c) => c.chat_id)).toEqual([chatOf(2)]);
    expect(mine[0].is_pinned).toBe(true);
    expect((await list(member, 'state=open&limit=1000')).chats.find((c) => c.chat_id === chatOf(2))?.is_pinned).toBe(true);
    expect(await pinned(member, 'state=closed')).toEqual([]);
    expect(await pinned(admin, 'state=open')).toEqual([]);

    await call(member, 'POST', `/chats/${enc(chatOf(2))}/read`);
    expect(await ids(member, 'state=open&unread=true')).not.toContain(chatOf(2));
    const u = await call<{ chat: Chat }>(member, 'POST', `/chats/${enc(chatOf(2))}/unread`);
    expect(u.body.chat.marked_unread).toBe(true);
    expect(await ids(member, 'state=open&unread=true')).toContain(chatOf(2));
    await call(member, 'POST', `/chats/${enc(chatOf(2))}/read`);
    expect(await ids(member, 'state=open&unread=true')).not.toContain(chatOf(2));
  });
});

describe('counters stay right under concurrent writes', () => {
  it('folder totals equal what the indexes hold after racing closes, assigns and messages', async () => {
    const chats = [1, 2, 3, 4, 5, 6].map(chatOf);
    await Promise.all([
      call(admin, 'POST', '/chats/close', { chat_ids: chats.slice(0, 3), is_closed: true }),
      call(member, 'POST', '/chats/assign', { chat_ids: chats, assigned_to: rt.adminEmail }),
      say(2, 'racing'),
      call(admin, 'POST', '/chats/close', { chat_ids: chats.slice(2), is_closed: true }),
    ]);
    await rt.idle();
    const c = await counts(admin);
    for (const state of ['open', 'closed', 'snoozed', 'archived'] as const) {
      const all = await ids(admin, `state=${state}&limit=1000`);
      expect(c[state].total, state).toBe(all.length);
      expect(c[state].mine, `${state} mine`).toBe((await ids(admin, `state=${state}&assignee=me&limit=1000`)).length);
      expect(c[state].unread, `${state} unread`).toBe((await ids(admin, `state=${state}&unread=true&limit=1000`)).length);
    }
  });
});

describe('combined filters (issue 14 item 8)', () => {
  const unread = (c: Chat) => Object.values(c.unread_count ?? {}).some((n) => n > 0) || !!c.marked_unread;
  /** every chat of the folder through the API with limit=1 pages (cursors exercised) */
  async function paged(token: string, q: string): Promise<string[]> {
    const out: string[] = [];
    let cursor: string | null = null;
    do {
      const page = await list(token, `${q}&limit=1${cursor ? `&cursor=${enc(cursor)}` : ''}`);
      out.push(...page.chats.map((c) => c.chat_id));
      cursor = page.cursor;
    } while (cursor);
    return out;
  }

  it('each pair (and a triple) answers what the whole folder filtered by hand holds, page by page, newest first', async () => {
    for (let n = 7; n <= 10; n++) await rt.postWebhook(inboundText(rt.phone, wa(n), `Combined ${n}`));
    await rt.idle();
    const gold = (await call<{ label: { label_id: string } }>(admin, 'POST', '/labels', { name: 'Combined', color: '#AA3301' })).body.label.label_id;
    await call(admin, 'POST', '/chats/assign', { chat_ids: [chatOf(7), chatOf(8)], assigned_to: rt.memberEmail });
    await call(admin, 'POST', '/chats/labels', { chat_ids: [chatOf(8), chatOf(9), chatOf(10)], add: [gold] });
    await call(member, 'POST', `/chats/${enc(chatOf(8))}/read`);
    await call(member, 'POST', `/chats/${enc(chatOf(10))}/read`);
    const all = (await list(admin, 'state=open&limit=1000')).chats;
    const expectOf = (keep: (c: Chat) => boolean) => all.filter(keep).map((c) => c.chat_id);
    const cases: Array<[string, (c: Chat) => boolean]> = [
      ['assignee=me&unread=true', (c) => c.assigned_to === rt.memberEmail && unread(c)],
      ['assignee=me&unread=false', (c) => c.assigned_to === rt.memberEmail && !unread(c)],
      ['assignee=none&unread=true', (c) => !c.assigned_to && unread(c)],
      [`label_id=${gold}&assignee=none`, (c) => !!c.label_ids?.includes(gold) && !c.assigned_to],
      [`label_id=${gold}&assignee=me`, (c) => !!c.label_ids?.includes(gold) && c.assigned_to === rt.memberEmail],
      [`label_id=${gold}&unread=true`, (c) => !!c.label_ids?.includes(gold) && unread(c)],
      [`label_id=${gold}&unread=false`, (c) => !!c.label_ids?.includes(gold) && !unread(c)],
      [`label_id=${gold}&assignee=none&unread=true`, (c) => !!c.label_ids?.includes(gold) && !c.assigned_to && unread(c)],
    ];
    for (const [q, keep] of cases) expect(await paged(member, `state=open&${q}`), q).toEqual(expectOf(keep));
    // the fixtures give every case something to find (or nothing, on purpose, for one)
    expect(expectOf(cases[0][1])).toEqual([chatOf(7)]);
    expect(expectOf(cases[3][1])).toEqual([chatOf(10), chatOf(9)]);
    expect(expectOf(cases[6][1])).toEqual([chatOf(10), chatOf(8)]);
    // a cursor of one index is refused by another
    const page = await list(member, 'state=open&assignee=me&unread=true&limit=1');
    if (page.cursor) expect((await call(member, 'GET', `/chats?state=open&assignee=me&limit=1&cursor=${enc(page.cursor)}`)).status).toBe(400);
  });

  it('rows written before the combined indexes are found after the migration', async () => {
    const { UpdateCommand, DeleteCommand } = await import('@aws-sdk/lib-dynamodb');
    const { documentClient } = await import('../../shared/db/client.ts');
    const { runMigrations, MIGRATIONS } = await import('../../shared/db/migrations.ts');
    const TableName = process.env.TABLE_NAME!;
    const got = (await db().entities.chat.get({ org_id: rt.orgId, chat_id: chatOf(7) }).go({ data: 'includeKeys' } as never)) as unknown as { data: Record<string, string> };
    const row = got.data;
    // as an older version stored it: no gsi7 keys
    await documentClient().send(new UpdateCommand({ TableName, Key: { pk: row.pk, sk: row.sk }, UpdateExpression: 'REMOVE gsi7pk, gsi7sk' }));
    expect(await ids(member, 'state=open&assignee=me&unread=true')).toEqual([]);
    await documentClient().send(new DeleteCommand({ TableName, Key: { pk: 'migration', sk: MIGRATIONS[0].id } }));
    expect(await runMigrations()).toEqual([MIGRATIONS[0].id]);
    expect(await ids(member, 'state=open&assignee=me&unread=true')).toEqual([chatOf(7)]);
    expect(await runMigrations()).toEqual([]);
  });

  it('the chat type with other filters (groups on their sparse index, user chats filtered) answers what the folder filtered by hand holds, page by page', async () => {
    // three groups and one more user chat: assigned to the member or not, read or not
    const group = (n: number) => `G55544${n}@g.us`;
    for (let n = 1; n <= 3; n++) {
      const payload = inboundText(rt.phone, wa(20 + n), `Group hello ${n}`, { name: `Member ${n}` });
      (payload.entry[0]!.changes[0]!.value as unknown as { messages: Array<Record<string, unknown>> }).messages[0]!.group_id = `G55544${n}`;
      await rt.postWebhook(payload);
    }
    await say(11, 'User hello 11');
    await call(admin, 'POST', '/chats/assign', { chat_ids: [group(1), group(2), chatOf(11)], assigned_to: rt.memberEmail });
    await call(member, 'POST', `/chats/${enc(group(2))}/read`);
    const all = (await list(admin, 'state=open&limit=1000')).chats;
    expect(all.filter((c) => c.chat_type === 'group').map((c) => c.chat_id).sort()).toEqual([group(1), group(2), group(3)]);
    const expectOf = (keep: (c: Chat) => boolean) => all.filter(keep).map((c) => c.chat_id);
    const mine = (c: Chat) => c.assigned_to === rt.memberEmail;
    const isGroup = (c: Chat) => c.chat_type === 'group';
    const cases: Array<[string, (c: Chat) => boolean]> = [
      ['type=group&assignee=me&unread=true', (c) => isGroup(c) && mine(c) && unread(c)],
      ['type=group&assignee=me&unread=false', (c) => isGroup(c) && mine(c) && !unread(c)],
      ['type=group&assignee=none&unread=true', (c) => isGroup(c) && !c.assigned_to && unread(c)],
      ['type=group&assignee=none&unread=false', (c) => isGroup(c) && !c.assigned_to && !unread(c)],
      ['type=user&assignee=me&unread=true', (c) => !isGroup(c) && mine(c) && unread(c)],
      ['type=user&unread=true', (c) => !isGroup(c) && unread(c)],
      ['type=user&unread=false', (c) => !isGroup(c) && !unread(c)],
      ['type=group&unread=true', (c) => isGroup(c) && unread(c)],
    ];
    for (const [q, keep] of cases) expect(await paged(member, `state=open&${q}`), q).toEqual(expectOf(keep));
    // the fixtures give the groups' cases something to find, and more than one page where it matters
    expect(expectOf(cases[0][1])).toEqual([group(1)]);
    expect(expectOf(cases[1][1])).toEqual([group(2)]);
    expect(expectOf(cases[2][1])).toEqual([group(3)]);
    expect(expectOf(cases[4][1])).toEqual([chatOf(11), chatOf(7)]);
    expect(expectOf(cases[5][1]).length).toBeGreaterThan(2);
    // the groups index's cursor is refused by the assignee + unread index, and the other way round
    const page = await list(member, 'state=open&assignee=me&unread=true&type=user&limit=1');
    expect(page.cursor).toBeTruthy();
    expect((await call(member, 'GET', `/chats?state=open&assignee=me&unread=true&type=group&limit=1&cursor=${enc(page.cursor!)}`)).status).toBe(400);
  });

  it('group rows written before the groups index are found after its migration', async () => {
    const { UpdateCommand, DeleteCommand } = await import('@aws-sdk/lib-dynamodb');
    const { documentClient } = await import('../../shared/db/client.ts');
    const { runMigrations, MIGRATIONS } = await import('../../shared/db/migrations.ts');
    const TableName = process.env.TABLE_NAME!;
    const migration = MIGRATIONS.find((m) => m.id === '2026-11-27-chat-group-filter-keys')!;
    const got = (await db().entities.chat.get({ org_id: rt.orgId, chat_id: 'G555441@g.us' }).go({ data: 'includeKeys' } as never)) as unknown as { data: Record<string, string> };
    expect(got.data.gsi8pk).toBeTruthy();
    // a user chat row carries no gsi8 keys (the index is sparse)
    const user = (await db().entities.chat.get({ org_id: rt.orgId, chat_id: chatOf(7) }).go({ data: 'includeKeys' } as never)) as unknown as { data: Record<string, string> };
    expect(user.data.gsi8pk).toBeUndefined();
    // as an older version stored it: no gsi8 keys
    await documentClient().send(new UpdateCommand({ TableName, Key: { pk: got.data.pk, sk: got.data.sk }, UpdateExpression: 'REMOVE gsi8pk, gsi8sk' }));
    expect(await ids(member, 'state=open&type=group&assignee=me&unread=true')).toEqual([]);
    await documentClient().send(new DeleteCommand({ TableName, Key: { pk: 'migration', sk: migration.id } }));
    expect(await runMigrations()).toEqual([migration.id]);
    expect(await ids(member, 'state=open&type=group&assignee=me&unread=true')).toEqual(['G555441@g.us']);
  });

  it('every combination of type, assignee and unread equals the folder filtered by hand, after an assign, a read, a mark unread, an unassign and a message', async () => {
    const group = (n: number) => `G55544${n}@g.us`;
    const groupSay = async (n: number, text: string) => {
      const payload = inboundText(rt.phone, wa(20 + n), text, { name: `Member ${n}` });
      (payload.entry[0]!.changes[0]!.value as unknown as { messages: Array<Record<string, unknown>> }).messages[0]!.group_id = `G55544${n}`;
      await rt.postWebhook(payload);
      await rt.idle();
    };
    const combos: Array<[string, (c: Chat) => boolean]> = [];
    for (const type of [undefined, 'group', 'user'] as const)
      for (const a of [undefined, 'me', 'none'] as const)
        for (const u of [undefined, true, false] as const) {
          const q = [type && `type=${type}`, a && `assignee=${a}`, u !== undefined && `unread=${u}`].filter(Boolean).join('&');
          if (q) combos.push([q, (c) => (!type || c.chat_type === type) && (!a || (a === 'me' ? c.assigned_to === rt.memberEmail : !c.assigned_to)) && (u === undefined || unread(c) === u)]);
        }
    /** every combination, page by page (limit 2: cursors) and as one page, against the admin's whole folder filtered here; the rows' assignee and unread state too (group rows hold a copy of the chat) */
    const check = async (when: string) => {
      const all = (await list(admin, 'state=open&limit=1000')).chats;
      const view = (c: Chat) => `${c.chat_id}|${c.assigned_to ?? '-'}|${unread(c) ? 'unread' : 'read'}`;
      for (const [q, keep] of combos) {
        const want = all.filter(keep).map(view);
        const pages: Chat[] = [];
        let cursor: string | null = null;
        do {
          const page = await list(member, `state=open&${q}&limit=2${cursor ? `&cursor=${enc(cursor)}` : ''}`);
          pages.push(...page.chats);
          cursor = page.cursor;
        } while (cursor);
        expect(pages.map(view), `${when}: ${q} (pages of 2)`).toEqual(want);
        expect((await list(member, `state=open&${q}&limit=50`)).chats.map(view), `${when}: ${q}`).toEqual(want);
      }
      return (q: string) => all.filter(combos.find(([c]) => c === q)![1]).map((c) => c.chat_id);
    };
    let found = await check('before');
    expect(found('type=group&assignee=none')).toEqual([group(3)]);
    await call(admin, 'POST', '/chats/assign', { chat_ids: [group(3), chatOf(9)], assigned_to: rt.memberEmail });
    found = await check('after an assign');
    expect(found('type=group&assignee=me').sort()).toEqual([group(1), group(2), group(3)]);
    expect(found('type=group&assignee=none')).toEqual([]);
    await call(member, 'POST', `/chats/${enc(group(1))}/read`);
    await call(member, 'POST', `/chats/${enc(chatOf(7))}/read`);
    found = await check('after a read');
    expect(found('type=group&unread=true')).toEqual([group(3)]);
    await call(member, 'POST', `/chats/${enc(group(2))}/unread`);
    found = await check('after a mark unread');
    expect(found('type=group&unread=true').sort()).toEqual([group(2), group(3)]);
    await call(admin, 'POST', '/chats/assign', { chat_ids: [group(1), chatOf(11)], assigned_to: null });
    found = await check('after an unassign');
    expect(found('type=group&assignee=none')).toEqual([group(1)]);
    expect(found('type=group&assignee=none&unread=false')).toEqual([group(1)]);
    await groupSay(1, 'Group hello again');
    found = await check('after a message');
    expect(found('type=group&unread=true')[0]).toBe(group(1));
    // one group row per group chat, none for user chats
    const links = db().entities.chatGroupLink;
    expect((await links.get({ org_id: rt.orgId, chat_id: group(1) }).go()).data).toMatchObject({ chat_type: 'group', assignee_key: 'none', unread_key: 'unread', inbox_state: 'open' });
    expect((await links.get({ org_id: rt.orgId, chat_id: chatOf(7) }).go()).data).toBeNull();
    // a cursor of the group rows' index is refused by another index
    const page = await list(member, 'state=open&assignee=me&type=group&limit=1');
    expect(page.cursor).toBeTruthy();
    expect((await call(member, 'GET', `/chats?state=open&assignee=me&limit=1&cursor=${enc(page.cursor!)}`)).status).toBe(400);
    expect((await call(member, 'GET', `/chats?state=open&unread=true&type=group&limit=1&cursor=${enc(page.cursor!)}`)).status).toBe(400);
  });

  it('group chats stored before their group rows are found after that migration', async () => {
    const { DeleteCommand } = await import('@aws-sdk/lib-dynamodb');
    const { documentClient } = await import('../../shared/db/client.ts');
    const { runMigrations, MIGRATIONS } = await import('../../shared/db/migrations.ts');
    const migration = MIGRATIONS.find((m) => m.id === '2026-11-27-chat-group-link-rows')!;
    const groups = ['G555441@g.us', 'G555442@g.us', 'G555443@g.us'];
    const before = await ids(member, 'state=open&type=group&assignee=me');
    expect(before.length).toBeGreaterThan(0);
    // as an older version stored them: no group rows
    await db().entities.chatGroupLink.delete(groups.map((chat_id) => ({ org_id: rt.orgId, chat_id }))).go();
    expect(await ids(member, 'state=open&type=group&assignee=me')).toEqual([]);
    await documentClient().send(new DeleteCommand({ TableName: process.env.TABLE_NAME!, Key: { pk: 'migration', sk: migration.id } }));
    expect(await runMigrations()).toEqual([migration.id]);
    expect(await ids(member, 'state=open&type=group&assignee=me')).toEqual(before);
    expect((await db().entities.chatGroupLink.get({ org_id: rt.orgId, chat_id: groups[0]! }).go()).data).toMatchObject({ chat_type: 'group', assignee_key: 'none' });
  });
});

describe('access and masking (spec §6)', () => {
  it('a member the chat does not list gets a stub in lists, 403 on the chat and its messages', async () => {
    const r = await call<{ chat: Chat }>(admin, 'PUT', `/chats/${enc(chatOf(3))}/access`, { chat_access: { [rt.adminEmail]: true } });
    expect(r.body.chat.chat_access).toEqual({ [rt.adminEmail]: true });
    const stub = (await list(member, 'state=closed&limit=1000')).chats.find((c) => c.chat_id === chatOf(3)) ?? (await list(member, 'state=open&limit=1000')).chats.find((c) => c.chat_id === chatOf(3));
    expect(stub).toMatchObject({ has_access: false });
    expect(stub?.latest_message).toBeUndefined();
    expect(stub?.chat_name).toBeUndefined();
    for (const path of [`/chats/${enc(chatOf(3))}`, `/chats/${enc(chatOf(3))}/messages`]) {
      const res = await call<{ error: { message: string } }>(member, 'GET', path);
      expect(res.status, path).toBe(403);
      expect(res.body.error.message).toBe('You do not have access to this chat');
    }
    const send = await call(member, 'POST', `/chats/${enc(chatOf(3))}/messages`, { body: 'sneaky' });
    expect(send.status).toBe(403);
    const w = await call<{ failed: Array<{ reason: string }> }>(member, 'POST', '/chats/close', { chat_ids: [chatOf(3)], is_closed: false });
    expect(w.body.failed).toEqual([{ chat_id: chatOf(3), reason: 'You do not have access to this chat' }]);
    expect((await call(member, 'PUT', `/chats/${enc(chatOf(3))}/access`, { chat_access: {} })).status).toBe(403);
    await call(admin, 'PUT', `/chats/${enc(chatOf(3))}/access`, { chat_access: {} });
    expect((await call(member, 'GET', `/chats/${enc(chatOf(3))}`)).status).toBe(200);
  });

  it('masks customer numbers for members (not admins) when the org masks them', async () => {
    await db().entities.organization.patch({ org_id: rt.orgId }).set({ org_metadata: { preferences: { mask_phone_numbers: true } } }).go();
    await new Promise((r) => setTimeout(r, 5_100));
    try {
      const m = (await call<{ chat: Chat }>(member, 'GET', `/chats/${enc(chatOf(1))}`)).body.chat;
      expect(Object.keys(m.members ?? {})).toEqual(['15*******01']);
      const msgs = (await call<{ messages: Array<{ sender_phone: string }> }>(member, 'GET', `/chats/${enc(chatOf(1))}/messages`)).body.messages;
      expect(msgs.every((x) => x.sender_phone === '15*******01')).toBe(true);
      const a = (await call<{ chat: Chat }>(admin, 'GET', `/chats/${enc(chatOf(1))}`)).body.chat;
      expect(Object.keys(a.members ?? {})).toEqual([wa(1)]);
    } finally {
      await db().entities.organization.patch({ org_id: rt.orgId }).set({ org_metadata: { preferences: {} } }).go();
    }
  });
});

describe('other organizations', () => {
  it("cannot list, count, change or label this org's chats", async () => {
    const base = `/api/orgs/${rt.orgId}`;
    for (const [method, path, json] of [
      ['GET', '/chats?state=open', undefined],
      ['GET', '/chats/counts', undefined],
      ['POST', '/chats/assign', { chat_ids: [chatOf(1)], assigned_to: null }],
      ['POST', '/chats/close', { chat_ids: [chatOf(1)], is_closed: true }],
      ['GET', '/labels', undefined],
      ['PUT', `/chats/${enc(chatOf(1))}/access`, { chat_access: {} }],
    ] as const) {
      const r = await rt.api(outsider, base + path, { method, json });
      expect(r.status, `${method} ${path}`).toBe(404);
    }
    // the outsider's own org does not see our chat ids either
    const mine = (await (await rt.api(outsider, `/api/orgs/${(await (await rt.api(outsider, '/api/me')).json() as { orgs: Array<{ org_id: string }> }).orgs[0].org_id}/chats?state=open`)).json()) as { chats: Chat[] };
    expect(mine.chats.map((c) => c.chat_id)).not.toContain(chatOf(1));
  });
});
