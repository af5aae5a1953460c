import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { join } from 'node:path';
import type { Browser } from 'playwright-core';
import { DESKTOP, PHONE, SHOTS, signIn, startE2E, stopE2E } from '../factories/browser.ts';
import type { TestRuntime } from '../factories/runtime.ts';
import { inboundText } from '../../shared/whatsapp/cloud/payloads.ts';

/**
 * Templates and scheduled messages end to end in Chromium (issue 16 part A): an admin syncs the
 * templates on /settings/templates; in a chat whose 24-hour window has closed the thread header
 * says so, free text is replaced by the template picker, and a template with its variables reaches
 * the Graph stand-in; the composer's Schedule action creates a weekly message, which
 * /settings/scheduled skips and pauses (phone layout). Screenshots: test-results/screenshots.
 */
let rt: TestRuntime;
let browser: Browser;
const FROM = '15550881234';

beforeAll(async () => {
  ({ rt, browser } = await startE2E());
  // a customer who wrote 30 hours ago: the window is closed
  expect((await rt.postWebhook(inboundText(rt.phone, FROM, 'Is my order shipped?', { name: 'Olga Window', timestampS: Math.floor((Date.now() - 30 * 3_600_000) / 1000) }))).status).toBe(200);
  await rt.idle();
});
afterAll(() => stopE2E({ browser, rt }));
const base = () => rt.url.replace('localhost', '127.0.0.1');

describe('templates in the browser', () => {
  it('an admin syncs the templates and previews one', async () => {
    const admin = await signIn(browser, rt, rt.adminEmail, DESKTOP);
    await admin.goto(`${base()}/settings/templates`);
    await admin.getByTestId('templates-page').waitFor();
    await admin.getByTestId('template-sync').click();
    await expect.poll(() => admin.getByTestId('template-sync-result').textContent()).toContain('Synced 4 templates');
    await expect.poll(() => admin.getByTestId('template-row').count()).toBe(4);
    await admin.getByTestId('template-row').filter({ hasText: 'order_shipped' }).locator('button').first().click();
    await admin.getByTestId('template-var-body.1').fill('Ana');
    await expect.poll(() => admin.getByTestId('template-preview').textContent()).toContain('Hi Ana, your order {{2}}');
    await admin.screenshot({ path: join(SHOTS, 'templates-desktop.png') });
  });

  it('a closed window offers templates instead of free text, and the template is sent', async () => {
    const admin = await signIn(browser, rt, rt.adminEmail, DESKTOP);
    await admin.goto(`${base()}/chats/${encodeURIComponent(`${FROM}@c.us`)}`);
    await admin.getByTestId('thread').waitFor();
    await expect.poll(() => admin.getByTestId('window-tag').textContent()).toBe('Window closed');
    await admin.getByTestId('template-composer').waitFor();
    expect(await admin.getByTestId('composer-input').count()).toBe(0);
    await admin.getByTestId('template-select').selectOption({ label: 'appointment_reminder · en_US · utility' });
    await admin.getByTestId('template-send').click();
    // missing variables are named under their inputs, nothing is sent
    await admin.getByText('is required').first().waitFor();
    await admin.getByTestId('template-var-body.1').fill('Olga');
    await admin.getByTestId('template-var-body.2').fill('Friday 10 am');
    await expect.poll(() => admin.getByTestId('template-preview').textContent()).toContain('Hello Olga, this is a reminder of your appointment on Friday 10 am.');
    await admin.screenshot({ path: join(SHOTS, 'template-composer-desktop.png') });
    const before = rt.graph.sent.length;
    await admin.getByTestId('template-send').click();
    await expect.poll(() => rt.graph.sent.slice(before).some((r) => (r.body as { template?: { name?: string } }).template?.name === 'appointment_reminder' && !!r.wamid), { timeout: 15_000 }).toBe(true);
    // in the messages (the composer's preview may still show the same text for a moment)
    await admin.getByRole('log', { name: 'Messages' }).getByText('Hello Olga, this is a reminder').waitFor();
  });

  it('the composer schedules a weekly message; /settings/scheduled skips and pauses it (phone)', async () => {
    const open = '15550885678';
    expect((await rt.postWebhook(inboundText(rt.phone, open, 'Please remind me every week', { name: 'Pia Open' }))).status).toBe(200);
    await rt.idle();
    const member = await signIn(browser, rt, rt.memberEmail, PHONE);
    await member.goto(`${base()}/chats/${encodeURIComponent(`${open}@c.us`)}`);
    await member.getByTestId('thread').waitFor();
    await expect.poll(() => member.getByTestId('window-tag').textContent()).toMatch(/^Window closes in (23|24) h/);
    await member.getByTestId('composer-input').fill('Weekly check-in: anything we can help with?');
    await member.getByTestId('composer-schedule').click();
    const dialog = member.getByTestId('schedule-dialog');
    await dialog.waitFor();
    expect(await dialog.getByTestId('schedule-body').inputValue()).toBe('Weekly check-in: anything we can help with?');
    await dialog.getByTestId('schedule-date').fill('2099-01-05');
    await dialog.getByTestId('schedule-time').fill('09:30');
    await dialog.getByTestId('schedule-kind').selectOption('weekly');
    await dialog.getByLabel('Wed').check();
    await dialog.getByTestId('schedule-end').selectOption('after');
    await member.screenshot({ path: join(SHOTS, 'schedule-dialog-phone.png') });
    await dialog.getByTestId('schedule-submit').click();
    await dialog.waitFor({ state: 'detached' });

    await member.goto(`${base()}/settings/scheduled`);
    await member.getByTestId('scheduled-page').waitFor();
    const item = member.getByTestId('scheduled-item').first();
    await expect.poll(() => item.getByTestId('scheduled-summary').textContent()).toMatch(/^Every .*Wed.* at 09:30, 5 times$/);
    const next1 = await item.getByTestId('scheduled-next').textContent();
    await item.getByTestId('scheduled-skip').click();
    await expect.poll(() => item.getByTestId('scheduled-next').textContent()).not.toBe(next1);
    await item.getByTestId('scheduled-pause').click();
    await expect.poll(() => item.getAttribute('data-status')).toBe('paused');
    expect(await item.getByTestId('scheduled-pause').textContent()).toBe('Resume');
    await member.screenshot({ path: join(SHOTS, 'scheduled-phone.png') });
  });

  it('/settings/scheduled on a desktop (admin sees everyone\'s)', async () => {
    const admin = await signIn(browser, rt, rt.adminEmail, DESKTOP);
    await admin.goto(`${base()}/settings/scheduled`);
    await expect.poll(() => admin.getByTestId('scheduled-item').count()).toBeGreaterThan(0);
    await admin.screenshot({ path: join(SHOTS, 'scheduled-desktop.png') });
    await admin.goto(`${base()}/settings/templates`);
    await admin.getByTestId('templates-page').waitFor();
    await admin.setViewportSize(PHONE);
    await admin.screenshot({ path: join(SHOTS, 'templates-phone.png') });
  });
});
