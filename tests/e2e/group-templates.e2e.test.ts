import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { join } from 'node:path';
import sharp from 'sharp';
import { type Browser } from 'playwright-core';
import { DESKTOP, PHONE, SHOTS, signIn, startE2E, stopE2E } from '../factories/browser.ts';
import type { TestRuntime } from '../factories/runtime.ts';
import { linkWaWebNumber } from '../factories/wa-web.ts';

/**
 * Group templates end to end in Debian's Chromium (issue 15 item 6): an admin saves a template on
 * /settings/group-templates (name, description, an uploaded picture, both admin-only settings),
 * then "Create group" on the WhatsApp Web number with two contacts picked by search; the session
 * worker creates the group on the stand-in, the dialog says so, and the group chat opens in the
 * inbox under the template's name. Screenshots: test-results/screenshots/group-templates-*.png.
 */
let rt: TestRuntime;
let browser: Browser;
let adminToken: string;
const base = () => rt.url.replace('localhost', '127.0.0.1');
const WEB_PHONE = 'waweb_e2e_groups';

beforeAll(async () => {
  ({ rt, browser, adminToken } = await startE2E());
  await linkWaWebNumber(rt, WEB_PHONE, '15550004242');
  for (const [phone, name] of [['+91 98000 11111', 'Asha Rao'], ['+91 98000 22222', 'Bilal Khan']]) {
    expect((await rt.orgCall(adminToken, 'POST', '/contacts', { phone, name })).status).toBe(201);
  }
}, 180_000);
afterAll(() => stopE2E({ browser, rt }));

describe('group templates in the browser', () => {
  it('saves a template with a picture and admin-only settings, creates a group from it, and the group chat appears', async () => {
    const page = await signIn(browser, rt, rt.adminEmail, DESKTOP);
    await page.goto(`${base()}/settings/group-templates`);
    await page.getByText('No group templates yet').waitFor();
    await page.getByTestId('gt-name').fill('Launch club');
    await page.getByTestId('gt-description').fill('First news about our launches.');
    const png = await sharp({ create: { width: 96, height: 96, channels: 3, background: { r: 0, g: 128, b: 105 } } }).png().toBuffer();
    await page.getByTestId('gt-picture-upload').setInputFiles({ name: 'club.png', mimeType: 'image/png', buffer: png });
    await page.getByText('club.png').waitFor();
    await page.getByTestId('gt-only-admins-send').check();
    await page.getByTestId('gt-only-admins-edit').check();
    await page.getByTestId('gt-save').click();
    const row = page.locator('[data-testid="gt-row"][data-name="Launch club"]');
    await row.waitFor();
    await expect.poll(() => row.textContent()).toContain('Only admins send');
    await expect.poll(() => row.locator('img').evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth)).toBe(96);
    await page.screenshot({ path: join(SHOTS, 'group-templates-desktop.png') });

    await row.getByTestId('gt-create-group').click();
    const dialog = page.getByTestId('gt-create-dialog');
    await expect.poll(() => dialog.getByTestId('gt-phone').inputValue()).toBe(WEB_PHONE);
    for (const who of ['Asha', 'Bilal']) {
      await dialog.getByTestId('gt-participant-search').fill(who);
      await dialog.getByTestId('gt-result').filter({ hasText: who }).click();
    }
    await expect.poll(() => dialog.getByTestId('gt-chosen').count()).toBe(2);
    await page.screenshot({ path: join(SHOTS, 'group-templates-create-desktop.png') });
    await dialog.getByTestId('gt-create-confirm').click();
    await dialog.locator('[data-testid="gt-create-status"][data-status="created"]').waitFor({ timeout: 20_000 });
    await page.screenshot({ path: join(SHOTS, 'group-templates-created-desktop.png') });

    const created = [...rt.waWeb.created.values()].find((g) => g.subject === 'Launch club')!;
    expect(created.participants.sort()).toEqual(['919800011111@s.whatsapp.net', '919800022222@s.whatsapp.net']);
    expect(created.settings).toEqual(['announcement', 'locked']);
    expect(created.picture?.length).toBe(png.length);

    await dialog.getByTestId('gt-open-chat').click();
    await page.waitForURL((u) => decodeURIComponent(u.pathname).includes(created.jid));
    await page.locator(`[data-testid="chat-row"][data-chat-id="${created.jid}"]`).filter({ hasText: 'Launch club' }).waitFor({ timeout: 20_000 });
    await page.getByTestId('thread').getByText('Group “Launch club” created').waitFor({ timeout: 20_000 });
    await page.screenshot({ path: join(SHOTS, 'group-templates-chat-desktop.png') });
    await page.close();
  });

  it('fits a phone screen', async () => {
    const page = await signIn(browser, rt, rt.adminEmail, PHONE);
    await page.goto(`${base()}/settings/group-templates`);
    await page.locator('[data-testid="gt-row"][data-name="Launch club"]').waitFor();
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    await page.screenshot({ path: join(SHOTS, 'group-templates-phone.png'), fullPage: true });
    await page.close();
  });
});
