import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { chromium, type Browser, type Locator, type Page } from 'playwright-core';
import { REPO_ROOT } from '../../scripts/local/handlers.ts';
import { startTestRuntime, type TestRuntime } from './runtime.ts';

/**
 * Browser helpers shared by the end-to-end suites: Debian's Chromium through playwright-core
 * (never a downloaded browser), sign-in through the real login page and cognito-local, and the
 * screenshot folder (test-results/screenshots; desktop 1440x900, phone 390x844).
 */
export const CHROMIUM_ARGS = ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run', '--disable-quic'];
export const SHOTS = join(REPO_ROOT, 'test-results', 'screenshots');
export const DESKTOP = { width: 1440, height: 900 };
export const PHONE = { width: 390, height: 844 };

/** Launch /usr/bin/chromium headless and make sure the screenshot folder exists. */
export async function launchChromium(): Promise<Browser> {
  await mkdir(SHOTS, { recursive: true });
  return chromium.launch({ executablePath: '/usr/bin/chromium', args: CHROMIUM_ARGS, headless: true });
}

/**
 * Sign in as `email` in a new browser context and wait for /chats with a live socket.
 * `touch`: emulate a touch phone (hasTouch + isMobile) when the viewport is phone-sized.
 */
export async function signIn(browser: Browser, rt: TestRuntime, email: string, viewport = DESKTOP, extra: { permissions?: string[]; touch?: boolean } = {}): Promise<Page> {
  const phone = extra.touch && viewport.width < 600;
  const context = await browser.newContext({ viewport, ...(extra.permissions ? { permissions: extra.permissions } : {}), ...(phone ? { hasTouch: true, isMobile: true } : {}) });
  const page = await context.newPage();
  await page.goto(`${rt.url.replace('localhost', '127.0.0.1')}/login`);
  await page.getByTestId('login-email').fill(email);
  await page.getByTestId('login-password').fill(rt.password);
  await page.getByTestId('login-submit').click();
  await page.waitForURL(/\/chats/, { timeout: 20_000 });
  await page.locator('[data-testid="socket-status"][data-state="open"]').waitFor({ state: 'attached', timeout: 20_000 });
  return page;
}

/** Open a chat from the list and wait for its first message. @returns the thread */
export async function openChat(page: Page, chatId: string): Promise<Locator> {
  const row = page.locator(`[data-testid="chat-row"][data-chat-id="${chatId}"]`);
  await row.waitFor({ timeout: 15_000 });
  await row.click();
  const thread = page.getByTestId('thread');
  await thread.getByTestId('message').first().waitFor({ timeout: 15_000 });
  return thread;
}

/** Open a message's "⋯" menu (hovering the bubble shows the button). */
export async function openMenu(message: Locator): Promise<void> {
  await message.locator('.bubble').hover();
  await message.getByTestId('message-menu-button').click();
  await message.page().getByTestId('message-menu').waitFor();
}

/** A toast with this text. */
export const toast = (page: Page, text: string): Locator => page.locator('.toast', { hasText: text });

/**
 * An end-to-end file's local runtime, Chromium and the demo admin's ID token, started once:
 * `beforeAll(async () => ({ rt, browser, adminToken } = await startE2E()))` and
 * `afterAll(() => stopE2E({ browser, rt }))`.
 */
export async function startE2E(): Promise<{ rt: TestRuntime; browser: Browser; adminToken: string }> {
  const rt = await startTestRuntime();
  const browser = await launchChromium();
  return { rt, browser, adminToken: await rt.signIn(rt.adminEmail) };
}

/** Close what startE2E started (either may be missing when the start failed). */
export async function stopE2E(e: { browser?: Browser; rt?: TestRuntime }): Promise<void> {
  await e.browser?.close();
  await e.rt?.cleanup();
}
