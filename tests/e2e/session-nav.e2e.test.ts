import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { join } from 'node:path';
import { type Browser, type Page } from 'playwright-core';
import { DESKTOP, PHONE, SHOTS, signIn, startE2E, stopE2E } from '../factories/browser.ts';
import type { TestRuntime } from '../factories/runtime.ts';
import { seedDemo } from '../../scripts/local/seed.ts';
import { db } from '../../shared/db/service.ts';

/**
 * Navigation, organization switcher, sign-out and the single active session in Debian's Chromium
 * (issue 3 items 5 and 7, item 1's sign-out and expiry):
 * - two browser contexts of one user: the first shows 'logged in in more than one session', a
 *   second tab of the active browser does not; Switch here reclaims it and the other one is blocked;
 * - the sidebar in spec §2 order; a member's settings menu has only the member entries; the
 *   organization menu works from the keyboard and disables admin-only items for members;
 * - a platform organization sees dashboard, phones and settings only, unknown paths go to
 *   /dashboard; switching workspace from the menu keeps the page loaded;
 * - Log out clears Chorus's stored data and the tokens and lands on /login; an expired refresh
 *   token leads to /login with 'Session expired! Please login again'.
 * Screenshots go to test-results/screenshots.
 */
let rt: TestRuntime;
let browser: Browser;
let platformOrg: string;
const PLATFORM_USER = 'platform@e2e.chorus';
const base = () => rt.url.replace('localhost', '127.0.0.1');
const replacedScreen = (p: Page) => p.getByTestId('session-replaced');
const navPaths = (p: Page) => p.locator('#sidebar .nav-list a').evaluateAll((as) => as.map((a) => a.getAttribute('href')));
const chorusKeys = (p: Page) => p.evaluate(() => [...Object.keys(localStorage), ...Object.keys(sessionStorage)].filter((k) => k.startsWith('chorus.')));
const tokenKeys = (p: Page) => p.evaluate(() => Object.keys(localStorage).filter((k) => k.startsWith('CognitoIdentityServiceProvider.')));

/** Sign in through the login page and wait for a live socket, wherever the app lands. */
async function signInAnywhere(email: string, viewport = DESKTOP): Promise<Page> {
  const page = await (await browser.newContext({ viewport })).newPage();
  await page.goto(`${base()}/login`);
  await page.getByTestId('login-email').fill(email);
  await page.getByTestId('login-password').fill(rt.password);
  await page.getByTestId('login-submit').click();
  await page.locator('[data-testid="socket-status"][data-state="open"]').waitFor({ state: 'attached', timeout: 20_000 });
  return page;
}

beforeAll(async () => {
  ({ rt, browser } = await startE2E());
  // a platform organization whose admin is also a member of the demo workspace
  const sub = await rt.createUser(PLATFORM_USER, rt.password);
  platformOrg = await seedDemo({
    orgName: 'Platform Co',
    admin: { email: PLATFORM_USER, sub, name: 'Plat' },
    member: { email: 'pm@e2e.chorus', sub: 'pm', name: 'PM' },
    phone: { phone_number_id: '444000111', display_phone_number: '15554440001' },
  });
  await db().entities.organization.patch({ org_id: platformOrg }).set({ is_platform: true }).go();
  await db().entities.member.create({ org_id: rt.orgId, email: PLATFORM_USER, member_name: 'Plat', user_id: sub, role: 'member', is_active: true }).go();
});
afterAll(() => stopE2E({ browser, rt }));

/**
 * Make the stored Cognito tokens look like after a long absence: ID and access tokens expired an
 * hour ago, and with `refreshToo` the refresh token no longer valid.
 */
