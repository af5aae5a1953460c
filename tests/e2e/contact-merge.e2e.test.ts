import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { join } from 'node:path';
import { type Browser } from 'playwright-core';
import { DESKTOP, PHONE, SHOTS, signIn, startE2E, stopE2E, toast } from '../factories/browser.ts';
import type { TestRuntime } from '../factories/runtime.ts';
import { inboundText, newWamid } from '../../shared/whatsapp/cloud/payloads.ts';
import { MERGE_CONTACT_NOTE } from '../../shared/contact/contact.schemas.ts';

/**
 * Merge and unmerge in the contact panel, in Debian's Chromium (issue 15 item 2): find the other
 * contact, read the confirmation, merge (the list shows one contact with both numbers and both
 * chats), then unmerge (both back). Screenshots at 1440x900 and 390x844: contacts-merge-*.png.
 */
let rt: TestRuntime;
let browser: Browser;
const base = () => rt.url.replace('localhost', '127.0.0.1');
const A = '16505550701';
const B = '16505550702';

beforeAll(async () => {
  ({ rt, browser } = await startE2E());
  const now = Math.floor(Date.now() / 1000);
  await rt.postWebhook(inboundText(rt.phone, A, 'Hi from my phone', { name: 'Grace Hopper', id: newWamid(), timestampS: now - 600 }));
  await rt.postWebhook(inboundText(rt.phone, B, 'Hi from my work phone', { name: 'Grace (work)', id: newWamid(), timestampS: now - 300 }));
  await rt.idle();
});
afterAll(() => stopE2E({ browser, rt }));

describe('merge and unmerge contacts in the browser', () => {
  it('merges two contacts after a confirmation that says what happens, then unmerges them', async () => {
    const page = await signIn(browser, rt, rt.adminEmail, DESKTOP);
    await page.goto(`${base()}/contacts`);
    await page.getByTestId('contact-row').first().waitFor();
    await expect.poll(async () => page.getByTestId('contact-row').count(), { timeout: 15_000 }).toBe(2);
    await page.getByTestId('contact-row').filter({ hasText: 'Grace Hopper' }).click();
    const panel = page.getByTestId('contact-panel');
    await panel.waitFor();
    await panel.getByTestId('contact-merge-open').click();
    const dialog = page.getByTestId('contact-merge-dialog');
    await dialog.getByTestId('contact-merge-search').fill('work');
    await dialog.getByTestId('contact-merge-option').filter({ hasText: 'Grace (work)' }).click();
    expect(await dialog.getByTestId('contact-merge-note').innerText()).toBe(MERGE_CONTACT_NOTE);
    await page.screenshot({ path: join(SHOTS, 'contacts-merge-confirm-desktop.png') });
    await dialog.getByTestId('contact-merge-confirm').click();
    await toast(page, 'Grace (work) merged into Grace Hopper').waitFor();
    await expect.poll(async () => page.getByTestId('contact-row').count(), { timeout: 15_000 }).toBe(1);
    await expect.poll(async () => panel.getByTestId('contact-chat-link').count(), { timeout: 15_000 }).toBe(2);
    expect(await panel.getByTestId('contact-phone').innerText()).toMatch(/0701.*0702/);
    await panel.getByTestId('contact-merged-row').waitFor();
    await page.screenshot({ path: join(SHOTS, 'contacts-merged-desktop.png') });

    // unmerge asks first, then both are back
    await panel.getByTestId('contact-unmerge').click();
    await page.getByTestId('contact-unmerge-dialog').waitFor();
    await page.getByTestId('contact-unmerge-dialog-confirm').click();
    await toast(page, 'Grace (work) unmerged').waitFor();
    await expect.poll(async () => page.getByTestId('contact-row').count(), { timeout: 15_000 }).toBe(2);
    await expect.poll(async () => panel.getByTestId('contact-chat-link').count(), { timeout: 15_000 }).toBe(1);
    await page.close();
  });

  it('shows the merge dialog on a phone', async () => {
    const page = await signIn(browser, rt, rt.adminEmail, PHONE);
    await page.goto(`${base()}/contacts`);
    await page.getByTestId('contact-row').filter({ hasText: 'Grace Hopper' }).click();
    await page.getByTestId('contact-panel').getByTestId('contact-merge-open').click();
    await page.getByTestId('contact-merge-search').fill('grace');
    await page.getByTestId('contact-merge-option').first().waitFor();
    await page.screenshot({ path: join(SHOTS, 'contacts-merge-phone.png') });
    await page.close();
  });
});
