import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { join } from 'node:path';
import { type Browser, type Locator, type Page } from 'playwright-core';
import { DESKTOP, PHONE, SHOTS, signIn as signInAs, openChat, startE2E, stopE2E } from '../factories/browser.ts';
import type { TestRuntime } from '../factories/runtime.ts';
import { envelope, inboundText, newWamid } from '../../shared/whatsapp/cloud/payloads.ts';
import { eventually } from '../factories/wait.ts';

/**
 * Tickets end to end, in Debian's Chromium: the admin turns a customer message into a ticket
 * assigned to the member (the member's sidebar badge moves live), attaches a second message,
 * opens the ticket from its chip, closes it (it leaves the member's badge); 100 seeded tickets
 * show '99+'; list, filters, load more, bulk change and the settings page.
 * Screenshots (desktop 1440x900, phone 390x844) go to test-results/screenshots.
 */
let rt: TestRuntime;
let browser: Browser;
let adminToken: string;

/** Sign in through the login page (tests/factories/browser.ts). */
const signIn = (email: string, viewport = DESKTOP): Promise<Page> => signInAs(browser, rt, email, viewport);

const badge = (page: Page): Locator => page.locator('#sidebar [data-testid="tickets-badge"]');
const badgeCount = (page: Page) => badge(page).getAttribute('data-count');


/** Open a message's "⋯" menu (hover shows the button). */
async function openMenu(message: Locator): Promise<void> {
  await message.locator('.bubble').hover();
  await message.getByTestId('message-menu-button').click();
  await message.page().getByTestId('message-menu').waitFor();
}

const api = <T>(path: string, init: RequestInit & { json?: unknown } = {}): Promise<T> => rt.orgJson<T>(adminToken, path, init);

/** n customer messages in one webhook, then a ticket from each (POST /tickets, 10 at a time). */
async function seedTickets(wa: string, n: number, assignee: string): Promise<string[]> {
  const now = Math.floor(Date.now() / 1000) - n;
  const messages = Array.from({ length: n }, (_, i) => ({ from: wa, id: newWamid(), timestamp: String(now + i), type: 'text', text: { body: `Seeded issue number ${i + 1}` } }));
  expect((await rt.postWebhook(envelope(rt.phone, { contacts: [{ profile: { name: 'Busy Customer' }, wa_id: wa }], messages }))).status).toBe(200);
  const chatId = `${wa}@c.us`;
  const ids = await eventually(
    async () => {
      const j = await api<{ messages: Array<{ unique_id: string }> }>(`/chats/${encodeURIComponent(chatId)}/messages?limit=${n + 10}`);
      return j.messages.length >= n ? j.messages.map((m) => m.unique_id) : undefined;
    },
    60_000,
    `${n} seeded messages`,
  );
  const out: string[] = [];
  for (let i = 0; i < ids.length; i += 10) {
    const made = await Promise.all(
      ids.slice(i, i + 10).map((uid, k) =>
        api<{ ticket: { ticket_id: string } }>('/tickets', {
          method: 'POST',
          json: { chat_id: chatId, quoted_message_id: uid, subject: `Seeded ticket ${i + k + 1}`, assignee, priority: ((i + k) % 3) + 1 },
        }),
      ),
    );
    out.push(...made.map((m) => m.ticket.ticket_id));
  }
  return out;
}

beforeAll(async () => ({ rt, browser, adminToken } = await startE2E()));
afterAll(() => stopE2E({ browser, rt }));

