import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestRuntime, type TestRuntime } from '../factories/runtime.ts';
import { eventually } from '../factories/wait.ts';
import { inboundText } from '../../shared/whatsapp/cloud/payloads.ts';
import { enqueue } from '../../shared/ports/commands.ts';
import { schedulerPort, setSchedulerPort, type ScheduledCommand } from '../../shared/ports/scheduler.ts';
import type { Message } from '../../shared/message/message.schemas.ts';
import type { ScheduledMessageView } from '../../shared/schedule/scheduled.schemas.ts';

/**
 * Scheduled messages (issue 16 item 6) against the real local runtime. The scheduler port is
 * wrapped: wake-ups for the scheduled-messages queue are held by the test (its clock), and firing
 * one puts it on the queue exactly as EventBridge Scheduler would when due.
 */
let rt: TestRuntime;
let admin: string;
let member: string;
let seq = 0;
const held = new Map<string, ScheduledCommand>();
const cancelled: string[] = [];
const enc = encodeURIComponent;
type ApiError = { error: { code: string; details?: Array<{ field: string; reason: string }> } };

beforeAll(async () => {
  rt = await startTestRuntime();
  [admin, member] = await Promise.all([rt.signIn(rt.adminEmail), rt.signIn(rt.memberEmail)]);
  const real = await schedulerPort();
  setSchedulerPort({
    schedule: async (cmd) => (cmd.queue === 'scheduled-messages' ? void held.set(cmd.name, cmd) : real.schedule(cmd)),
    cancel: async (name) => {
      cancelled.push(name);
      return held.delete(name) ? undefined : real.cancel(name);
    },
  });
  expect((await rt.orgCall(admin, 'POST', '/templates/sync', {})).status).toBe(200);
}, 120_000);
afterAll(async () => {
  setSchedulerPort(undefined);
  await rt?.cleanup();
});

const wakeupOf = (id: string) => [...held.values()].find((c) => (JSON.parse(c.body) as { schedule_id: string }).schedule_id === id);
/** Fire a held wake-up (what the scheduler does when it is due), or a copy of an old one. */
async function fire(cmd: ScheduledCommand): Promise<void> {
  // a one-time schedule is gone once it fired (EventBridge Scheduler: deleted after completion)
  if (held.get(cmd.name)?.body === cmd.body) held.delete(cmd.name);
  await enqueue(cmd.queue, cmd.body);
  await rt.idle();
}
async function chatWrittenAgo(hoursAgo: number): Promise<string> {
  const from = `1555071${String(++seq).padStart(4, '0')}`;
  expect((await rt.postWebhook(inboundText(rt.phone, from, 'hi', { timestampS: Math.floor((Date.now() - hoursAgo * 3_600_000) / 1000) }))).status).toBe(200);
  await rt.idle();
  return `${from}@c.us`;
}
const daily = (extra: Record<string, unknown> = {}) => ({ kind: 'daily', start_date: '2099-01-01', time: '09:00', ...extra });
const messagesOf = async (chatId: string) => (await rt.orgJson<{ messages: Message[] }>(admin, `/chats/${enc(chatId)}/messages`)).messages;
const getOne = async (token: string, id: string) => (await rt.orgJson<{ scheduled: ScheduledMessageView[] }>(token, '/scheduled')).scheduled.find((s) => s.schedule_id === id);

