import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { join } from 'node:path';
import { type Browser, type Locator, type Page } from 'playwright-core';
import { format } from 'date-fns';
import { DESKTOP, PHONE, SHOTS, launchChromium, signIn as signInAs, openChat } from '../factories/browser.ts';
import { startTestRuntime, type TestRuntime } from '../factories/runtime.ts';
import { inboundText } from '../../shared/whatsapp/cloud/payloads.ts';
import { eventually } from '../factories/wait.ts';
import type { Task, TaskAuditLogRow } from '../../shared/task/task.schemas.ts';

/**
 * Tasks end to end, in Debian's Chromium: the admin turns a customer message into a task with a
 * '1 hour before' reminder (the red 'Due date is required' first), edits it and reads the audit
 * rows, jumps back to the message with 'View Object'; filters with NOT and ALL (and ANY), bulk
 * closes (a per-task failure listed), 'Remind In' from the row menu, overdue rows with a moved
 * page clock; the member sets a custom reminder and gets the notification when the server fires
 * it; chat and ticket links; phone layout. Screenshots (desktop 1440x900, phone 390x844) go to
 * test-results/screenshots.
 */
const HOUR = 3_600_000;
let rt: TestRuntime;
let browser: Browser;
let adminToken: string;
let memberToken: string;

/** Sign in through the login page (tests/factories/browser.ts). */
const signIn = (email: string, viewport = DESKTOP): Promise<Page> => signInAs(browser, rt, email, viewport);

const call = async <T>(token: string, path: string, init: RequestInit & { json?: unknown } = {}): Promise<T> => {
  const res = await rt.api(token, `/api/orgs/${rt.orgId}${path}`, init);
  const text = await res.text();
  if (!res.ok) throw new Error(`${init.method ?? 'GET'} ${path}: HTTP ${res.status} ${text}`);
  return JSON.parse(text) as T;
};
const api = <T>(path: string, init: RequestInit & { json?: unknown } = {}) => call<T>(adminToken, path, init);
const allTasks = async () => (await api<{ tasks: Task[] }>('/tasks?scope=all')).tasks;
const findTask = async (title: string) => (await allTasks()).find((t) => t.title === title);


async function openMenu(message: Locator): Promise<void> {
  await message.locator('.bubble').hover();
  await message.getByTestId('message-menu-button').click();
  await message.page().getByTestId('message-menu').waitFor();
}

/** The panel, opened from the top-area button (if not open yet). */
async function openPanel(page: Page): Promise<Locator> {
  const panel = page.getByTestId('task-panel');
  if (!(await panel.isVisible())) await page.getByTestId('tasks-button').click();
  await panel.waitFor({ state: 'visible' });
  await page.waitForTimeout(250); // the slide-in
  return panel;
}

const row = (page: Page, taskId: string) => page.locator(`[data-testid="task-row"][data-task-id="${taskId}"]`);
const rowTitles = async (page: Page) => (await page.locator('[data-testid="task-row"] .task-row-title').allTextContents()).sort();

beforeAll(async () => {
  rt = await startTestRuntime();
  browser = await launchChromium();
  adminToken = await rt.signIn(rt.adminEmail);
  memberToken = await rt.signIn(rt.memberEmail);
});
afterAll(async () => {
  await browser?.close();
  await rt?.cleanup();
});

