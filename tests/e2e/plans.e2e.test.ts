import { readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Browser, type Page } from 'playwright-core';
import { DESKTOP, PHONE, SHOTS, signIn, startE2E, stopE2E, toast } from '../factories/browser.ts';
import type { TestRuntime } from '../factories/runtime.ts';
import { db } from '../../shared/db/service.ts';
import { signStripePayload, stripeShapedEvent } from '../../shared/plan/billing-local.ts';
import { SERVICE_DOWN_MESSAGE } from '../../shared/plan/entitlements.rules.ts';
import { REPO_ROOT } from '../../scripts/local/handlers.ts';

/**
 * Plans and the subscription lifecycle in Debian's Chromium (issue 22): the trial banner and its
 * extension dialog, What's New, the help menu, /settings/plans and /settings/plans/select (currency
 * and frequency switches, the local checkout), then each lifecycle state set as the API or the
 * provider would (signed billing events; the org row for the trial end, enterprise end,
 * maintenance flag and phones; the incident file of `npm run incident`): the overdue banner,
 * inactive, trial ended, enterprise ended, maintenance, the service-down screen, the dismissible
 * incident banner, the phones-disconnected banner, Getting Started and the old-build icon.
 * Screenshots at 1440×900 and 390×844 go to test-results/screenshots/plans-*.png.
 */
let rt: TestRuntime;
let browser: Browser;
let page: Page;
const base = () => rt.url.replace('localhost', '127.0.0.1');
const shot = (name: string, p: Page = page) => p.screenshot({ path: join(SHOTS, `plans-${name}.png`) });
const org = () => db().entities.organization.patch({ org_id: rt.orgId });
const billing = async (kind: 'paid' | 'failed' | 'canceled', o: Omit<Parameters<typeof stripeShapedEvent>[1], 'org_id'> = {}) => {
  const ev = stripeShapedEvent(kind, { org_id: rt.orgId, ...o });
  const res = await fetch(`${rt.url}/webhooks/billing`, { method: 'POST', headers: { 'content-type': 'application/json', 'stripe-signature': signStripePayload(ev.payload, process.env.STRIPE_WEBHOOK_SECRET!) }, body: ev.payload });
  expect(res.status).toBe(200);
};
const open = async (path: string, p: Page = page) => {
  await p.goto(`${base()}${path}`);
};

beforeAll(async () => {
  ({ rt, browser } = await startE2E());
  page = await signIn(browser, rt, rt.adminEmail, DESKTOP);
}, 180_000);
afterAll(async () => {
  if (process.env.INCIDENT_FILE) await rm(process.env.INCIDENT_FILE, { force: true });
  await stopE2E({ browser, rt });
});

describe('trial', () => {
  it('shows the trial banner in the sidebar; the extension request is disabled while empty and sent once', async () => {
    const banner = page.getByTestId('trial-banner');
    await banner.getByText('14 days left in your trial').waitFor();
    await shot('trial-desktop');
    await banner.getByTestId('trial-extend').click();
    const dialog = page.getByTestId('trial-extension-dialog');
    expect(await dialog.getByTestId('trial-extension-submit').isDisabled()).toBe(true);
    await dialog.getByTestId('trial-extension-link').fill('https://www.linkedin.com/posts/chorus-e2e');
    await shot('trial-extension-dialog-desktop');
    await dialog.getByTestId('trial-extension-submit').click();
    await toast(page, "We'll check it within 24 hours").waitFor();
    await banner.getByTestId('trial-extension-requested').waitFor();
  });

  it("What's New lists the changelog; the help menu is complete", async () => {
    await page.getByTestId('whats-new').click();
    await page.getByTestId('whats-new-dialog').getByText('Plans and billing').waitFor();
    await page.keyboard.press('Escape');
    await page.getByTestId('org-menu-button').click();
    await page.getByTestId('org-menu-help').click();
    const help = page.getByTestId('help-menu');
    for (const t of ['Reload app', 'Refresh data', 'Documentation', 'Chats not loading?', 'App slow?']) await help.getByText(t, { exact: true }).waitFor();
    // issue 49 item 10: links with no target here (no CHORUS_LINK_<KEY>) are not shown, never a placeholder domain
    for (const t of ['System status', 'Tutorial', 'Contact us', 'Feature request', 'Best practices', 'Book a demo']) expect(await help.getByText(t, { exact: true }).count()).toBe(0);
    expect(await help.getByTestId('help-documentation').count()).toBe(1);
    await shot('help-menu-desktop');
    await help.getByText('Chats not loading?').click();
    await page.getByTestId('clear-data-dialog').waitFor();
    await page.keyboard.press('Escape');
  });
});

