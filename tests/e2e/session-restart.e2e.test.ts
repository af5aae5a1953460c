import { afterAll, describe, expect, it } from 'vitest';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser } from 'playwright-core';
import { DESKTOP, launchChromium } from '../factories/browser.ts';
import { startRuntime, type Runtime } from '../../scripts/local/runtime.ts';
import { freePort } from '../../scripts/local/ports.ts';

/**
 * Issue 49 item 9 in Chromium: restarting the local runtime (`npm start` stopped and started on the
 * same data dir and port) does not sign the open app out. While the server is down the socket's
 * reconnects force a token refresh that cannot reach /cognito; that is "try again later", not
 * "signed out" (web/src/lib/auth.ts getIdToken). Once the runtime is back the socket reconnects
 * and the page is still the inbox.
 */
let rt: Runtime | undefined;
let browser: Browser | undefined;
let dir: string | undefined;
afterAll(async () => {
  await browser?.close();
  await rt?.stop();
  if (dir) await rm(dir, { recursive: true, force: true });
});

describe('a restart of the local runtime', () => {
  it('keeps the open app signed in', { timeout: 120_000 }, async () => {
    dir = await mkdtemp(join(tmpdir(), 'chorus-e2e-restart-'));
    const port = await freePort();
    const opts = { dataDir: dir, port, demo: { adminEmail: 'admin@restart.chorus', memberEmail: 'member@restart.chorus' }, logLevel: 'silent' as const };
    rt = await startRuntime(opts);
    const password = rt.demo.password;
    browser = await launchChromium();
    const page = await (await browser.newContext({ viewport: DESKTOP })).newPage();
    await page.goto(`http://127.0.0.1:${port}/login`);
    await page.getByTestId('login-email').fill(rt.demo.adminEmail);
    await page.getByTestId('login-password').fill(password);
    await page.getByTestId('login-submit').click();
    await page.waitForURL(/\/chats/, { timeout: 20_000 });
    const socketOpen = page.locator('[data-testid="socket-status"][data-state="open"]');
    await socketOpen.waitFor({ state: 'attached', timeout: 20_000 });

    // down until the app has tried (and failed) to refresh its tokens at least once
    let failedRefreshes = 0;
    page.on('requestfailed', (r) => {
      if (new URL(r.url()).pathname.startsWith('/cognito')) failedRefreshes++;
    });
    await rt.stop();
    rt = undefined;
    await page.waitForFunction(() => document.querySelector('[data-testid="socket-status"]')?.getAttribute('data-state') !== 'open', undefined, { timeout: 20_000 });
    await expect.poll(() => failedRefreshes, { timeout: 30_000, interval: 200 }).toBeGreaterThan(0);

    rt = await startRuntime(opts);
    await socketOpen.waitFor({ state: 'attached', timeout: 60_000 });
    expect(new URL(page.url()).pathname).toMatch(/^\/chats/);
    expect(await page.getByTestId('login-email').count()).toBe(0);
  });
});
