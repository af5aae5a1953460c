import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { startTestRuntime, type TestRuntime } from '../factories/runtime.ts';
import { inboundText } from '../../shared/whatsapp/cloud/payloads.ts';
import { seedDemo } from '../../scripts/local/seed.ts';
import { eventually } from '../factories/wait.ts';
import type { Message } from '../../shared/message/message.schemas.ts';
import type { Task, TaskAuditLogRow } from '../../shared/task/task.schemas.ts';

/**
 * Tasks over HTTP against the local runtime: defaults, validation with the spec's words, the
 * whole-task update and its audit rows, visibility (members: My Tasks only), bulk, Remind In,
 * reminders firing through the local scheduler to the assignee's socket only, other orgs refused.
 */
let rt: TestRuntime;
let admin: string;
let member: string;
let outsider: string;
let otherOrg: string;
let message: Message;
const chatId = '15554440001@c.us';
const H = 3_600_000;

type Json = Record<string, unknown>;
const call = async <T = Json>(token: string, method: string, path: string, json?: unknown): Promise<{ status: number; body: T }> => {
  const r = await rt.api(token, `/api/orgs/${rt.orgId}${path}`, { method, json });
  return { status: r.status, body: (await r.json()) as T };
};
const editable = (t: Task) => ({ title: t.title, status: t.status, priority: t.priority, assignee: t.assignee, due_date: t.due_date, remind_at: t.remind_at, reminder_setting: t.reminder_setting, notes: t.notes });

beforeAll(async () => {
  rt = await startTestRuntime();
  const outsiderEmail = 'outsider@tasks.chorus';
  const sub = await rt.createUser(outsiderEmail, rt.password);
  otherOrg = await seedDemo({ orgName: 'Other Co', admin: { email: outsiderEmail, sub, name: 'Outsider' }, member: { email: 'm2@tasks.chorus', sub: 'x', name: 'M2' }, phone: { phone_number_id: '444000333', display_phone_number: '15554440000' } });
  [admin, member, outsider] = await Promise.all([rt.signIn(rt.adminEmail), rt.signIn(rt.memberEmail), rt.signIn(outsiderEmail)]);
  await rt.postWebhook(inboundText(rt.phone, '15554440001', 'Please call me back tomorrow'));
  await rt.idle();
  message = (await call<{ messages: Message[] }>(admin, 'GET', `/chats/${encodeURIComponent(chatId)}/messages`)).body.messages[0]!;
});
afterAll(async () => rt?.cleanup());

describe('create', () => {
  it('takes the spec defaults: priority 1, open, assignee self, reminder none; type from the link', async () => {
    const r = await call<{ task: Task }>(member, 'POST', '/tasks', {
      title: 'Call the customer back',
      time_zone: 'Asia/Kolkata',
      associated_object_metadata: { id: message.unique_id, type: 'message', object: { chat_id: chatId, org_id: rt.orgId, message_id: message.message_id } },
    });
    expect(r.status).toBe(201);
    expect(r.body.task).toMatchObject({ title: 'Call the customer back', priority: 1, status: 'open', assignee: rt.memberEmail, reminder_setting: { remind_in: 'none', repeat: null }, remind_at: null, type: 'message', time_zone: 'Asia/Kolkata', created_by: rt.memberEmail });
  });

  it("refuses a due-tied reminder without a due date: 'Due date is required'", async () => {
    const r = await call<{ error: { message: string; details: unknown } }>(admin, 'POST', '/tasks', { title: 'x', reminder_setting: { remind_in: '1_hour_before' } });
    expect(r.status).toBe(400);
    expect(r.body.error.message).toBe('Due date is required');
    expect(r.body.error.details).toEqual([{ field: 'due_date', reason: 'Due date is required' }]);
  });

  it('refuses a past due date, a long title, an unknown assignee or link, with the field', async () => {
    const past = await call<{ error: { details: unknown } }>(admin, 'POST', '/tasks', { title: 'x', due_date: Date.now() - 2 * H });
    expect(past.body.error.details).toEqual([{ field: 'due_date', reason: 'cannot be in the past' }]);
    const long = await call<{ error: { details: unknown } }>(admin, 'POST', '/tasks', { title: 'x'.repeat(151) });
    expect(long.body.error.details).toEqual([{ field: 'title', reason: 'must be at most 150 characters' }]);
    const who = await call<{ error: { details: unknown } }>(admin, 'POST', '/tasks', { title: 'x', assignee: 'nobody@x.com' });
    expect(who.body.error.details).toEqual([{ field: 'assignee', reason: 'is not a member of this workspace' }]);
    const link = await call(admin, 'POST', '/tasks', { title: 'x', associated_object_metadata: { id: 'tkt_nope', type: 'ticket', object: {} } });
    expect(link.status).toBe(400);
  });

  it('derives remind_at from the due date (1 hour before)', async () => {
    const due = Date.now() + 5 * H;
    const r = await call<{ task: Task }>(admin, 'POST', '/tasks', { title: 'Prepare quote', due_date: due, reminder_setting: { remind_in: '1_hour_before' } });
    expect(r.body.task.remind_at).toBe(due - H);
  });
});