describe('create and list', () => {
  it('refuses a time in the past and a weekly without days with field + reason', async () => {
    const chatId = await chatWrittenAgo(1);
    const past = await rt.orgCall<ApiError>(member, 'POST', '/scheduled', { chat_id: chatId, body: 'x', recurrence: { kind: 'once', start_date: '2020-01-01', time: '09:00' } });
    expect(past.status).toBe(400);
    expect(past.body.error.details).toEqual([{ field: 'recurrence', reason: 'has no time after now' }]);
    const weekly = await rt.orgCall<ApiError>(member, 'POST', '/scheduled', { chat_id: chatId, body: 'x', recurrence: { kind: 'weekly', start_date: '2099-01-01', time: '09:00' } });
    expect(weekly.status).toBe(400);
    expect(weekly.body.error.details?.[0].field).toBe('recurrence.weekdays');
    const none = await rt.orgCall<ApiError>(member, 'POST', '/scheduled', { chat_id: chatId, recurrence: daily() });
    expect(none.status).toBe(400);
  });

  it('members see their own, admins see all; the wake-up is armed for next_at', async () => {
    const chatId = await chatWrittenAgo(1);
    const mine = (await rt.orgCall<{ scheduled: ScheduledMessageView }>(member, 'POST', '/scheduled', { chat_id: chatId, body: 'member note', recurrence: daily() })).body.scheduled;
    const theirs = (await rt.orgCall<{ scheduled: ScheduledMessageView }>(admin, 'POST', '/scheduled', { chat_id: chatId, body: 'admin note', recurrence: daily() })).body.scheduled;
    expect(mine).toMatchObject({ status: 'active', created_by: rt.memberEmail, next_at: Date.parse('2099-01-01T09:00:00Z'), summary: 'Every day at 09:00', time_zone: 'UTC' });
    expect(JSON.parse(wakeupOf(mine.schedule_id)!.body)).toEqual({ org_id: rt.orgId, schedule_id: mine.schedule_id, at: mine.next_at });
    const memberList = (await rt.orgJson<{ scheduled: ScheduledMessageView[] }>(member, '/scheduled')).scheduled.map((s) => s.schedule_id);
    expect(memberList).toContain(mine.schedule_id);
    expect(memberList).not.toContain(theirs.schedule_id);
    const adminList = (await rt.orgJson<{ scheduled: ScheduledMessageView[] }>(admin, '/scheduled')).scheduled.map((s) => s.schedule_id);
    expect(adminList).toEqual(expect.arrayContaining([mine.schedule_id, theirs.schedule_id]));
    // a member cannot touch the admin's
    expect((await rt.orgCall(member, 'PATCH', `/scheduled/${theirs.schedule_id}`, { status: 'paused' })).status).toBe(404);
    expect((await rt.orgCall(member, 'DELETE', `/scheduled/${theirs.schedule_id}`)).status).toBe(404);
    // an admin may
    expect((await rt.orgCall(admin, 'DELETE', `/scheduled/${mine.schedule_id}`)).status).toBe(200);
    expect(wakeupOf(mine.schedule_id)).toBeUndefined();
  });
});