describe('tickets in the browser', () => {
  it('ticket settings: admins edit labels and defaults; members meet the Restricted page (spec §2)', async () => {
    const admin = await signIn(rt.adminEmail);
    await admin.goto(`${rt.url.replace('localhost', '127.0.0.1')}/settings/tickets`);
    await admin.getByTestId('ticket-settings').waitFor({ timeout: 15_000 });
    await admin.getByTestId('ticket-label-add').click();
    await admin.getByTestId('ticket-label-name').last().fill('Refund');
    await admin.getByTestId('ticket-label-add').click();
    await admin.getByTestId('ticket-label-name').last().fill('Bug');
    await admin.getByTestId('ticket-default-priority').selectOption('2');
    await admin.getByTestId('ticket-settings-save').click();
    await expect
      .poll(async () => (await api<{ settings: { labels: Array<{ name: string }>; default_priority: number } }>('/settings/tickets')).settings, { timeout: 15_000 })
      .toMatchObject({ labels: [{ name: 'Refund' }, { name: 'Bug' }], default_priority: 2 });
    await admin.screenshot({ path: join(SHOTS, 'ticket-settings-desktop.png') });
    await admin.context().close();

    const member = await signIn(rt.memberEmail, PHONE);
    await member.goto(`${rt.url.replace('localhost', '127.0.0.1')}/settings/tickets`);
    await member.getByTestId('restricted-page').waitFor({ timeout: 15_000 });
    expect(await member.getByTestId('ticket-settings-save').count()).toBe(0);
    await member.screenshot({ path: join(SHOTS, 'ticket-settings-member-phone.png') });
    await member.context().close();
  });

  it('create from a message, attach a second one, live badge for the assignee, close', async () => {
    const admin = await signIn(rt.adminEmail);
    const member = await signIn(rt.memberEmail);
    await member.goto(`${rt.url.replace('localhost', '127.0.0.1')}/tickets`);
    await member.getByTestId('tickets-empty').waitFor({ timeout: 15_000 });
    expect(await badgeCount(member)).toBe('0');
    await member.screenshot({ path: join(SHOTS, 'tickets-empty-desktop.png') });

    const wa = '16505550301';
    const chatId = `${wa}@c.us`;
    expect((await rt.postWebhook(inboundText(rt.phone, wa, 'My parcel arrived damaged\nThe box was crushed on one side.', { name: 'Marie Curie', timestampS: Math.floor(Date.now() / 1000) - 60 }))).status).toBe(200);
    await eventually(async () => (await api<{ messages: unknown[] }>(`/chats/${encodeURIComponent(chatId)}/messages`)).messages.length >= 1, 15_000, 'first message');
    expect((await rt.postWebhook(inboundText(rt.phone, wa, 'Order number is 4411, photos attached soon.', { name: 'Marie Curie' }))).status).toBe(200);

    const thread = await openChat(admin, chatId);
    await expect.poll(() => thread.getByTestId('message').count(), { timeout: 15_000 }).toBe(2);
    const first = thread.locator('[data-testid="message"]').filter({ hasText: 'My parcel arrived damaged' });
    const second = thread.locator('[data-testid="message"]').filter({ hasText: 'Order number is 4411' });

    // the details panel is open on a wide screen and says there are no tickets yet
    const panel = admin.getByTestId('chat-tickets-panel');
    if (!(await panel.isVisible())) await admin.getByTestId('chat-details-toggle').click();
    await expect.poll(() => panel.textContent(), { timeout: 15_000 }).toContain('No tickets for this chat yet');

    // no open ticket yet: the menu offers Create, not Attach
    await openMenu(first);
    expect(await admin.getByTestId('message-menu-attach-ticket').count()).toBe(0);
    await admin.screenshot({ path: join(SHOTS, 'message-menu-desktop.png') });
    await admin.getByTestId('message-menu-create-ticket').click();
    const dialog = admin.getByTestId('ticket-create-dialog');
    await dialog.waitFor();
    expect(await dialog.getByTestId('ticket-create-subject').inputValue()).toBe('My parcel arrived damaged');
    await dialog.getByTestId('ticket-create-subject').fill('Damaged parcel (order 4411)');
    expect(await dialog.getByTestId('ticket-create-priority').inputValue()).toBe('2');
    await dialog.getByTestId('ticket-create-priority').selectOption('3');
    await dialog.getByTestId('ticket-create-assignee').fill(rt.memberEmail);
    await dialog.getByTestId('ticket-create-assignee').press('Tab');
    // the labels made in settings are offered; the default priority (Medium) was preselected
    await dialog.locator('.label-option', { hasText: 'Refund' }).locator('input').check();
    await admin.screenshot({ path: join(SHOTS, 'ticket-create-dialog-desktop.png') });
    await dialog.getByTestId('ticket-create-submit').click();
    await dialog.waitFor({ state: 'detached', timeout: 15_000 });

    // the chip appears on the message, the panel lists the ticket
    const chip1 = first.getByTestId('ticket-chip');
    await chip1.waitFor({ timeout: 15_000 });
    const ticketId = (await chip1.getAttribute('data-ticket-id'))!;
    expect(ticketId).toBeTruthy();
    await panel.locator(`[data-testid="chat-ticket"][data-ticket-id="${ticketId}"]`).waitFor({ timeout: 15_000 });
    await expect.poll(() => chip1.textContent()).toContain('Damaged parcel (order 4411)');

    // the member's badge moves live (the ticket is theirs), and their open list shows it
    await expect.poll(() => badgeCount(member), { timeout: 15_000 }).toBe('1');
    expect(await badge(member).textContent()).toBe('1');
    const memberRow = member.locator(`[data-testid="ticket-row"][data-ticket-id="${ticketId}"][data-status="open"]`);
    await memberRow.waitFor({ timeout: 15_000 });
    await expect.poll(() => memberRow.textContent()).toContain('Refund');

    // the first message now has a ticket: Create is gone, and it cannot be attached again
    await openMenu(first);
    expect(await admin.getByTestId('message-menu-create-ticket').count()).toBe(0);
    expect(await admin.getByTestId('message-menu-attach-ticket').count()).toBe(0);
    await admin.keyboard.press('Escape');
    await admin.getByTestId('message-menu').waitFor({ state: 'detached' });
    expect(admin.url()).toContain(`/chats/${encodeURIComponent(chatId)}`);

    // attach the second message to the open ticket
    await openMenu(second);
    await admin.getByTestId('message-menu-attach-ticket').click();
    const attach = admin.getByTestId('ticket-attach-dialog');
    await attach.locator(`[data-testid="ticket-attach-option"][data-ticket-id="${ticketId}"]`).waitFor();
    await attach.getByTestId('ticket-attach-submit').click();
    await attach.waitFor({ state: 'detached', timeout: 15_000 });
    await expect.poll(() => second.getByTestId('ticket-chip').getAttribute('data-ticket-id'), { timeout: 15_000 }).toBe(ticketId);
    await admin.screenshot({ path: join(SHOTS, 'chat-tickets-panel-desktop.png') });

    // quick status change from the chat panel
    await panel.getByTestId('chat-ticket-status').selectOption('inprogress');
    await panel.locator(`[data-testid="chat-ticket"][data-ticket-id="${ticketId}"][data-status="inprogress"]`).waitFor({ timeout: 15_000 });
    await member.locator(`[data-testid="ticket-row"][data-ticket-id="${ticketId}"][data-status="inprogress"]`).waitFor({ timeout: 15_000 });
    expect(await badgeCount(member)).toBe('1');

    // the chip opens the ticket: detail with both messages and the audit log
    await chip1.click();
    await admin.waitForURL(/\/tickets\?ticket=/, { timeout: 15_000 });
    const detail = admin.getByTestId('ticket-detail');
    await detail.getByTestId('ticket-subject-input').waitFor({ timeout: 15_000 });
    expect(await detail.getByTestId('ticket-subject-input').inputValue()).toBe('Damaged parcel (order 4411)');
    await expect.poll(() => detail.getByTestId('ticket-message').count(), { timeout: 15_000 }).toBe(2);
    await expect.poll(() => detail.getByTestId('ticket-audit').textContent(), { timeout: 15_000 }).toContain('created the ticket');
    await admin.locator(`[data-testid="ticket-row"][data-ticket-id="${ticketId}"]`).waitFor({ timeout: 15_000 });

    // rename it from the detail panel
    await detail.getByTestId('ticket-subject-input').fill('Damaged parcel — replacement');
    await detail.getByTestId('ticket-subject-input').press('Enter');
    await expect
      .poll(() => member.locator(`[data-testid="ticket-row"][data-ticket-id="${ticketId}"]`).textContent(), { timeout: 15_000 })
      .toContain('Damaged parcel — replacement');
    await expect.poll(() => detail.getByTestId('ticket-audit').textContent(), { timeout: 15_000 }).toContain('renamed it');
    await admin.screenshot({ path: join(SHOTS, 'ticket-detail-desktop.png') });

    // detach the second message (the one the ticket was made from has no Detach)
    expect(await detail.getByTestId('ticket-message-detach').count()).toBe(1);
    await detail.locator('[data-testid="ticket-message"]', { hasText: 'Order number is 4411' }).getByTestId('ticket-message-detach').click();
    await expect.poll(() => detail.getByTestId('ticket-message').count(), { timeout: 15_000 }).toBe(1);
    await expect.poll(() => detail.getByTestId('ticket-audit').textContent(), { timeout: 15_000 }).toContain('detached a message');

    // close it: it leaves the member's badge
    await detail.getByTestId('ticket-status-select').selectOption('closed');
    await admin.locator(`[data-testid="ticket-row"][data-ticket-id="${ticketId}"][data-status="closed"]`).waitFor({ timeout: 15_000 });
    await expect.poll(() => badgeCount(member), { timeout: 15_000 }).toBe('0');
    expect(await badge(member).isVisible()).toBe(false);
    await member.locator(`[data-testid="ticket-row"][data-ticket-id="${ticketId}"][data-status="closed"]`).waitFor({ timeout: 15_000 });
    await member.screenshot({ path: join(SHOTS, 'tickets-member-desktop.png') });

    // a closed ticket takes no more messages: back in the chat, Attach is not offered
    await detail.getByTestId('ticket-message-jump').first().click();
    await admin.waitForURL(/\/chats\//, { timeout: 15_000 });
    const thread2 = admin.getByTestId('thread');
    const againFirst = thread2.locator('[data-testid="message"]').filter({ hasText: 'My parcel arrived damaged' });
    await againFirst.waitFor({ timeout: 15_000 });
    expect(await againFirst.isVisible()).toBe(true);
    await againFirst.getByTestId('ticket-chip').waitFor({ timeout: 15_000 });
    const againSecond = thread2.locator('[data-testid="message"]').filter({ hasText: 'Order number is 4411' });
    expect(await againSecond.getByTestId('ticket-chip').count()).toBe(0);
    await admin.getByTestId('chat-tickets-panel').locator(`[data-testid="chat-ticket"][data-status="closed"]`).waitFor({ timeout: 15_000 });
    await openMenu(againSecond);
    expect(await admin.getByTestId('message-menu-create-ticket').count()).toBe(1);
    expect(await admin.getByTestId('message-menu-attach-ticket').count()).toBe(0);
    await admin.keyboard.press('Escape');

    await admin.context().close();
    await member.context().close();
  });

  it('100 tickets: 99+ badge, load more, filters, bulk change, phone layout', { timeout: 150_000 }, async () => {
    const admin = await signIn(rt.adminEmail);
    expect(await badgeCount(admin)).toBe('0');
    const ids = await seedTickets('16505550999', 100, rt.adminEmail);
    expect(ids).toHaveLength(100);
    // created over the API in the background: the socket moves the badge without reload
    await expect.poll(() => badge(admin).textContent(), { timeout: 20_000 }).toBe('99+');
    await expect.poll(() => badgeCount(admin)).toBe('100');

    await admin.getByRole('link', { name: /^Tickets/ }).first().click();
    await admin.waitForURL(/\/tickets/);
    await expect.poll(() => admin.getByTestId('ticket-row').count(), { timeout: 15_000 }).toBe(50);
    await admin.getByTestId('tickets-load-more').click();
    await expect.poll(() => admin.getByTestId('ticket-row').count(), { timeout: 15_000 }).toBeGreaterThanOrEqual(100);
    await admin.screenshot({ path: join(SHOTS, 'tickets-list-desktop.png') });

    // filters: high priority, assigned to me; search by subject
    await admin.getByTestId('filter-priority').selectOption('3');
    await admin.getByTestId('filter-assignee').selectOption('me');
    await expect.poll(() => admin.getByTestId('ticket-row').count(), { timeout: 15_000 }).toBe(33);
    await admin.getByTestId('tickets-search').fill('Seeded ticket 9');
    // 9, 90..99 with priority 3: 9 (i=8 -> 3), 90 (i=89 -> 3), 93, 96, 99
    // the subject search reads the search index, fed by a background consumer: it may trail 100 fresh tickets by a while
    await expect
      .poll(async () => (await admin.getByTestId('ticket-row').allTextContents()).map((t) => /Seeded ticket (\d+)/.exec(t)?.[1]).sort(), { timeout: 60_000 })
      .toEqual(['9', '90', '93', '96', '99']);
    expect(admin.url()).toContain('q=Seeded');

    // bulk: two of them to in progress
    const rows = admin.getByTestId('ticket-row');
    await rows.nth(0).locator('input[type="checkbox"]').check();
    await rows.nth(1).locator('input[type="checkbox"]').check();
    await admin.getByTestId('bulk-bar').waitFor();
    // (a ticket that does not exist rides along, to see a per-ticket failure listed)
    await admin.route('**/tickets/bulk', async (route) => {
      const body = JSON.parse(route.request().postData() ?? '{}') as { ticket_ids: string[] };
      await route.continue({ postData: JSON.stringify({ ...body, ticket_ids: [...body.ticket_ids, 'tkt_does_not_exist'] }) });
    });
    await admin.getByTestId('bulk-status').selectOption('inprogress');
    await expect.poll(() => admin.locator('[data-testid="ticket-row"][data-status="inprogress"]').count(), { timeout: 15_000 }).toBe(2);
    await expect.poll(() => admin.getByTestId('bulk-failures').textContent(), { timeout: 15_000 }).toContain('1 ticket not updated');
    await admin.unroute('**/tickets/bulk');
    await admin.screenshot({ path: join(SHOTS, 'tickets-filtered-desktop.png') });
    // still mine and not closed: the badge is unchanged
    expect(await badgeCount(admin)).toBe('100');

    // bulk close all five shown (two in progress, three open): the badge drops to 95
    await admin.getByTestId('tickets-select-all').check();
    await admin.getByTestId('bulk-status').selectOption('closed');
    await expect.poll(() => badgeCount(admin), { timeout: 15_000 }).toBe('95');
    await expect.poll(() => badge(admin).textContent()).toBe('95');
    await admin.context().close();

    // the phone: bottom tab bar with the badge, list, detail, chat details panel
    const phone = await signIn(rt.adminEmail, PHONE);
    await phone.locator('.tabbar').getByText('Tickets').click();
    await phone.waitForURL(/\/tickets/);
    await phone.getByTestId('ticket-row').first().waitFor({ timeout: 15_000 });
    await expect.poll(() => phone.getByTestId('tab-tickets-badge').textContent(), { timeout: 15_000 }).toBe('95');
    await phone.screenshot({ path: join(SHOTS, 'tickets-phone.png') });
    await phone.getByTestId('ticket-row').first().locator('.ticket-row-open').click();
    await phone.getByTestId('ticket-detail').getByTestId('ticket-subject-input').waitFor({ timeout: 15_000 });
    expect(await phone.locator('.tickets-main').isVisible()).toBe(false);
    await phone.screenshot({ path: join(SHOTS, 'ticket-detail-phone.png') });
    await phone.getByTestId('ticket-message-jump').first().click();
    await phone.waitForURL(/\/chats\//);
    await phone.getByTestId('message').first().waitFor({ timeout: 15_000 });
    await phone.screenshot({ path: join(SHOTS, 'chat-with-tickets-phone.png') });
    await phone.getByTestId('chat-details-toggle').click();
    await phone.getByTestId('chat-tickets-panel').locator('[data-testid="chat-ticket"]').first().waitFor({ timeout: 15_000 });
    await phone.screenshot({ path: join(SHOTS, 'chat-tickets-panel-phone.png') });
    await phone.context().close();
  });

});