describe('update and audit', () => {
  it('the whole-task PUT writes one audit row per change, newest first, old and new record', async () => {
    const t = (await call<{ task: Task }>(admin, 'POST', '/tasks', { title: 'Send invoice', assignee: rt.memberEmail })).body.task;
    const due = Date.now() + 24 * H;
    const up = await call<{ task: Task }>(admin, 'PUT', `/tasks/${t.task_id}`, { ...editable(t), title: 'Send the invoice', priority: 3, due_date: due, reminder_setting: { remind_in: '30_minutes_before' } });
    expect(up.status).toBe(200);
    expect(up.body.task).toMatchObject({ title: 'Send the invoice', priority: 3, due_date: due, remind_at: due - H / 2, last_updated_by: rt.adminEmail });
    const closed = await call<{ task: Task }>(member, 'PUT', `/tasks/${t.task_id}`, { ...editable(up.body.task), status: 'closed', notes: 'Sent by email' });
    expect(closed.body.task.completed_metadata).toMatchObject({ completed_by: rt.memberEmail });
    const audit = (await call<{ entries: TaskAuditLogRow[] }>(member, 'GET', `/tasks/${t.task_id}/audit`)).body.entries;
    const actions = audit.map((a) => a.action);
    expect(actions.slice(0, 2).sort()).toEqual(['NOTES_CHANGED', 'STATUS_CHANGED']);
    expect(actions.slice(2, 7).sort()).toEqual(['DUE_DATE_CHANGED', 'PRIORITY_CHANGED', 'REMINDER_SETTING_CHANGED', 'REMIND_AT_CHANGED', 'TITLE_CHANGED']);
    expect(actions[7]).toBe('TASK_CREATED');
    const title = audit.find((a) => a.action === 'TITLE_CHANGED')!;
    expect([title.old_record?.title, title.new_record?.title, title.performed_by]).toEqual(['Send invoice', 'Send the invoice', rt.adminEmail]);
    // nothing changed: no row
    await call(admin, 'PUT', `/tasks/${t.task_id}`, editable(closed.body.task));
    expect((await call<{ entries: unknown[] }>(admin, 'GET', `/tasks/${t.task_id}/audit`)).body.entries).toHaveLength(8);
  });

  it("clearing the due date drops a due-tied reminder (the reading we chose) and keeps a custom one", async () => {
    const due = Date.now() + 3 * H;
    const t = (await call<{ task: Task }>(admin, 'POST', '/tasks', { title: 'Follow up', due_date: due, reminder_setting: { remind_in: 'due_time' } })).body.task;
    const cleared = await call<{ task: Task }>(admin, 'PUT', `/tasks/${t.task_id}`, { ...editable(t), due_date: null, reminder_setting: { remind_in: 'none' }, remind_at: null });
    expect(cleared.body.task).toMatchObject({ due_date: null, remind_at: null, reminder_setting: { remind_in: 'none' } });
    // the API refuses the half-way state (due-tied choice without a due date)
    expect((await call(admin, 'PUT', `/tasks/${t.task_id}`, { ...editable(cleared.body.task), reminder_setting: { remind_in: 'due_time' } })).status).toBe(400);
  });

  it('Remind In sets remind_at from now and the choice to custom_date', async () => {
    const t = (await call<{ task: Task }>(admin, 'POST', '/tasks', { title: 'Nudge' })).body.task;
    const before = Date.now();
    const r = await call<{ task: Task }>(admin, 'POST', `/tasks/${t.task_id}/remind-in`, { remind_in: '1_day' });
    expect(r.body.task.reminder_setting.remind_in).toBe('custom_date');
    expect(r.body.task.remind_at).toBeGreaterThanOrEqual(before + 24 * H);
    expect(r.body.task.remind_at).toBeLessThan(Date.now() + 24 * H + 1000);
  });
});