async function expireTokens(page: Page, { refreshToo }: { refreshToo: boolean }): Promise<void> {
  await page.evaluate((refreshToo) => {
    const b64 = (o: object) => btoa(JSON.stringify(o)).replace(/=+$/, '').replace(/\+/g, '-').replace(/\//g, '_');
    for (const k of Object.keys(localStorage)) {
      if (!k.startsWith('CognitoIdentityServiceProvider.')) continue;
      if (k.endsWith('.idToken') || k.endsWith('.accessToken')) {
        const [h, p] = localStorage.getItem(k)!.split('.');
        const payload = JSON.parse(atob(p.replace(/-/g, '+').replace(/_/g, '/')));
        localStorage.setItem(k, `${h}.${b64({ ...payload, exp: Math.floor(Date.now() / 1000) - 3600 })}.sig`);
      }
      if (refreshToo && k.endsWith('.refreshToken')) localStorage.setItem(k, 'expired-refresh-token');
    }
  }, refreshToo);
}

describe('single active session', () => {
  it('a second browser blocks the first; Switch here reclaims it and blocks the other', async () => {
    const a = await signIn(browser, rt, rt.adminEmail);
    expect(await replacedScreen(a).count()).toBe(0);

    const b = await signIn(browser, rt, rt.adminEmail);
    await replacedScreen(a).waitFor({ timeout: 15_000 });
    expect(await a.getByRole('heading', { name: 'You are logged in in more than one session' }).count()).toBe(1);
    expect(await a.getByTestId('switch-here').evaluate((el) => el === document.activeElement)).toBe(true);
    await a.screenshot({ path: join(SHOTS, 'session-replaced-desktop.png') });
    expect(await replacedScreen(b).count()).toBe(0);

    // a second tab of browser B is the same session: B stays active
    const b2 = await b.context().newPage();
    await b2.goto(`${base()}/tickets`);
    await b2.locator('[data-testid="socket-status"][data-state="open"]').waitFor({ state: 'attached', timeout: 20_000 });
    await b.waitForTimeout(500);
    expect(await replacedScreen(b).count()).toBe(0);
    expect(await replacedScreen(b2).count()).toBe(0);

    // Switch here in A: A is active again, both tabs of B are blocked
    await a.getByTestId('switch-here').click();
    await replacedScreen(a).waitFor({ state: 'detached', timeout: 15_000 });
    await replacedScreen(b).waitFor({ timeout: 15_000 });
    await replacedScreen(b2).waitFor({ timeout: 15_000 });
    // the shell behind A works again
    await a.locator('#sidebar a[href="/tickets"]').click();
    await a.waitForURL(/\/tickets/);

    await b.setViewportSize(PHONE);
    await b.screenshot({ path: join(SHOTS, 'session-replaced-phone.png') });
    await Promise.all([a.context().close(), b.context().close()]);
  });
});

describe('navigation and the organization menu', () => {
  it('the sidebar follows spec §2; a member sees only the member settings and admin-only menu items disabled', async () => {
    const admin = await signIn(browser, rt, rt.adminEmail);
    expect(await navPaths(admin)).toEqual(['/dashboard', '/chats', '/tickets', '/analytics', '/list', '/broadcast', '/rules', '/ai', '/contacts', '/media', '/logs', '/settings']);
    await admin.locator('#sidebar a[href="/settings"]').click();
    await admin.getByTestId('settings-page').waitFor();
    const groups = await admin.getByTestId('settings-group').evaluateAll((gs) => gs.map((g) => g.getAttribute('data-title')));
    expect(groups).toEqual(['Plans and Usage', 'User', 'Organization', 'Integrations']);
    await admin.screenshot({ path: join(SHOTS, 'settings-admin-desktop.png') });
    // an unknown path falls back to /chats
    await admin.goto(`${base()}/no-such-page`);
    await admin.waitForURL(/\/chats$/);
    await admin.context().close();

    const member = await signIn(browser, rt, rt.memberEmail);
    await member.locator('#sidebar a[href="/settings"]').click();
    await member.getByTestId('settings-page').waitFor();
    const entries = await member.getByTestId('settings-entry').evaluateAll((es) => es.map((e) => e.getAttribute('data-section')));
    expect(entries.sort()).toEqual(['notifications', 'phones', 'preferences', 'scheduled']);
    expect(await member.getByTestId('settings-group').evaluateAll((gs) => gs.map((g) => g.getAttribute('data-title')))).toEqual(['User', 'Organization']);
    await member.screenshot({ path: join(SHOTS, 'settings-member-desktop.png') });

    // the organization menu from the keyboard: Enter opens it, arrows move, Esc closes and returns focus
    const trigger = member.getByTestId('org-menu-button');
    await trigger.focus();
    await member.keyboard.press('Enter');
    const menu = member.getByTestId('org-menu');
    await menu.waitFor();
    expect(await member.getByTestId('invite-team').getAttribute('data-disabled')).not.toBeNull();
    expect(await member.getByTestId('org-menu-settings').getAttribute('data-disabled')).not.toBeNull();
    await member.keyboard.press('ArrowDown');
    const focused = await member.evaluate(() => document.activeElement?.getAttribute('data-testid'));
    expect(focused).toBeTruthy();
    expect(['invite-team', 'org-menu-settings']).not.toContain(focused);
    await member.screenshot({ path: join(SHOTS, 'org-menu-member-desktop.png') });
    await member.keyboard.press('Escape');
    await menu.waitFor({ state: 'detached' });
    expect(await trigger.evaluate((el) => el === document.activeElement)).toBe(true);
    await member.context().close();
  });

  it('a platform organization sees dashboard, phones and settings; switching workspace keeps the page loaded', async () => {
    const page = await signInAnywhere(PLATFORM_USER);
    // open the platform workspace from the menu (whichever one the app opened first)
    await page.getByTestId('org-menu-button').click();
    await page.locator(`[data-testid="workspace-item"][data-org-id="${platformOrg}"]`).click();
    await page.waitForURL(/\/dashboard$/);
    await expect.poll(() => navPaths(page)).toEqual(['/dashboard', '/phones', '/settings']);
    await page.screenshot({ path: join(SHOTS, 'platform-sidebar-desktop.png') });

    // unavailable and unknown paths go to /dashboard (full loads and in-app navigation)
    await page.goto(`${base()}/chats`);
    await page.waitForURL(/\/dashboard$/);
    await page.goto(`${base()}/no-such-page`);
    await page.waitForURL(/\/dashboard$/);
    await page.goto(`${base()}/phones`);
    await page.getByTestId('phones-page').waitFor();
    await page.evaluate(() => {
      history.pushState({}, '', '/tickets');
      dispatchEvent(new PopStateEvent('popstate'));
    });
    await page.waitForURL(/\/dashboard$/);

    // switch to the normal workspace without reloading the page
    await page.evaluate(() => ((window as unknown as { __stillHere: boolean }).__stillHere = true));
    await page.getByTestId('org-menu-button').click();
    await page.locator(`[data-testid="workspace-item"][data-org-id="${rt.orgId}"]`).click();
    await page.waitForURL(/\/chats$/);
    await expect.poll(() => navPaths(page)).toContain('/tickets');
    await expect.poll(() => page.locator('#sidebar .org-name').textContent()).toBe('Demo Workspace');
    expect(await page.evaluate(() => (window as unknown as { __stillHere?: boolean }).__stillHere)).toBe(true);
    await page.context().close();
  });
});

describe('sign-out and session expiry', () => {
  it('Log out clears the stored organization data and the tokens, then /login', async () => {
    const page = await signIn(browser, rt, rt.adminEmail);
    // what the app stored: this browser's session id, the sidebar state
    await expect.poll(() => chorusKeys(page)).toEqual(expect.arrayContaining(['chorus.session_id', 'chorus.sidebar_collapsed']));
    expect((await tokenKeys(page)).length).toBeGreaterThan(0);

    await page.getByTestId('org-menu-button').click();
    await page.getByTestId('sign-out').click();
    await page.waitForURL(/\/login/);
    expect(await chorusKeys(page)).toEqual([]);
    expect(await tokenKeys(page)).toEqual([]);
    // signed out for real: the app sends us back to /login
    await page.goto(`${base()}/chats`);
    await page.waitForURL(/\/login/);
    await page.context().close();
  });

  it('expired ID and access tokens are refreshed with the refresh token (Amplify GetTokensFromRefreshToken) and the person stays signed in', async () => {
    const page = await signIn(browser, rt, rt.adminEmail);
    // listen first: the open app may itself notice the expired tokens (any API call asks Amplify for
    // a session) and refresh before the reload, which is the same behaviour under test
    const refreshed = page.waitForResponse((r) => r.request().headers()['x-amz-target'] === 'AWSCognitoIdentityProviderService.GetTokensFromRefreshToken', { timeout: 30_000 });
    await expireTokens(page, { refreshToo: false });
    await page.reload();
    expect((await refreshed).status()).toBe(200);
    await page.getByTestId('chat-list').waitFor({ timeout: 20_000 });
    expect(new URL(page.url()).pathname).not.toMatch(/^\/login/);
    await page.context().close();
  });

  it('an expired refresh token ends on /login with "Session expired! Please login again"', async () => {
    const page = await signIn(browser, rt, rt.adminEmail);
    await expireTokens(page, { refreshToo: true });
    await page.reload();
    await page.waitForURL(/\/login/, { timeout: 20_000 });
    await expect.poll(() => page.getByTestId('login-notice').textContent()).toBe('Session expired! Please login again');
    expect(await tokenKeys(page)).toEqual([]);
    await page.screenshot({ path: join(SHOTS, 'session-expired-desktop.png') });
    await page.context().close();
  });
});