describe('plans pages', () => {
  it('/settings/plans shows usage against limits; /select switches currency and frequency and checks out', async () => {
    await open('/settings/plans');
    await page.getByTestId('plan-name').getByText('Pro (trial)').waitFor();
    expect(await page.getByTestId('usage-phones').textContent()).toContain('1 / 3');
    expect(await page.getByTestId('usage-members').textContent()).toContain('2 / 10');
    await page.getByTestId('no-invoices').waitFor();
    await shot('usage-desktop');
    await page.getByTestId('change-plan').click();
    await page.waitForURL(/\/settings\/plans\/select/);
    expect(await page.getByTestId('price-pro').textContent()).toContain('$49/mo');
    await page.getByTestId('cur-INR').click();
    await page.getByTestId('freq-weekly').click();
    expect(await page.getByTestId('price-pro').textContent()).toContain('₹1,099/wk');
    await page.getByTestId('freq-yearly').click();
    expect(await page.getByTestId('price-starter').textContent()).toContain('₹1,799/mo');
    expect(await page.getByTestId('price-enterprise').textContent()).toBe('Custom');
    await shot('select-desktop');
    await page.getByTestId('freq-monthly').click();
    // issue 49 item 14: Pro sells extra phones; Starter does not
    expect(await page.getByTestId('addon-phones-starter').count()).toBe(0);
    await page.getByTestId('addon-phones-input-pro').fill('2');
    expect(await page.getByTestId('addon-phones-total-pro').textContent()).toBe('₹999/mo per extra phone; 5 phones in all');
    await page.getByTestId('choose-pro').click();
    await page.waitForURL(/\/settings\/plans$/);
    await toast(page, 'Payment received').waitFor();
    await page.getByTestId('plan-name').getByText(/^Pro$/).waitFor();
    // the 2 extra phones paid for raise the limit from Pro's 3 to 5
    await expect.poll(async () => page.getByTestId('usage-phones').textContent()).toContain('1 / 5');
    await page.getByTestId('invoices').getByText('paid').waitFor();
    // active: no trial banner any more
    expect(await page.getByTestId('trial-banner').count()).toBe(0);
  });

  it('the phone layout of both pages', async () => {
    const phone = await signIn(browser, rt, rt.adminEmail, PHONE);
    await open('/settings/plans/select', phone);
    await phone.getByTestId('plan-card-pro').waitFor();
    await shot('select-phone', phone);
    await open('/settings/plans', phone);
    await phone.getByTestId('usage-phones').waitFor();
    await shot('usage-phone', phone);
    await phone.context().close();
  });
});