describe('visibility, bulk, other orgs', () => {
  it('members see only My Tasks; admins see all', async () => {
    const mine = (await call<{ tasks: Task[] }>(member, 'GET', '/tasks')).body.tasks;
    expect(mine.length).toBeGreaterThan(0);
    expect(mine.every((t) => t.assignee === rt.memberEmail)).toBe(true);
    expect((await call(member, 'GET', '/tasks?scope=all')).status).toBe(403);
    const all = (await call<{ tasks: Task[] }>(admin, 'GET', '/tasks?scope=all')).body.tasks;
    expect(all.length).toBeGreaterThan(mine.length);
    const adminOnly = all.find((t) => t.assignee === rt.adminEmail && t.created_by === rt.adminEmail)!;
    expect((await call(member, 'GET', `/tasks/${adminOnly.task_id}`)).status).toBe(404);
    expect((await call(member, 'PUT', `/tasks/${adminOnly.task_id}`, editable(adminOnly))).status).toBe(404);
    expect((await call(member, 'GET', `/tasks/${adminOnly.task_id}/audit`)).status).toBe(404);
  });

  it('bulk close reports each task', async () => {
    const ids = await Promise.all([1, 2, 3].map(async (i) => (await call<{ task: Task }>(admin, 'POST', '/tasks', { title: `Bulk ${i}` })).body.task.task_id));
    const r = await call<{ updated: Task[]; failed: unknown[] }>(admin, 'POST', '/tasks/bulk', { task_ids: [...ids, 'task_nope'], status: 'closed' });
    expect(r.body.updated.map((t) => t.status)).toEqual(['closed', 'closed', 'closed']);
    expect(r.body.failed).toEqual([{ task_id: 'task_nope', reason: 'That task does not exist or you cannot see it.' }]);
  });

  it('lists members for the assignee pickers', async () => {
    const r = await call<{ members: Array<{ email: string; role: string }> }>(member, 'GET', '/members');
    expect(r.body.members.map((m) => m.email).sort()).toEqual([rt.adminEmail, rt.memberEmail].sort());
  });

  it("another org's tasks are refused on every route", async () => {
    const t = (await call<{ tasks: Task[] }>(admin, 'GET', '/tasks?scope=all')).body.tasks[0]!;
    const paths: Array<[string, string, unknown?]> = [
      ['GET', '/tasks'],
      ['POST', '/tasks', { title: 'x' }],
      ['POST', '/tasks/bulk', { task_ids: [t.task_id], status: 'closed' }],
      ['GET', `/tasks/${t.task_id}`],
      ['PUT', `/tasks/${t.task_id}`, editable(t)],
      ['POST', `/tasks/${t.task_id}/remind-in`, { remind_in: '1_hour' }],
      ['GET', `/tasks/${t.task_id}/audit`],
      ['GET', '/members'],
    ];
    for (const [method, path, json] of paths) {
      const r = await rt.api(outsider, `/api/orgs/${rt.orgId}${path}`, { method, json });
      expect(r.status, `${method} ${path}`).toBe(404);
    }
    expect((await rt.api(outsider, `/api/orgs/${otherOrg}/tasks/${t.task_id}`)).status).toBe(404);
  });
});