describe('tasks in the browser', () => {
  it('from a message: 1 hour before reminder, edit, audit rows, View Object', async () => {
    const wa = '16505550401';
    const chatId = `${wa}@c.us`;
    expect((await rt.postWebhook(inboundText(rt.phone, wa, 'Please call me back about the invoice', { name: 'Ada Lovelace' }))).status).toBe(200);
    await eventually(async () => (await api<{ messages: unknown[] }>(`/chats/${encodeURIComponent(chatId)}/messages`)).messages.length >= 1, 15_000, 'message');

    const admin = await signIn(rt.adminEmail);
    const tz = await admin.evaluate(() => Intl.DateTimeFormat().resolvedOptions().timeZone);
    // the button is in the top area and keyboard reachable; Esc closes the panel
    await admin.getByTestId('tasks-button').focus();
    await admin.keyboard.press('Enter');
    const panel = admin.getByTestId('task-panel');
    await panel.waitFor({ state: 'visible' });
    await panel.getByTestId('task-scope-switch').waitFor();
    await panel.getByTestId('task-empty').waitFor({ timeout: 15_000 });
    await admin.keyboard.press('Escape');
    await panel.waitFor({ state: 'hidden' });

    const thread = await openChat(admin, chatId);
    const message = thread.locator('[data-testid="message"]').filter({ hasText: 'Please call me back' });
    const uniqueId = (await message.getAttribute('data-unique-id'))!;
    await openMenu(message);
    await admin.getByTestId('message-menu-create-task').click();
    await panel.waitFor({ state: 'visible' });
    await expect.poll(() => panel.getAttribute('data-view')).toBe('new');
    expect(await panel.locator('#task-panel-title').textContent()).toBe('New Task');
    expect(await panel.getByTestId('task-title-input').inputValue()).toBe('Please call me back about the invoice');
    await panel.locator('[data-testid="task-associated"][data-type="message"]').waitFor();
    await expect.poll(() => panel.getByTestId('task-associated').textContent(), { timeout: 15_000 }).toContain('In Ada Lovelace');
    // defaults: priority Low, open, assignee me, no reminder
    expect(await panel.getByTestId('task-priority-select').inputValue()).toBe('1');
    expect(await panel.getByTestId('task-status-select').inputValue()).toBe('open');
    expect(await panel.getByTestId('task-assignee-select').getAttribute('data-value')).toBe(rt.adminEmail);
    expect(await panel.getByTestId('task-reminder-select').inputValue()).toBe('none');

    // the title is required
    await panel.getByTestId('task-title-input').fill('');
    expect(await panel.getByTestId('task-save').isDisabled()).toBe(true);
    // issue 49 §7: an overlong title is kept, counted and refused (spec §9: at most 150), never cut
    await panel.getByTestId('task-title-input').fill('x'.repeat(151));
    expect(await panel.getByTestId('task-title-input').inputValue()).toHaveLength(151);
    expect(await panel.getByTestId('task-title-count').textContent()).toBe('151/150');
    expect(await panel.getByTestId('task-error-title').textContent()).toBe('Title must be at most 150 characters');
    expect(await panel.getByTestId('task-save').isDisabled()).toBe(true);
    await panel.getByTestId('task-title-input').fill('Call Ada back about the invoice');
    expect(await panel.getByTestId('task-save').isDisabled()).toBe(false);

    // a due-tied reminder without a due date: the spec's red 'Due date is required'
    await panel.getByTestId('task-reminder-select').selectOption('1_hour_before');
    const required = panel.getByTestId('task-due-required');
    await required.waitFor();
    expect(await required.textContent()).toBe('Due date is required');
    expect(await required.evaluate((el) => getComputedStyle(el).color)).toMatch(/rgb\((198, 40, 40|255, 107, 107)\)/);
    await admin.screenshot({ path: join(SHOTS, 'task-new-due-required-desktop.png') });

    const due = Math.ceil((Date.now() + 2 * HOUR) / 60_000) * 60_000;
    await panel.getByTestId('task-due-input').fill(format(due, "yyyy-MM-dd'T'HH:mm"));
    await required.waitFor({ state: 'detached' });
    await expect.poll(() => panel.getByTestId('task-remind-at-text').textContent()).toContain(format(due - HOUR, 'HH:mm'));
    await panel.getByTestId('task-save').click();
    await expect.poll(() => panel.getAttribute('data-view'), { timeout: 15_000 }).toBe('list');

    const created = await eventually(async () => findTask('Call Ada back about the invoice'), 15_000, 'created task');
    expect(created).toMatchObject({
      status: 'open',
      priority: 1,
      assignee: rt.adminEmail,
      due_date: due,
      remind_at: due - HOUR,
      reminder_setting: { remind_in: '1_hour_before' },
      time_zone: tz,
      type: 'message',
      associated_object_metadata: { id: uniqueId, type: 'message', object: { chat_id: chatId, org_id: rt.orgId, is_private_note: false } },
    });
    const r = row(admin, created!.task_id);
    await r.waitFor({ timeout: 15_000 });
    expect(await r.getAttribute('data-status')).toBe('open');
    expect(await r.getAttribute('data-overdue')).toBe('false');
    await admin.screenshot({ path: join(SHOTS, 'task-list-desktop.png') });

    // edit: nothing changed -> Save disabled; title and priority -> Save
    await r.locator('.task-row-open').click();
    await expect.poll(() => panel.getAttribute('data-view')).toBe('edit');
    expect(await panel.locator('#task-panel-title').textContent()).toBe('Edit Task');
    expect(await panel.getByTestId('task-save').isDisabled()).toBe(true);
    await panel.getByTestId('task-title-input').fill('Call Ada back about invoice 77');
    await panel.getByTestId('task-priority-select').selectOption('3');
    // notes: Cancel restores the saved notes
    await panel.getByTestId('task-notes-input').fill('draft notes');
    await panel.getByTestId('task-notes-cancel').click();
    expect(await panel.getByTestId('task-notes-input').inputValue()).toBe('');
    await admin.screenshot({ path: join(SHOTS, 'task-edit-desktop.png') });
    await panel.getByTestId('task-save').click();
    await expect.poll(async () => (await findTask('Call Ada back about invoice 77'))?.priority, { timeout: 15_000 }).toBe(3);
    await expect.poll(() => panel.getByTestId('task-save').isDisabled(), { timeout: 15_000 }).toBe(true);

    // audit rows: created, title, priority (newest first), spec time text
    await panel.getByTestId('task-audit-open').click();
    await expect.poll(() => panel.getByTestId('task-audit-row').count(), { timeout: 15_000 }).toBe(3);
    const actions = await panel.getByTestId('task-audit-row').evaluateAll((els) => els.map((e) => e.getAttribute('data-action')));
    expect(actions[actions.length - 1]).toBe('TASK_CREATED');
    expect([...actions].sort()).toEqual(['PRIORITY_CHANGED', 'TASK_CREATED', 'TITLE_CHANGED']);
    const audit = (await panel.getByTestId('task-audit').textContent()) ?? '';
    expect(audit).toContain('changed the title');
    expect(audit).toContain('Call Ada back a...'); // shortened to 15 characters
    expect(audit).toContain('Low → High');
    expect(audit).toContain('just now');
    const rows = await api<{ entries: TaskAuditLogRow[] }>(`/tasks/${created!.task_id}/audit`);
    expect(rows.entries.map((e) => e.action).sort()).toEqual(['PRIORITY_CHANGED', 'TASK_CREATED', 'TITLE_CHANGED']);
    await admin.screenshot({ path: join(SHOTS, 'task-audit-desktop.png') });

    // back to the edit view, View Object: the chat with the message highlighted
    await panel.getByTestId('task-back').click();
    await panel.getByTestId('task-view-object').click();
    await panel.waitFor({ state: 'hidden' });
    await admin.waitForURL(new RegExp(`/chats/${encodeURIComponent(chatId)}`));
    await admin.locator(`[data-testid="message"][data-unique-id="${uniqueId}"].flash`).waitFor({ timeout: 15_000 });

    // from the chat header: a task linked to the chat
    await admin.getByTestId('chat-create-task').click();
    await panel.waitFor({ state: 'visible' });
    await panel.locator('[data-testid="task-associated"][data-type="chat"]').waitFor();
    await expect.poll(() => panel.getByTestId('task-associated').textContent(), { timeout: 15_000 }).toContain('Ada Lovelace');
    await panel.getByTestId('task-save').click();
    await expect.poll(async () => (await findTask('Follow up with Ada Lovelace'))?.associated_object_metadata?.type, { timeout: 15_000 }).toBe('chat');
    await admin.context().close();
  });

  it('filters with NOT / ALL / ANY, bulk close with a per-task failure, Remind In, overdue', async () => {
    const mk = (title: string, extra: Record<string, unknown>) => api<{ task: Task }>('/tasks', { method: 'POST', json: { title, ...extra } }).then((r) => r.task);
    const t1 = await mk('Alpha low mine', { priority: 1 });
    const t2 = await mk('Bravo medium member', { priority: 2, assignee: rt.memberEmail });
    const t3 = await mk('Charlie high doing', { priority: 3, status: 'inprogress' });
    const t4 = await mk('Delta high nobody', { priority: 3, assignee: null });
    const t5 = await mk('Echo low closed', { priority: 1, assignee: rt.memberEmail, status: 'closed' });
    // from the first test: 'Call Ada back about invoice 77' (high, open, me) and 'Follow up with Ada Lovelace' (low, open, me)

    const admin = await signIn(rt.adminEmail);
    const panel = await openPanel(admin);
    await panel.getByTestId('task-scope-all').click();
    await expect.poll(() => panel.getByTestId('task-row').count(), { timeout: 15_000 }).toBe(7);
    expect(await panel.getByTestId('task-scope-switch').getAttribute('data-scope')).toBe('all');
    expect(await row(admin, t5.task_id).getAttribute('data-status')).toBe('closed');
    expect(await row(admin, t5.task_id).evaluate((el) => getComputedStyle(el).backgroundColor)).toBe('rgb(240, 242, 245)');

    await panel.getByTestId('task-filters-toggle').click();
    // NOT: priority not High
    await panel.getByTestId('task-filter-priority-3').check();
    await panel.getByTestId('task-filter-priority-condition').selectOption('NOT');
    await expect.poll(() => rowTitles(admin)).toEqual(['Alpha low mine', 'Bravo medium member', 'Echo low closed', 'Follow up with Ada Lovelace']);
    await admin.screenshot({ path: join(SHOTS, 'task-filter-not-desktop.png') });
    // ALL on one filter: a task has one priority, so Low AND Medium matches none
    await panel.getByTestId('task-filter-priority-3').uncheck();
    await panel.getByTestId('task-filter-priority-1').check();
    await panel.getByTestId('task-filter-priority-2').check();
    await panel.getByTestId('task-filter-priority-condition').selectOption('ALL');
    await panel.getByTestId('task-empty').waitFor();
    await panel.getByTestId('task-filter-clear').click();
    // overall ALL: status open AND assignee me
    await panel.getByTestId('task-filter-status-open').check();
    await panel.getByTestId(`task-filter-assignee-${rt.adminEmail}`).check();
    expect(await panel.getByTestId('task-filter-overall').inputValue()).toBe('ALL');
    await expect.poll(() => rowTitles(admin)).toEqual(['Alpha low mine', 'Call Ada back about invoice 77', 'Follow up with Ada Lovelace']);
    // overall ANY: open OR mine
    await panel.getByTestId('task-filter-overall').selectOption('ANY');
    await expect.poll(() => rowTitles(admin)).toEqual(['Alpha low mine', 'Bravo medium member', 'Call Ada back about invoice 77', 'Charlie high doing', 'Delta high nobody', 'Follow up with Ada Lovelace']);
    // assignee Unassigned with ANY, and a due date range (shown 'DD MMM YY'), reversed ends swapped
    await panel.getByTestId('task-filter-clear').click();
    await panel.getByTestId('task-filter-assignee-unassigned').check();
    await expect.poll(() => rowTitles(admin)).toEqual(['Delta high nobody']);
    await panel.getByTestId('task-filter-clear').click();
    const tomorrow = Date.now() + 24 * HOUR;
    await panel.getByTestId('task-filter-due-from').fill(format(tomorrow, 'yyyy-MM-dd'));
    await panel.getByTestId('task-filter-due-to').fill(format(Date.now() - 24 * HOUR, 'yyyy-MM-dd'));
    expect(await panel.getByTestId('task-filter-due-from').inputValue()).toBe(format(Date.now() - 24 * HOUR, 'yyyy-MM-dd'));
    expect(await panel.getByTestId('task-filter-due-summary').textContent()).toBe(`${format(Date.now() - 24 * HOUR, 'dd MMM yy')} – ${format(tomorrow, 'dd MMM yy')}`);
    await expect.poll(() => rowTitles(admin)).toEqual(['Call Ada back about invoice 77']);
    await panel.getByTestId('task-filter-due-condition').selectOption('NOT');
    await expect.poll(() => panel.getByTestId('task-row').count()).toBe(6);
    await panel.getByTestId('task-filter-clear').click();
    // sorts: priority high first
    await panel.getByTestId('task-filter-sort').selectOption('priority_desc');
    await expect.poll(async () => (await admin.locator('[data-testid="task-row"]').first().locator('.task-row-title').textContent()) ?? '').toMatch(/Call Ada|Charlie|Delta/);
    await panel.getByTestId('task-filters-toggle').click();

    // bulk close two (a task that does not exist rides along: its failure is listed)
    await panel.getByTestId('task-select-mode').click();
    await row(admin, t1.task_id).getByTestId('task-row-check').check();
    await row(admin, t2.task_id).getByTestId('task-row-check').check();
    await admin.route('**/tasks/bulk', async (route) => {
      const body = JSON.parse(route.request().postData() ?? '{}') as { task_ids: string[] };
      await route.continue({ postData: JSON.stringify({ ...body, task_ids: [...body.task_ids, 'tsk_does_not_exist'] }) });
    });
    await panel.getByTestId('task-bulk-close').click();
    await expect.poll(() => row(admin, t1.task_id).getAttribute('data-status'), { timeout: 15_000 }).toBe('closed');
    await expect.poll(() => row(admin, t2.task_id).getAttribute('data-status'), { timeout: 15_000 }).toBe('closed');
    await expect.poll(() => panel.getByTestId('task-bulk-failures').textContent(), { timeout: 15_000 }).toContain('1 task not updated');
    await admin.unroute('**/tasks/bulk');
    expect((await findTask('Alpha low mine'))?.status).toBe('closed');
    await admin.screenshot({ path: join(SHOTS, 'task-bulk-desktop.png') });
    await panel.getByTestId('task-select-mode').click();

    // per-row status, then the row menu: Remind In 30 minutes
    await row(admin, t4.task_id).getByTestId('task-row-status').selectOption('inprogress');
    await expect.poll(async () => (await findTask('Delta high nobody'))?.status, { timeout: 15_000 }).toBe('inprogress');
    const before = Date.now();
    await row(admin, t3.task_id).getByTestId('task-row-menu-button').click();
    await admin.getByTestId('task-menu').waitFor();
    await admin.screenshot({ path: join(SHOTS, 'task-row-menu-desktop.png') });
    await admin.getByTestId('task-menu-remind-30_minutes').click();
    const reminded = await eventually(async () => {
      const t = await findTask('Charlie high doing');
      return t?.remind_at ? t : undefined;
    }, 15_000, 'remind in');
    expect(reminded.reminder_setting.remind_in).toBe('custom_date');
    expect(reminded.remind_at! - before).toBeGreaterThan(29 * 60_000);
    expect(reminded.remind_at! - before).toBeLessThan(31 * 60_000);
    // context menu 'Close Task(s)' by right click
    await row(admin, t3.task_id).locator('.task-row-open').click({ button: 'right' });
    await admin.getByTestId('task-menu-close').click();
    await expect.poll(() => row(admin, t3.task_id).getAttribute('data-status'), { timeout: 15_000 }).toBe('closed');

    // the page clock moves 3 hours on: the open task due in 2 hours is overdue (red); closed ones are not
    await panel.getByTestId('task-panel-close').click();
    await admin.clock.setFixedTime(Date.now() + 3 * HOUR);
    await openPanel(admin);
    const overdueTask = (await findTask('Call Ada back about invoice 77'))!;
    await expect.poll(() => row(admin, overdueTask.task_id).getAttribute('data-overdue'), { timeout: 10_000 }).toBe('true');
    expect(await row(admin, overdueTask.task_id).evaluate((el) => getComputedStyle(el).backgroundColor)).toBe('rgb(253, 236, 234)');
    expect(await admin.locator('[data-testid="task-row"][data-overdue="true"]').count()).toBe(1);
    await admin.screenshot({ path: join(SHOTS, 'task-overdue-desktop.png') });
    await admin.context().close();
  });

  it('the member: My Tasks only, a custom reminder fires and notifies the assignee', async () => {
    const member = await signIn(rt.memberEmail);
    const panel = await openPanel(member);
    expect(await panel.getByTestId('task-scope-switch').count()).toBe(0);
    expect(await panel.locator('#task-panel-title').textContent()).toBe('My Tasks');
    // Bravo (closed) and Echo (closed) are assigned to the member
    await expect.poll(() => rowTitles(member), { timeout: 15_000 }).toEqual(['Bravo medium member', 'Echo low closed']);

    await panel.getByTestId('task-new').click();
    expect(await panel.locator('#task-panel-title').textContent()).toBe('New Task');
    await panel.getByTestId('task-title-input').fill('Check the refund went through');
    await panel.getByTestId('task-reminder-select').selectOption('custom_date');
    // the next whole minute (with at least 15 s to spare)
    let at = Math.ceil(Date.now() / 60_000) * 60_000;
    if (at - Date.now() < 15_000) at += 60_000;
    await panel.getByTestId('task-remind-at-input').fill(format(at, "yyyy-MM-dd'T'HH:mm"));
    expect(await panel.getByTestId('task-due-required').count()).toBe(0);
    await panel.getByTestId('task-save').click();
    await expect.poll(() => panel.getAttribute('data-view'), { timeout: 15_000 }).toBe('list');
    const mine = await eventually(async () => (await call<{ tasks: Task[] }>(memberToken, '/tasks?scope=mine')).tasks.find((t) => t.title === 'Check the refund went through'), 15_000, 'member task');
    expect(mine).toMatchObject({ assignee: rt.memberEmail, remind_at: at, reminder_setting: { remind_in: 'custom_date' } });
    await panel.getByTestId('task-panel-close').click();

    // the server fires it on real time: a toast, the unread count, and the notification entry
    const toast = member.locator('.toast', { hasText: 'Reminder: Check the refund went through' });
    await toast.waitFor({ timeout: at - Date.now() + 30_000 });
    await expect.poll(() => member.getByTestId('tasks-unread').textContent()).toBe('1');
    await member.screenshot({ path: join(SHOTS, 'task-reminder-toast-desktop.png') });
    await openPanel(member);
    const note = panel.locator(`[data-testid="task-notification"][data-task-id="${mine.task_id}"]`);
    await note.waitFor();
    expect(await note.textContent()).toContain('Reminder: Check the refund went through');
    await expect.poll(() => member.getByTestId('tasks-unread').count()).toBe(0);
    await member.screenshot({ path: join(SHOTS, 'task-notification-desktop.png') });
    await note.locator('.task-notification-open').click();
    await expect.poll(() => panel.getAttribute('data-view')).toBe('edit');
    await member.context().close();
  }, 150_000);

  it('from a ticket; phone layout', async () => {
    const wa = '16505550402';
    const chatId = `${wa}@c.us`;
    expect((await rt.postWebhook(inboundText(rt.phone, wa, 'The blender stopped working', { name: 'Grace Hopper' }))).status).toBe(200);
    const uid = await eventually(async () => (await api<{ messages: Array<{ unique_id: string }> }>(`/chats/${encodeURIComponent(chatId)}/messages`)).messages[0]?.unique_id, 15_000, 'message');
    const { ticket } = await api<{ ticket: { ticket_id: string } }>('/tickets', { method: 'POST', json: { chat_id: chatId, quoted_message_id: uid, subject: 'Broken blender' } });

    const phone = await signIn(rt.adminEmail, PHONE);
    await phone.goto(`${rt.url.replace('localhost', '127.0.0.1')}/tickets?ticket=${ticket.ticket_id}`);
    await phone.getByTestId('ticket-detail').getByTestId('ticket-subject-input').waitFor({ timeout: 15_000 });
    await phone.getByTestId('ticket-create-task').click();
    const panel = phone.getByTestId('task-panel');
    await panel.waitFor({ state: 'visible' });
    // full screen on a phone
    const box = (await panel.boundingBox())!;
    expect(Math.round(box.width)).toBe(PHONE.width);
    expect(Math.round(box.height)).toBe(PHONE.height);
    await panel.locator('[data-testid="task-associated"][data-type="ticket"]').waitFor();
    await expect.poll(() => panel.getByTestId('task-associated').textContent(), { timeout: 15_000 }).toContain('Broken blender');
    await phone.screenshot({ path: join(SHOTS, 'task-new-from-ticket-phone.png') });
    await panel.getByTestId('task-save').click();
    const t = await eventually(async () => findTask('Broken blender'), 15_000, 'ticket task');
    expect(t.associated_object_metadata).toMatchObject({ id: ticket.ticket_id, type: 'ticket', object: { ticket_id: ticket.ticket_id, chat_id: chatId, quoted_message_id: uid } });
    await row(phone, t.task_id).waitFor({ timeout: 15_000 });
    await phone.screenshot({ path: join(SHOTS, 'task-list-phone.png') });
    await row(phone, t.task_id).locator('.task-row-open').click();
    await phone.screenshot({ path: join(SHOTS, 'task-edit-phone.png') });
    await panel.getByTestId('task-view-object').click();
    await panel.waitFor({ state: 'hidden' });
    await phone.waitForURL(/\/tickets\?ticket=/);

    // the button floats in the top area on phones (every page): also on a chat
    await phone.goto(`${rt.url.replace('localhost', '127.0.0.1')}/chats/${encodeURIComponent(chatId)}`);
    await phone.getByTestId('message').first().waitFor({ timeout: 15_000 });
    expect(await phone.getByTestId('tasks-button').isVisible()).toBe(true);
    await phone.screenshot({ path: join(SHOTS, 'chat-with-tasks-button-phone.png') });
    await phone.getByTestId('tasks-button').click();
    await panel.waitFor({ state: 'visible' });
    // (a fresh page load: the list)
    await expect.poll(() => panel.getAttribute('data-view')).toBe('list');
    await panel.getByTestId('task-filters-toggle').click();
    await phone.screenshot({ path: join(SHOTS, 'task-filters-phone.png') });
    await phone.keyboard.press('Escape');
    await panel.waitFor({ state: 'hidden' });
    expect(phone.url()).toContain('/chats/');

    // a link that cannot be loaded says so (spec §8)
    await phone.route('**/tickets/*', (route) => (route.request().method() === 'GET' && !route.request().url().includes('/tasks/') ? route.fulfill({ status: 500, body: '{"error":{"code":"boom","message":"boom"}}' }) : route.continue()));
    await phone.getByTestId('tasks-button').click();
    await row(phone, t.task_id).locator('.task-row-open').click();
    await expect.poll(() => panel.getByTestId('task-associated-error').textContent(), { timeout: 15_000 }).toBe('Error while fetching associated ticket');
    await phone.context().close();
  });

  it('1000 at start, virtualized rows, Load more tasks adds 500 with the cursor (list answers stubbed)', async () => {
    const admin = await signIn(rt.adminEmail);
    const base = (await allTasks())[0]!;
    const fake = (n: number, from: number): Task[] =>
      Array.from({ length: n }, (_, i) => ({ ...base, task_id: `tsk_fake_${from + i}`, title: `Fake task ${from + i}`, created_at: 1_700_000_000_000 - (from + i), assignee: rt.adminEmail, associated_object_metadata: null }));
    const asked: string[] = [];
    await admin.route('**/tasks?*', async (route) => {
      const url = new URL(route.request().url());
      asked.push(url.search);
      const cursor = url.searchParams.get('cursor');
      const body = cursor ? { tasks: fake(500, 1000), cursor: null } : { tasks: fake(1000, 0), cursor: 'c1' };
      await route.fulfill({ status: 200, contentType: 'application/json', body: JSON.stringify(body) });
    });
    const panel = await openPanel(admin);
    await expect.poll(() => panel.getByTestId('task-count').getAttribute('data-count'), { timeout: 15_000 }).toBe('1000');
    expect(asked[0]).toContain('limit=1000');
    expect(asked[0]).toContain('scope=mine');
    // virtualized: far fewer rows in the DOM than tasks (50 at first + overscan 30 at most)
    const inDom = await panel.getByTestId('task-row').count();
    expect(inDom).toBeGreaterThan(10);
    expect(inDom).toBeLessThanOrEqual(80);
    await panel.getByTestId('task-load-more').click();
    await expect.poll(() => panel.getByTestId('task-count').getAttribute('data-count'), { timeout: 15_000 }).toBe('1500');
    expect(asked[1]).toContain('limit=500');
    expect(asked[1]).toContain('cursor=c1');
    expect(await panel.getByTestId('task-load-more').count()).toBe(0);
    await admin.screenshot({ path: join(SHOTS, 'task-list-many-desktop.png') });
    await admin.context().close();
  });
});