describe('lifecycle screens and banners', () => {
  it('a failed payment shows the red overdue banner; Go to billing opens /settings/plans', async () => {
    await billing('failed');
    await open('/chats');
    const banner = page.getByTestId('overdue-banner');
    await banner.waitFor();
    await shot('overdue-desktop');
    await banner.getByText('Go to billing').click();
    await page.waitForURL(/\/settings\/plans$/);
  });

  it('canceled after failed payments: inactive blocks every page except settings', async () => {
    await billing('canceled', { reason: 'payment_failed' });
    await open('/chats');
    await page.getByTestId('inactive-screen').waitFor();
    await shot('inactive-desktop');
    await open('/settings/team');
    await page.getByTestId('team-page').or(page.locator('.page')).first().waitFor();
    expect(await page.getByTestId('inactive-screen').count()).toBe(0);
    await billing('paid', { plan_id: 'pro', licences: 3 });
  });

  it('an expired trial shows the trial-ended screen', async () => {
    await org().set({ subscription_status: 'trialing', is_free_trial: true, trial_ends_at: Date.now() - 1000 }).go();
    await open('/chats');
    await page.getByTestId('trial-ended-screen').waitFor();
    await shot('trial-ended-desktop');
    const phone = await signIn(browser, rt, rt.memberEmail, PHONE);
    await phone.getByTestId('trial-ended-screen').waitFor();
    await shot('trial-ended-phone', phone);
    await phone.context().close();
  });

  it('an enterprise org past its period end shows the enterprise-ended screen', async () => {
    await org().set({ subscription_status: 'active', is_free_trial: false, is_enterprise: true, org_plan: { plan_id: 'enterprise', current_period_end: Math.floor(Date.now() / 1000) - 60 } }).go();
    await open('/chats');
    await page.getByTestId('enterprise-ended-screen').waitFor();
    await shot('enterprise-ended-desktop');
    await org().set({ is_enterprise: false, org_plan: { plan_id: 'pro', current_period_end: Math.floor(Date.now() / 1000) + 86400 } }).go();
  });

  it('the maintenance flag blocks with the maintenance page', async () => {
    await org().set({ access_scopes: { feature_flags: { maintenance: true } } }).go();
    await open('/chats');
    await page.getByTestId('maintenance-screen').waitFor();
    await shot('maintenance-desktop');
    await org().set({ access_scopes: { feature_flags: { maintenance: false } } }).go();
  });

  it('incidents: a downtime incident blocks with the spec message; another shows a dismissible banner, remembered', async () => {
    await writeFile(process.env.INCIDENT_FILE!, JSON.stringify({ betterstack: { id: 'inc-down', message: null, status: 'downtime' }, featurebase: null }));
    await open('/chats');
    await page.getByTestId('service-down-message').getByText(SERVICE_DOWN_MESSAGE).waitFor();
    await shot('service-down-desktop');
    await writeFile(process.env.INCIDENT_FILE!, JSON.stringify({ betterstack: { id: 'inc-slow', message: 'Messages are arriving with a delay', status: 'degraded' }, featurebase: null }));
    await open('/chats');
    const banner = page.getByTestId('incident-banner');
    await banner.getByText('Messages are arriving with a delay').waitFor();
    await shot('incident-banner-desktop');
    await banner.getByTestId('incident-dismiss').click();
    await banner.waitFor({ state: 'detached' });
    await open('/chats');
    await page.getByTestId('socket-status').waitFor({ state: 'attached' });
    await expect.poll(async () => (await page.evaluate(() => localStorage.getItem('chorus.incident_dismissed')))).toBe('inc-slow');
    expect(await page.getByTestId('incident-banner').count()).toBe(0);
    await rm(process.env.INCIDENT_FILE!, { force: true });
  });

  it('every connected-once phone disconnected: the banner with Reconnect phones', async () => {
    await db().entities.phone.patch({ org_id: rt.orgId, phone_id: rt.phone.phone_number_id }).set({ is_ready: false }).go();
    await open('/chats');
    const banner = page.getByTestId('phones-disconnected-banner');
    await banner.waitFor();
    await shot('phones-disconnected-desktop');
    await banner.getByText('Reconnect phones').click();
    await page.waitForURL(/\/settings\/phones/);
  });

  it('no phone ever connected: Getting Started with the onboarding cards on desktop, the mobile message on phones', async () => {
    await db().entities.phone.patch({ org_id: rt.orgId, phone_id: rt.phone.phone_number_id }).remove(['first_connected_at']).go();
    await open('/chats');
    const gs = page.getByTestId('getting-started');
    await gs.waitFor();
    for (const t of ['Send bulk messages', 'Manage your team', 'Add phones', 'Manage tickets', 'Integrate your tools', 'APIs and webhooks']) await gs.getByText(t).waitFor();
    await shot('getting-started-desktop');
    const phone = await signIn(browser, rt, rt.adminEmail, PHONE);
    await phone.getByTestId('mobile-no-phones').getByText('No phones connected. To connect a phone, please open the product from your desktop.').waitFor();
    await shot('getting-started-phone', phone);
    await phone.context().close();
    await db().entities.phone.patch({ org_id: rt.orgId, phone_id: rt.phone.phone_number_id }).set({ is_ready: true, first_connected_at: Date.now() }).go();
  });

  it('a newer build on the server shows the old-build icon', async () => {
    const file = join(REPO_ROOT, 'web', 'dist', 'version.json');
    const before = await readFile(file, 'utf8');
    try {
      await writeFile(file, JSON.stringify({ version: 'a-newer-build' }));
      await open('/chats');
      await page.getByTestId('old-build').waitFor();
      expect(await page.getByTestId('old-build').getAttribute('title')).toContain('You are using an older version');
    } finally {
      await writeFile(file, before);
    }
  });
});
