import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { join } from 'node:path';
import { type Browser } from 'playwright-core';
import { DESKTOP, PHONE, SHOTS, openChat, signIn, startE2E, stopE2E, toast } from '../factories/browser.ts';
import type { TestRuntime } from '../factories/runtime.ts';
import { inboundText, newWamid } from '../../shared/whatsapp/cloud/payloads.ts';
import { DELETE_CONTACT_NOTE } from '../../shared/contact/contact.schemas.ts';

/**
 * /contacts end to end in Debian's Chromium (issue 15): contacts made by inbound messages are
 * listed (virtualized), searched, opened in the panel with their chat, edited (name, notes, a
 * custom property defined on /settings/properties), created from a typed number, and deleted
 * through a confirmation that says the messages are kept. Screenshots at 1440x900 and 390x844 go
 * to test-results/screenshots/contacts-*.png.
 */
let rt: TestRuntime;
let browser: Browser;
const base = () => rt.url.replace('localhost', '127.0.0.1');
const PEOPLE: Array<[string, string]> = [
  ['16505550911', 'Grace Hopper'],
  ['16505550912', 'Alan Turing'],
  ['16505550913', 'Ada Lovelace'],
  ['5511977776666', 'Bruna Lima'],
  ['919812300011', 'Ravi Kumar'],
];

beforeAll(async () => {
  ({ rt, browser } = await startE2E());
  const now = Math.floor(Date.now() / 1000);
  let i = 0;
  for (const [n, name] of PEOPLE) await rt.postWebhook(inboundText(rt.phone, n, `Hello from ${name}`, { name, id: newWamid(), timestampS: now - 3600 * ++i }));
  await rt.idle();
});
afterAll(() => stopE2E({ browser, rt }));

