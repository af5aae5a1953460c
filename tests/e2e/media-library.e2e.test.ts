import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { join } from 'node:path';
import sharp from 'sharp';
import { type Browser, type Page } from 'playwright-core';
import { DESKTOP, PHONE, SHOTS, launchChromium, signIn as signInAs, openChat, toast } from '../factories/browser.ts';
import { startTestRuntime, type TestRuntime } from '../factories/runtime.ts';
import { inboundImage, inboundMedia, newWamid } from '../../shared/whatsapp/cloud/payloads.ts';
import { eventually } from '../factories/wait.ts';

/**
 * The media library and the viewer's carousel end to end, in Debian's Chromium: two inbound
 * images and a document -> /media shows 3, Images shows 2, one opens in the viewer and → goes to
 * the next; the document downloads with the spec's toast; a chat bubble's viewer walks the chat's
 * files. Screenshots (desktop 1440x900, phone 390x844) go to test-results/screenshots.
 */
let rt: TestRuntime;
let browser: Browser;
let adminToken: string;

const A = '16505550501';
const B = '16505550502';
const chatA = `${A}@c.us`;
const now = Math.floor(Date.now() / 1000);

const signIn = (email: string, viewport = DESKTOP): Promise<Page> => signInAs(browser, rt, email, viewport, { touch: true });
const photo = (bg: string) => sharp({ create: { width: 1200, height: 800, channels: 3, background: bg } }).jpeg().toBuffer();
const gotoMedia = async (page: Page) => {
  await page.getByRole('link', { name: 'Media' }).first().click();
  await page.getByTestId('media-page').waitFor();
};

beforeAll(async () => {
  rt = await startTestRuntime();
  browser = await launchChromium();
  adminToken = await rt.signIn(rt.adminEmail);
  rt.graph.addMedia('lib-e2e-img-a', await photo('#4a90d9'), 'image/jpeg');
  rt.graph.addMedia('lib-e2e-img-b', await photo('#f5a623'), 'image/jpeg');
  rt.graph.addMedia('lib-e2e-doc', Buffer.from('%PDF-1.4\n1 0 obj <<>> endobj\ntrailer <<>>\n%%EOF\n'), 'application/pdf');
  const posts = [
    inboundImage(rt.phone, A, { id: 'lib-e2e-img-a', caption: 'Blue sample' }, { id: newWamid(), name: 'Grace Hopper', timestampS: now - 300 }),
    inboundImage(rt.phone, B, { id: 'lib-e2e-img-b', caption: 'Orange sample' }, { id: newWamid(), name: 'Alan Turing', timestampS: now - 200 }),
    inboundMedia(rt.phone, A, 'document', { id: 'lib-e2e-doc', mime_type: 'application/pdf', filename: 'price-list.pdf' }, { id: newWamid(), name: 'Grace Hopper', timestampS: now - 100 }),
  ];
  for (const body of posts) expect((await rt.postWebhook(body)).status).toBe(200);
  await eventually(async () => {
    const r = await rt.api(adminToken, `/api/orgs/${rt.orgId}/media`);
    return ((await r.json()) as { items: unknown[] }).items.length === 3;
  }, 30_000, 'three files in the library');
});
afterAll(async () => {
  await browser?.close();
  await rt?.cleanup();
});