describe('firing', () => {
  it('sends as the member through the normal send path, once per occurrence, and arms the next', async () => {
    const chatId = await chatWrittenAgo(1);
    const s = (await rt.orgCall<{ scheduled: ScheduledMessageView }>(member, 'POST', '/scheduled', { chat_id: chatId, body: 'Your weekly check-in', recurrence: daily({ end: { type: 'after', count: 3 } }) })).body.scheduled;
    const first = wakeupOf(s.schedule_id)!;
    const before = rt.graph.sent.length;
    await fire(first);
    const sent = await eventually(async () => (await messagesOf(chatId)).find((m) => m.body === 'Your weekly check-in' && m.from_me));
    expect(sent.author).toBe(rt.memberEmail);
    await eventually(async () => rt.graph.sent.slice(before).some((r) => (r.body as { text?: { body?: string } }).text?.body === 'Your weekly check-in' && r.wamid));
    const after = (await getOne(member, s.schedule_id))!;
    expect(after).toMatchObject({ occurrences: 1, status: 'active', next_at: Date.parse('2099-01-02T09:00:00Z') });
    expect(after.last_run).toMatchObject({ outcome: 'sent', unique_id: sent.unique_id });
    expect(JSON.parse(wakeupOf(s.schedule_id)!.body).at).toBe(Date.parse('2099-01-02T09:00:00Z'));
    // the same wake-up again (at-least-once delivery): nothing more is sent
    await fire(first);
    expect((await messagesOf(chatId)).filter((m) => m.body === 'Your weekly check-in')).toHaveLength(1);
    // skip the next (occurrence 2), fire the last (3): done
    const skipped = (await rt.orgCall<{ scheduled: ScheduledMessageView }>(member, 'POST', `/scheduled/${s.schedule_id}/skip`)).body.scheduled;
    expect(skipped).toMatchObject({ occurrences: 2, next_at: Date.parse('2099-01-03T09:00:00Z'), last_run: { outcome: 'skipped' } });
    await fire(wakeupOf(s.schedule_id)!);
    const done = (await getOne(member, s.schedule_id))!;
    expect(done).toMatchObject({ status: 'done', occurrences: 3, next_at: null });
    expect(wakeupOf(s.schedule_id)).toBeUndefined();
    expect((await messagesOf(chatId)).filter((m) => m.body === 'Your weekly check-in')).toHaveLength(2);
  });

  it('pause cancels the wake-up (a late one does nothing); resume arms it again; edit changes the text', async () => {
    const chatId = await chatWrittenAgo(1);
    const s = (await rt.orgCall<{ scheduled: ScheduledMessageView }>(member, 'POST', '/scheduled', { chat_id: chatId, body: 'paused text', recurrence: daily() })).body.scheduled;
    const wake = wakeupOf(s.schedule_id)!;
    const paused = await rt.orgCall<{ scheduled: ScheduledMessageView }>(member, 'PATCH', `/scheduled/${s.schedule_id}`, { status: 'paused' });
    expect(paused.body.scheduled.status).toBe('paused');
    expect(wakeupOf(s.schedule_id)).toBeUndefined();
    await fire(wake);
    expect((await messagesOf(chatId)).some((m) => m.body === 'paused text')).toBe(false);
    const resumed = (await rt.orgCall<{ scheduled: ScheduledMessageView }>(member, 'PATCH', `/scheduled/${s.schedule_id}`, { status: 'active', body: 'edited text' })).body.scheduled;
    expect(resumed).toMatchObject({ status: 'active', body: 'edited text' });
    await fire(wakeupOf(s.schedule_id)!);
    await eventually(async () => (await messagesOf(chatId)).some((m) => m.body === 'edited text'));
  });

  it('a closed window uses the chosen template; without one the message fails in the thread with the reason', async () => {
    const chatId = await chatWrittenAgo(30);
    const withTpl = (await rt.orgCall<{ scheduled: ScheduledMessageView }>(member, 'POST', '/scheduled', {
      chat_id: chatId,
      body: 'free text',
      template: { name: 'appointment_reminder', language: 'en_US', values: { 'body.1': 'Ana', 'body.2': 'Tuesday 3 pm' } },
      recurrence: daily(),
    })).body.scheduled;
    const before = rt.graph.sent.length;
    await fire(wakeupOf(withTpl.schedule_id)!);
    const tplSent = await eventually(async () => rt.graph.sent.slice(before).find((r) => (r.body as { type?: string }).type === 'template' && r.wamid));
    expect((tplSent.body as { template: { name: string } }).template.name).toBe('appointment_reminder');
    expect((await messagesOf(chatId)).find((m) => m.message_type === 'template')?.author).toBe(rt.memberEmail);

    const noTpl = (await rt.orgCall<{ scheduled: ScheduledMessageView }>(member, 'POST', '/scheduled', { chat_id: chatId, body: 'too late text', recurrence: daily() })).body.scheduled;
    await fire(wakeupOf(noTpl.schedule_id)!);
    const failed = await eventually(async () => (await messagesOf(chatId)).find((m) => m.body === 'too late text' && m.ack === -1));
    expect(JSON.stringify(failed)).toContain('24 hours');
    expect((await getOne(member, noTpl.schedule_id))!.last_run).toMatchObject({ outcome: 'failed', reason: 'The 24-hour window was closed and no template was chosen for that case.' });
  });
});