describe('reminders', () => {
  it("fire on time through the scheduler and reach only the assignee's screen (and admins), not other members", async () => {
    const sockets = await Promise.all(
      [member, admin].map(async (token) => {
        const ws = new WebSocket(`ws://127.0.0.1:${rt.port}/ws?token=${encodeURIComponent(token)}&org_id=${encodeURIComponent(rt.orgId)}`);
        const got: Array<{ type: string; properties: { task?: Task; remind_at?: number } }> = [];
        ws.on('message', (d) => got.push(JSON.parse(String(d))));
        await new Promise((r) => ws.once('open', r));
        return { ws, got };
      }),
    );
    // an admin's own task: the member must not see it
    const own = (await call<{ task: Task }>(admin, 'POST', '/tasks', { title: 'Admin private', remind_at: Date.now() + 1500, reminder_setting: { remind_in: 'custom_date' } })).body.task;
    const at = Date.now() + 1500;
    const t = (await call<{ task: Task }>(admin, 'POST', '/tasks', { title: 'Ring Marie', assignee: rt.memberEmail, remind_at: at, reminder_setting: { remind_in: 'custom_date' } })).body.task;
    const [m, a] = sockets;
    const due = await eventually(async () => m!.got.find((e) => e.type === 'task.reminder_due' && e.properties.task?.task_id === t.task_id), 15_000, 'task.reminder_due on the member socket');
    expect(Date.now()).toBeGreaterThanOrEqual(at - 50);
    expect(due.properties.remind_at).toBe(at);
    await eventually(async () => a!.got.some((e) => e.type === 'task.reminder_due' && e.properties.task?.task_id === own.task_id), 15_000, 'admin sees own reminder');
    expect(m!.got.some((e) => e.properties.task?.task_id === own.task_id)).toBe(false);
    for (const s of sockets) s.ws.close();
  });

  it('a moved reminder fires only at its new time; a closed task does not fire', async () => {
    const ws = new WebSocket(`ws://127.0.0.1:${rt.port}/ws?token=${encodeURIComponent(admin)}&org_id=${encodeURIComponent(rt.orgId)}`);
    const got: Array<{ type: string; properties: { task?: Task } }> = [];
    ws.on('message', (d) => got.push(JSON.parse(String(d))));
    await new Promise((r) => ws.once('open', r));
    const t = (await call<{ task: Task }>(admin, 'POST', '/tasks', { title: 'Moved', remind_at: Date.now() + 1000, reminder_setting: { remind_in: 'custom_date' } })).body.task;
    const moved = await call<{ task: Task }>(admin, 'PUT', `/tasks/${t.task_id}`, { ...editable(t), remind_at: Date.now() + 60 * H });
    const c = (await call<{ task: Task }>(admin, 'POST', '/tasks', { title: 'Closed', remind_at: Date.now() + 1000, reminder_setting: { remind_in: 'custom_date' } })).body.task;
    await call(admin, 'PUT', `/tasks/${c.task_id}`, { ...editable(c), status: 'closed' });
    const control = (await call<{ task: Task }>(admin, 'POST', '/tasks', { title: 'Control', remind_at: Date.now() + 1200, reminder_setting: { remind_in: 'custom_date' } })).body.task;
    await eventually(async () => got.some((e) => e.type === 'task.reminder_due' && e.properties.task?.task_id === control.task_id), 15_000, 'the control reminder');
    await rt.idle();
    const fired = got.filter((e) => e.type === 'task.reminder_due').map((e) => e.properties.task?.task_id);
    expect(fired).not.toContain(t.task_id);
    expect(fired).not.toContain(c.task_id);
    expect((await call<{ task: Task }>(admin, 'GET', `/tasks/${t.task_id}`)).body.task.remind_at).toBe(moved.body.task.remind_at);
    ws.close();
  });
});
