import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { join } from 'node:path';
import { type Browser } from 'playwright-core';
import { PHONE, SHOTS, signIn, startE2E, stopE2E } from '../factories/browser.ts';
import type { TestRuntime } from '../factories/runtime.ts';
import { inboundText } from '../../shared/whatsapp/cloud/payloads.ts';
import { MOBILE_UNAVAILABLE } from '../../web/src/app/shell/nav.ts';

/**
 * The phone layout (issue 21, spec §2) at 390×844 in Debian's Chromium, as the demo admin (who
 * may open every page): each page either fits the width (no sideways scrolling of the document)
 * or shows the unavailable-on-mobile screen whose button goes to chats; the bottom tab bar
 * (Dashboard, Chats, Tickets) is there on those three paths only, not in an open chat.
 * A screenshot of each page goes to test-results/screenshots/phone-<page>.png for a person to look at.
 */
let rt: TestRuntime;
let browser: Browser;
const FROM = '919833300001';

const PAGES = [
  '/dashboard', '/chats', `/chats/${FROM}@c.us`, '/tickets', '/analytics', '/list', '/broadcast', '/rules', '/ai', '/contacts', '/media', '/logs',
  '/settings', '/settings/preferences', '/settings/notifications', '/settings/phones', '/settings/team', '/settings/labels', '/settings/tickets', '/settings/permissions', '/settings/general',
  '/workspaces/new',
];
const TABS = new Set(['/dashboard', '/chats', '/tickets']);

beforeAll(async () => {
  ({ rt, browser } = await startE2E());
  expect((await rt.postWebhook(inboundText(rt.phone, FROM, 'Hello from a phone test', { name: 'Meera' }))).status).toBe(200);
  await rt.idle();
}, 120_000);
afterAll(() => stopE2E({ browser, rt }));

describe('phone layout (390×844)', () => {
  it('every page fits a phone or says it is unavailable on mobile; the tab bar is on Dashboard, Chats and Tickets only', async () => {
    const page = await signIn(browser, rt, rt.adminEmail, PHONE, { touch: true });
    const origin = new URL(page.url()).origin;
    const problems: string[] = [];
    for (const path of PAGES) {
      await page.goto(`${origin}${path}`);
      // the page's lazy chunk has loaded: the shell's main area holds something other than the spinner
      await page.locator('main.shell-main > :not(.page-loading)').first().waitFor({ timeout: 20_000 });
      await page.waitForLoadState('networkidle', { timeout: 3000 }).catch(() => undefined);
      const name = path.replace(/^\//, '').replace(/[^a-z0-9]+/gi, '-') || 'root';
      await page.screenshot({ path: join(SHOTS, `phone-${name}.png`) });
      const unavailable = MOBILE_UNAVAILABLE.some((u) => path === u.path || path.startsWith(`${u.path}/`));
      const shown = await page.getByTestId('unavailable-on-mobile').isVisible();
      if (unavailable !== shown) problems.push(`${path}: unavailable screen ${shown ? 'shown' : 'missing'}`);
      const width = await page.evaluate(() => document.documentElement.scrollWidth);
      if (width > PHONE.width) problems.push(`${path}: the page is ${width}px wide`);
      const tabbar = await page.locator('nav.tabbar').isVisible();
      if (tabbar !== TABS.has(path)) problems.push(`${path}: tab bar ${tabbar ? 'shown' : 'missing'}`);
    }
    expect(problems).toEqual([]);
    // the unavailable screen's button goes to chats
    await page.goto(`${origin}/analytics`);
    await page.getByTestId('unavailable-go-to-chats').click();
    await page.waitForURL((u) => u.pathname === '/chats');
    await page.context().close();
  }, 240_000);
});
