import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { join } from 'node:path';
import type { Browser } from 'playwright-core';
import { PHONE, SHOTS, signIn, startE2E, stopE2E } from '../factories/browser.ts';
import type { TestRuntime } from '../factories/runtime.ts';
import { inboundText } from '../../shared/whatsapp/cloud/payloads.ts';
import { db } from '../../shared/db/service.ts';
import sharp from 'sharp';

/**
 * Broadcasts in Debian's Chromium (issue 16 part B): an admin picks 3 chats on /broadcast, writes
 * a message with {{name}}, previews it (the text filled per recipient, the opted-out customer
 * counted), sends it and watches it finish with its stats and per-recipient log; the Graph API
 * stand-in received one message per recipient. Then a second broadcast with a file uploaded from the
 * computer ("Upload from computer"): a wrong type and a too-large file are refused in plain words, the
 * picture is uploaded with its name and size shown, and every recipient gets it once with the text as
 * caption (one Graph API upload for the number). Screenshots of the create flow, the attached upload
 * and the detail at 1440×900, and the phone's desktop-only notice at 390×844 (app/shell/nav.ts MOBILE_UNAVAILABLE).
 */
let rt: TestRuntime;
let browser: Browser;
const CUSTOMERS = [
  ['15550003001', 'Asha'],
  ['15550003002', 'Bruno'],
  ['15550003003', 'Chen'],
  ['15550003004', 'Dora'],
] as const;

beforeAll(async () => {
  ({ rt, browser } = await startE2E());
  for (const [n, name] of CUSTOMERS) await rt.postWebhook(inboundText(rt.phone, n, n.endsWith('4') ? 'STOP' : `Hello from ${name}`, { name }));
  await rt.idle();
}, 120_000);
afterAll(() => stopE2E({ browser, rt }));

