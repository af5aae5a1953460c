/**
 * `npx tsx scripts/screenshots.ts [theme…]`: screenshots of the main screens for a person to look
 * at — /chats, an open thread (with the assignee picker and a dialog on desktop), /tickets, /list,
 * /media and /settings/preferences at desktop
 * (1440x900) and phone (390x844) sizes, in the light and dark themes — into
 * test-results/screenshots/ui-<screen>-<size>-<theme>.png. Starts the test runtime with a few chats
 * (texts, an image, a document) and signs in as the demo admin like the e2e tests do. Needs
 * `npm run build:web` first.
 */
import { join } from 'node:path';
import sharp from 'sharp';
import type { Page } from 'playwright-core';
import { DESKTOP, PHONE, SHOTS, launchChromium, signIn } from '../tests/factories/browser.ts';
import { startTestRuntime } from '../tests/factories/runtime.ts';
import { inboundImage, inboundMedia, inboundText, newWamid } from '../shared/whatsapp/cloud/payloads.ts';

const themes = (process.argv.slice(2).filter((a) => a === 'light' || a === 'dark') as Array<'light' | 'dark'>).length
  ? (process.argv.slice(2) as Array<'light' | 'dark'>)
  : (['light', 'dark'] as const);

const rt = await startTestRuntime();
const browser = await launchChromium();
try {
  const now = Math.floor(Date.now() / 1000);
  const A = '16505550901';
  const B = '16505550902';
  const C = '16505550903';
  rt.graph.addMedia('shot-img', await sharp({ create: { width: 1200, height: 800, channels: 3, background: '#4a90d9' } }).jpeg().toBuffer(), 'image/jpeg');
  rt.graph.addMedia('shot-doc', Buffer.from('%PDF-1.4\n1 0 obj <<>> endobj\ntrailer <<>>\n%%EOF\n'), 'application/pdf');
  const posts = [
    inboundText(rt.phone, B, 'Do you ship to Pune?', { name: 'Alan Turing', timestampS: now - 900 }),
    inboundText(rt.phone, C, 'Thanks, all sorted!', { name: 'Ada Lovelace', timestampS: now - 800 }),
    inboundText(rt.phone, A, 'Hello, where is my order #4411?', { name: 'Grace Hopper', timestampS: now - 600 }),
    inboundImage(rt.phone, A, { id: 'shot-img', caption: 'This is the parcel I got' }, { id: newWamid(), name: 'Grace Hopper', timestampS: now - 500 }),
    inboundMedia(rt.phone, A, 'document', { id: 'shot-doc', mime_type: 'application/pdf', filename: 'invoice.pdf' }, { id: newWamid(), name: 'Grace Hopper', timestampS: now - 400 }),
    inboundText(rt.phone, A, 'It arrived damaged, the box was open.', { name: 'Grace Hopper', timestampS: now - 300 }),
  ];
  for (const body of posts) await rt.postWebhook(body);
  await rt.idle();

  const shoot = async (page: Page, name: string, size: string, theme: string) => {
    await page.waitForTimeout(700);
    await page.screenshot({ path: join(SHOTS, `ui-${name}-${size}-${theme}.png`) });
  };
  for (const theme of themes) {
    for (const [size, viewport] of [
      ['desktop', DESKTOP],
      ['phone', PHONE],
    ] as const) {
      const page = await signIn(browser, rt, rt.adminEmail, viewport);
      await page.evaluate((t) => {
        localStorage.setItem('chorus.theme', t);
        document.documentElement.dataset.theme = t;
      }, theme);
      const base = rt.url.replace('localhost', '127.0.0.1');
      await page.locator('[data-testid="chat-row"]').first().waitFor({ timeout: 15_000 });
      await shoot(page, 'chats', size, theme);
      await page.locator(`[data-testid="chat-row"][data-chat-id="${A}@c.us"]`).click();
      await page.getByTestId('thread').getByTestId('message').first().waitFor({ timeout: 15_000 });
      await shoot(page, 'thread', size, theme);
      if (size === 'desktop') {
        await page.getByTestId('chat-assign').click();
        await shoot(page, 'thread-assign', size, theme);
        await page.keyboard.press('Escape');
        await page.getByTestId('chat-more').click();
        await page.getByTestId('chat-action-access').click();
        await page.getByTestId('chat-access-dialog').waitFor();
        await shoot(page, 'dialog', size, theme);
        await page.keyboard.press('Escape');
      }
      for (const [name, path] of [
        ['tickets', '/tickets'],
        ['list', '/list'],
        ['media', '/media'],
        ['settings', '/settings/preferences'],
        // issue 19
        ['dashboard', '/dashboard'],
        ['analytics', '/analytics'],
        ['logs', '/logs'],
      ] as const) {
        await page.goto(`${base}${path}`);
        await page.locator('[data-testid="socket-status"]').waitFor({ state: 'attached', timeout: 20_000 }).catch(() => undefined);
        await page.waitForTimeout(1200);
        await shoot(page, name, size, theme);
      }
      await page.context().close();
    }
  }
  console.log(`screenshots in ${SHOTS}`);
} finally {
  await browser.close();
  await rt.cleanup();
}