describe('/contacts in the browser', () => {
  it('lists, searches, edits, creates and deletes contacts; a property defined in settings is edited on the contact', async () => {
    const page = await signIn(browser, rt, rt.adminEmail, DESKTOP);
    // a dropdown property, defined on /settings/properties
    await page.goto(`${base()}/settings/properties`);
    await page.getByTestId('property-name').fill('Tier');
    await page.getByTestId('property-type').selectOption('dropdown');
    await page.getByTestId('property-option').last().fill('Gold');
    await page.getByTestId('property-option').last().press('Enter');
    await page.getByTestId('property-option').last().fill('Silver');
    await page.getByTestId('property-save').click();
    await page.getByTestId('property-row').filter({ hasText: 'Tier' }).waitFor();

    await page.goto(`${base()}/contacts`);
    await page.getByTestId('contact-row').first().waitFor();
    expect(await page.getByTestId('contact-row').allInnerTexts()).toHaveLength(PEOPLE.length);
    expect(await page.getByTestId('contact-row').first().locator('.contact-name').innerText()).toBe('Ada Lovelace'); // A–Z
    await page.screenshot({ path: join(SHOTS, 'contacts-list-desktop.png') });

    // search by a word of the name
    await page.getByTestId('contact-search').fill('tur');
    await expect.poll(async () => page.getByTestId('contact-row').count()).toBe(1);
    await page.getByTestId('contact-row').click();
    const panel = page.getByTestId('contact-panel');
    await panel.waitFor();
    await expect.poll(async () => panel.getByTestId('contact-chat-link').count()).toBe(1);
    await panel.getByTestId('contact-edit-name').fill('Alan (VIP)');
    await panel.getByTestId('contact-edit-notes').fill('Prefers email');
    const tier = panel.locator('[data-testid^="property-prp_"]');
    await tier.selectOption({ label: 'Gold' });
    await panel.getByTestId('contact-save').click();
    await toast(page, 'Contact saved').waitFor();
    await page.screenshot({ path: join(SHOTS, 'contacts-panel-desktop.png') });
    await page.getByTestId('contact-search').fill('gold');
    await expect.poll(async () => page.getByTestId('contact-row').allInnerTexts()).toEqual([expect.stringContaining('Alan (VIP)')]);

    // create from a typed number (read as +91)
    await page.getByTestId('contact-search').fill('');
    await page.getByTestId('contact-new').click();
    await page.getByTestId('contact-create-phone').fill('098765 43210');
    await page.getByTestId('contact-create-name').fill('Meera Iyer');
    await page.getByTestId('contact-create-submit').click();
    await page.getByTestId('contact-panel').filter({ hasText: 'Meera Iyer' }).waitFor();
    expect(await page.getByTestId('contact-phone').innerText()).toContain('91');

    // delete: the confirmation says the messages are kept
    await page.getByTestId('contact-delete').click();
    expect(await page.getByTestId('contact-delete-note').innerText()).toBe(DELETE_CONTACT_NOTE);
    await page.getByTestId('contact-delete-confirm').click();
    await toast(page, 'Contact deleted').waitFor();
    await expect.poll(async () => (await page.getByTestId('contact-row').allInnerTexts()).some((t) => t.includes('Meera'))).toBe(false);
    await page.context().close();
  });

  it('edits a chat’s custom properties in its details panel', async () => {
    const page = await signIn(browser, rt, rt.adminEmail, DESKTOP);
    await openChat(page, `${PEOPLE[0]![0]}@c.us`);
    const section = page.getByTestId('chat-properties');
    if (!(await section.isVisible())) await page.getByTestId('chat-details-toggle').click();
    await section.waitFor();
    await section.locator('[data-testid^="property-prp_"]').selectOption({ label: 'Silver' });
    await section.getByTestId('chat-properties-save').click();
    await toast(page, 'Properties saved').waitFor();
    await page.screenshot({ path: join(SHOTS, 'contacts-chat-properties-desktop.png') });

    // relabel the option in settings: the option keeps its id, so the chat keeps its value
    await page.goto(`${base()}/settings/properties`);
    await page.getByRole('button', { name: 'Edit Tier' }).click();
    const form = page.getByTestId('property-edit-form');
    const inputs = form.getByTestId('property-option');
    await inputs.first().waitFor();
    const labels = await inputs.evaluateAll((els) => els.map((el) => (el as HTMLInputElement).value));
    await inputs.nth(labels.indexOf('Silver')).fill('Platinum');
    await page.screenshot({ path: join(SHOTS, 'properties-relabel-desktop.png') });
    await form.getByTestId('property-save').click();
    await page.getByTestId('property-row').filter({ hasText: 'Platinum' }).waitFor();
    await page.goto(`${base()}/chats`);
    await openChat(page, `${PEOPLE[0]![0]}@c.us`);
    const select = page.getByTestId('chat-properties').locator('[data-testid^="property-prp_"]');
    await expect.poll(async () => select.evaluate((s: HTMLSelectElement) => s.selectedOptions[0]?.textContent ?? '')).toBe('Platinum');

    // removing an option: its values are cleared in the background, with progress on the settings page
    await page.goto(`${base()}/settings/properties`);
    await page.getByRole('button', { name: 'Edit Tier' }).click();
    await page.getByTestId('property-edit-form').getByRole('button', { name: 'Remove option Platinum' }).click();
    await page.getByTestId('property-edit-form').getByTestId('property-save').click();
    const cleanup = page.getByTestId('property-cleanup');
    await cleanup.waitFor();
    await expect.poll(async () => cleanup.locator('h2').textContent(), { timeout: 30_000 }).toBe('Cleared: the removed options of Tier');
    await page.screenshot({ path: join(SHOTS, 'properties-cleanup-desktop.png') });
    await page.getByTestId('property-cleanup-dismiss').click();
    expect(await cleanup.count()).toBe(0);
    await page.context().close();
  });

  it('works one pane at a time on a phone', async () => {
    const page = await signIn(browser, rt, rt.adminEmail, PHONE);
    await page.goto(`${base()}/contacts`);
    await page.getByTestId('contact-row').first().waitFor();
    await page.screenshot({ path: join(SHOTS, 'contacts-list-phone.png') });
    await page.getByTestId('contact-row').first().click();
    await page.getByTestId('contact-panel').waitFor();
    expect(await page.getByTestId('contact-list').count()).toBe(0);
    await page.screenshot({ path: join(SHOTS, 'contacts-panel-phone.png') });
    await page.getByTestId('contact-close').click();
    await page.getByTestId('contact-list').waitFor();
    // the property settings with the option rows fit a phone
    await page.goto(`${base()}/settings/properties`);
    await page.getByRole('button', { name: 'Edit Tier' }).click();
    await page.getByTestId('property-edit-form').getByTestId('property-option').first().waitFor();
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(PHONE.width);
    await page.screenshot({ path: join(SHOTS, 'properties-edit-phone.png') });
    await page.context().close();
  });
});