describe('media library in the browser', () => {
  it('lists, filters, opens a carousel and downloads with the spec’s toast', async () => {
    const page = await signIn(rt.adminEmail);
    await gotoMedia(page);
    const tiles = page.getByTestId('media-tile');
    await expect.poll(() => tiles.count(), { timeout: 15_000 }).toBe(3);
    await page.locator('[data-testid="media-tile"][data-type="image"] img').first().waitFor();
    await page.screenshot({ path: join(SHOTS, 'media-library-desktop.png') });

    // Images: the two photos, newest first
    await page.getByTestId('media-type-image').click();
    await expect.poll(() => tiles.count(), { timeout: 10_000 }).toBe(2);
    expect(await tiles.evaluateAll((els) => els.map((e) => e.getAttribute('data-type')))).toEqual(['image', 'image']);

    // open the first; → shows the next one
    await tiles.first().click();
    const viewer = page.getByTestId('media-viewer');
    await viewer.waitFor();
    await expect.poll(() => viewer.locator('img').evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth), { timeout: 10_000 }).toBe(1200);
    expect(await viewer.getAttribute('data-index')).toBe('0');
    expect(await viewer.getByTestId('media-viewer-position').textContent()).toContain('1 of 2');
    expect(await viewer.getByTestId('media-viewer-prev').isDisabled()).toBe(true);
    const first = await viewer.getAttribute('data-unique-id');
    await page.keyboard.press('ArrowRight');
    await expect.poll(() => viewer.getAttribute('data-index')).toBe('1');
    expect(await viewer.getAttribute('data-unique-id')).not.toBe(first);
    await expect.poll(() => viewer.locator('img').evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth), { timeout: 10_000 }).toBe(1200);
    expect(await viewer.getByTestId('media-viewer-next').isDisabled()).toBe(true);
    await page.screenshot({ path: join(SHOTS, 'media-library-viewer-desktop.png') });
    await page.keyboard.press('ArrowLeft');
    await expect.poll(() => viewer.getAttribute('data-index')).toBe('0');
    await page.keyboard.press('Escape');
    await viewer.waitFor({ state: 'detached' });

    // Documents: the PDF, downloaded from the viewer with the toast
    await page.getByTestId('media-type-document').click();
    await expect.poll(() => tiles.count(), { timeout: 10_000 }).toBe(1);
    expect(await tiles.first().textContent()).toContain('price-list.pdf');
    await tiles.first().click();
    await viewer.getByTestId('media-viewer-document').waitFor();
    const [download] = await Promise.all([page.waitForEvent('download'), viewer.getByTestId('media-viewer-document-download').click()]);
    expect(download.suggestedFilename()).toBe('price-list.pdf');
    await toast(page, 'Media downloaded successfully!').waitFor({ timeout: 10_000 });
    await page.keyboard.press('Escape');

    // the chat filter (searchable): Grace Hopper's chat has the blue photo and the PDF
    await page.getByTestId('media-type-all').click();
    await page.getByTestId('media-chat').click();
    await page.getByTestId('media-chat-search').fill('grace');
    await page.getByRole('option', { name: 'Grace Hopper' }).click();
    await expect.poll(() => tiles.count(), { timeout: 10_000 }).toBe(2);
    expect(await tiles.evaluateAll((els) => els.map((e) => e.getAttribute('data-type')))).toEqual(['document', 'image']);
    await page.context().close();
  });

  it('a chat bubble opens a carousel over the chat’s files', async () => {
    const page = await signIn(rt.adminEmail);
    const thread = await openChat(page, chatA);
    const image = thread.locator('[data-testid="message"]').filter({ hasText: 'Blue sample' });
    await image.locator('[data-testid="media"][data-state="stored"] img').waitFor({ timeout: 30_000 });
    await image.getByTestId('media-thumb').click();
    const viewer = page.getByTestId('media-viewer');
    await viewer.waitFor();
    // oldest on the left: the photo first, then the PDF
    await expect.poll(() => viewer.getAttribute('data-count'), { timeout: 10_000 }).toBe('2');
    expect(await viewer.getAttribute('data-index')).toBe('0');
    await viewer.getByTestId('media-viewer-next').click();
    await viewer.getByTestId('media-viewer-document').waitFor();
    await page.keyboard.press('Escape');
    await viewer.waitFor({ state: 'detached' });
    await page.context().close();
  });

  it('fits a phone (390x844): grid, filters and the viewer', async () => {
    const phone = await signIn(rt.adminEmail, PHONE);
    await phone.goto(`${rt.url.replace('localhost', '127.0.0.1')}/media`);
    await phone.getByTestId('media-page').waitFor();
    const tiles = phone.getByTestId('media-tile');
    await expect.poll(() => tiles.count(), { timeout: 15_000 }).toBe(3);
    await phone.locator('[data-testid="media-tile"][data-type="image"] img').first().waitFor();
    // nothing wider than the screen
    expect(await phone.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    await phone.screenshot({ path: join(SHOTS, 'media-library-phone.png') });
    await tiles.first().click();
    await phone.getByTestId('media-viewer').waitFor();
    await phone.screenshot({ path: join(SHOTS, 'media-library-viewer-phone.png') });
    await phone.context().close();
  });
});