describe('/broadcast in the browser', () => {
  it('creates a broadcast to 3 chats and watches it finish with stats', async () => {
    const page = await signIn(browser, rt, rt.adminEmail);
    const base = rt.url.replace('localhost', '127.0.0.1');
    await page.goto(`${base}/broadcast`);
    await page.getByTestId('broadcast-page').waitFor();
    await page.getByTestId('broadcast-credits').waitFor();
    await page.getByTestId('broadcast-new').click();
    const create = page.getByTestId('broadcast-create');
    for (const name of ['Asha', 'Bruno', 'Dora']) await create.getByRole('checkbox', { name }).check();
    await create.getByTestId('broadcast-name').fill('Spring sale');
    await create.getByTestId('broadcast-body').fill('Hi {{name}}, *20% off* this week.');
    await create.getByTestId('broadcast-preview').click();
    const preview = create.getByTestId('broadcast-preview-result');
    await preview.waitFor();
    expect(await preview.textContent()).toContain('2 of 3 will get it. 1 opted out.');
    expect(await preview.textContent()).toContain('Hi Asha, *20% off* this week.');
    await page.screenshot({ path: join(SHOTS, 'broadcast-create-desktop.png'), fullPage: true });
    // a third one that can receive it
    await create.getByRole('checkbox', { name: 'Chen' }).check();
    await create.getByTestId('broadcast-send').click();
    const detail = page.getByTestId('broadcast-detail');
    await detail.waitFor();
    await expect.poll(async () => detail.getByTestId('broadcast-status').textContent(), { timeout: 60_000 }).toBe('Completed');
    expect(await detail.locator('[data-stat="sent"] strong').textContent()).toBe('3');
    expect(await detail.locator('[data-stat="skipped"] strong').textContent()).toBe('1');
    await detail.getByTestId('recipient-log').locator('tbody tr').nth(3).waitFor();
    await page.screenshot({ path: join(SHOTS, 'broadcast-detail-desktop.png'), fullPage: true });
    await detail.getByTestId('recipient-filter').selectOption('skipped');
    await expect.poll(async () => detail.getByTestId('recipient-log').locator('tbody tr').count(), { timeout: 10_000 }).toBe(1);
    // WhatsApp (the stand-in) got one message per recipient, with the name filled in
    await rt.idle();
    for (const [n, name] of CUSTOMERS.slice(0, 3)) {
      const sent = rt.graph.sent.filter((r) => r.wamid && (r.body as { to?: string }).to === n);
      expect(sent).toHaveLength(1);
      expect((sent[0]!.body as { text: { body: string } }).text.body).toBe(`Hi ${name}, *20% off* this week.`);
    }
    expect(rt.graph.sent.filter((r) => (r.body as { to?: string }).to === CUSTOMERS[3][0])).toHaveLength(0);
    const rows = (await db().entities.broadcast.query.byId({ org_id: rt.orgId }).go()).data;
    expect(rows).toHaveLength(1);

    await page.goto(`${base}/broadcast`);
    await page.getByTestId('broadcast-row').first().waitFor();
    await page.screenshot({ path: join(SHOTS, 'broadcast-desktop.png') });

    const phone = await signIn(browser, rt, rt.adminEmail, PHONE);
    await phone.goto(`${base}/broadcast`);
    await phone.getByTestId('unavailable-on-mobile').waitFor();
    await phone.screenshot({ path: join(SHOTS, 'broadcast-phone.png') });
  }, 240_000);

  it('lists the run on the /logs Broadcasts tab with its counts, filters by status and opens it', async () => {
    const page = await signIn(browser, rt, rt.adminEmail);
    const base = rt.url.replace('localhost', '127.0.0.1');
    await page.goto(`${base}/logs`);
    await page.getByTestId('logs-tab-broadcasts').click();
    const tab = page.getByTestId('broadcasts-tab');
    const row = tab.getByTestId('broadcast-log-row');
    await row.first().waitFor({ timeout: 15_000 });
    expect(await row.count()).toBe(1);
    expect(await row.getAttribute('data-status')).toBe('completed');
    expect(await row.getByTestId('broadcast-log-counts').textContent()).toMatch(/^3 sent · \d delivered · \d read · 0 replied1 skipped of 4$/);
    await page.screenshot({ path: join(SHOTS, 'logs-broadcasts-desktop.png') });
    await tab.getByTestId('broadcasts-status').selectOption('running');
    await tab.getByTestId('log-empty').waitFor();
    await tab.getByTestId('broadcasts-status').selectOption('completed');
    await row.getByRole('link', { name: 'Spring sale' }).click();
    await page.getByTestId('broadcast-detail').waitFor();
    expect(await page.getByTestId('broadcast-status').textContent()).toBe('Completed');
  }, 120_000);

  it('sends a picture uploaded from the computer to each recipient once, refusing a wrong type and a too-large file', async () => {
    const page = await signIn(browser, rt, rt.adminEmail);
    const base = rt.url.replace('localhost', '127.0.0.1');
    await page.goto(`${base}/broadcast`);
    await page.getByTestId('broadcast-new').click();
    const create = page.getByTestId('broadcast-create');
    for (const name of ['Asha', 'Bruno', 'Chen']) await create.getByRole('checkbox', { name }).check();
    await create.getByTestId('broadcast-name').fill('New photos');
    await create.getByTestId('broadcast-body').fill('Hi {{name}}, our new range');
    const input = create.getByTestId('broadcast-upload-input');
    const error = create.getByTestId('broadcast-upload-error');
    await input.setInputFiles({ name: 'party.gif', mimeType: 'image/gif', buffer: Buffer.from('GIF89a') });
    await expect.poll(async () => error.textContent()).toContain('party.gif is not a file type WhatsApp can send');
    await input.setInputFiles({ name: 'huge.png', mimeType: 'image/png', buffer: Buffer.alloc(5 * 1024 * 1024 + 10, 1) });
    await expect.poll(async () => error.textContent()).toBe('huge.png is larger than WhatsApp allows (5 MB for images).');
    await error.scrollIntoViewIfNeeded();
    await page.screenshot({ path: join(SHOTS, 'broadcast-upload-error-desktop.png'), fullPage: true });
    const photo = await sharp({ create: { width: 320, height: 200, channels: 3, background: { r: 240, g: 140, b: 30 } } }).png().toBuffer();
    const uploadsBefore = rt.graph.uploads.length;
    // the PUT to the blob store is held until the progress is seen (and photographed), then let through
    let release!: () => void;
    const held = new Promise<void>((r) => (release = r));
    await page.route('**/media-upload/**', async (route) => (await held, route.continue()));
    await input.setInputFiles({ name: 'new-range.png', mimeType: 'image/png', buffer: photo });
    const progress = create.getByTestId('broadcast-upload-progress');
    await progress.waitFor();
    expect(await progress.textContent()).toContain('Uploading new-range.png');
    expect(await progress.getByRole('button', { name: 'Cancel upload' }).count()).toBe(1);
    expect(await create.getByTestId('broadcast-send').isDisabled()).toBe(true); // sending waits for the file
    await progress.scrollIntoViewIfNeeded();
    await page.screenshot({ path: join(SHOTS, 'broadcast-upload-progress-desktop.png'), fullPage: true });
    release();
    const attached = create.getByTestId('broadcast-file');
    await attached.waitFor();
    expect(await attached.textContent()).toContain('new-range.png');
    expect(await attached.textContent()).toContain('from your computer');
    expect(await error.count()).toBe(0);
    await create.getByTestId('broadcast-preview').click();
    await create.getByTestId('broadcast-preview-result').waitFor();
    await page.screenshot({ path: join(SHOTS, 'broadcast-upload-desktop.png'), fullPage: true });
    await create.getByTestId('broadcast-send').click();
    const detail = page.getByTestId('broadcast-detail');
    await detail.waitFor();
    await expect.poll(async () => detail.getByTestId('broadcast-status').textContent(), { timeout: 60_000 }).toBe('Completed');
    expect(await detail.textContent()).toContain('With a file uploaded from the computer');
    await rt.idle();
    const uploads = rt.graph.uploads.slice(uploadsBefore);
    expect(uploads).toHaveLength(1);
    expect(Buffer.compare(uploads[0]!.bytes, photo)).toBe(0);
    for (const [n, name] of CUSTOMERS.slice(0, 3)) {
      const images = rt.graph.sent.filter((r) => r.wamid && (r.body as { to?: string; type?: string }).to === n && (r.body as { type?: string }).type === 'image');
      expect(images).toHaveLength(1);
      expect(images[0]!.body).toMatchObject({ image: { id: uploads[0]!.id, caption: `Hi ${name}, our new range` } });
    }
    await page.screenshot({ path: join(SHOTS, 'broadcast-upload-detail-desktop.png'), fullPage: true });
  }, 240_000);
});
