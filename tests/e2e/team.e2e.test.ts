import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { join } from 'node:path';
import { type Browser, type Page } from 'playwright-core';
import { AdminSetUserPasswordCommand, CognitoIdentityProviderClient } from '@aws-sdk/client-cognito-identity-provider';
import { DESKTOP, PHONE, SHOTS, signIn, toast, startE2E, stopE2E } from '../factories/browser.ts';
import type { TestRuntime } from '../factories/runtime.ts';
import { RESTRICTED_MESSAGE } from '../../shared/org/permissions.rules.ts';

/**
 * Workspaces, team and permissions end to end, in Debian's Chromium (issue 3): an admin invites
 * two people on /settings/team; the first signs in in a second browser context and joins (toasts,
 * lands in /chats of the workspace), the second declines and, with no workspace left, sets one up
 * through each of spec §5's validation toasts; the admin turns a member permission off on
 * /settings/permissions and the member meets the Restricted page.
 * Screenshots go to test-results/screenshots.
 */
let rt: TestRuntime;
let browser: Browser;
const base = () => rt.url.replace('localhost', '127.0.0.1');

/** Invitees get a password here; in AWS the Cognito invitation email carries a temporary one. */
async function setPassword(email: string): Promise<void> {
  const c = new CognitoIdentityProviderClient({ endpoint: rt.cognitoEndpoint, region: 'local', credentials: { accessKeyId: 'local', secretAccessKey: 'local' } });
  await c.send(new AdminSetUserPasswordCommand({ UserPoolId: rt.userPoolId, Username: email, Password: rt.password, Permanent: true }));
  c.destroy();
}

/** Sign in through the login page without waiting for /chats (an invitee lands on Join workspace). */
async function signInBare(email: string, viewport = DESKTOP): Promise<Page> {
  const page = await (await browser.newContext({ viewport })).newPage();
  await page.goto(`${base()}/login`);
  await page.getByTestId('login-email').fill(email);
  await page.getByTestId('login-password').fill(rt.password);
  await page.getByTestId('login-submit').click();
  return page;
}

beforeAll(async () => ({ rt, browser } = await startE2E()));
afterAll(() => stopE2E({ browser, rt }));

describe('team, invites and permissions in the browser', () => {
  it('an admin invites two people; one joins, the other declines and sets up a workspace', async () => {
    const admin = await signIn(browser, rt, rt.adminEmail);
    await admin.getByTestId('org-menu-button').click();
    await admin.getByTestId('invite-team').click();
    await admin.getByTestId('team-page').waitFor();
    for (const email of ['joiner@e2e.chorus', 'decliner@e2e.chorus']) {
      await admin.getByTestId('invite-email').fill(email);
      await admin.getByTestId('invite-submit').click();
      await admin.locator(`[data-testid="team-row"][data-email="${email}"][data-status="invited"]`).waitFor();
    }
    await admin.screenshot({ path: join(SHOTS, 'team-desktop.png') });
    await Promise.all([setPassword('joiner@e2e.chorus'), setPassword('decliner@e2e.chorus')]);

    // the first invitee joins: toasts, then /chats of the workspace with a live socket
    const joiner = await signInBare('joiner@e2e.chorus');
    await joiner.getByTestId('join-workspace').waitFor({ timeout: 20_000 });
    await expect.poll(() => joiner.getByText('Join workspace').count()).toBeGreaterThan(0);
    await joiner.screenshot({ path: join(SHOTS, 'join-workspace-desktop.png') });
    await joiner.getByTestId('join-invite').click();
    await toast(joiner, 'Joining org...').waitFor();
    await toast(joiner, 'Joined Demo Workspace successfully').waitFor({ timeout: 15_000 });
    await joiner.waitForURL(/\/chats/);
    await joiner.locator('[data-testid="socket-status"][data-state="open"]').waitFor({ state: 'attached', timeout: 20_000 });
    await expect.poll(() => joiner.locator('#sidebar .org-name').textContent()).toBe('Demo Workspace');
    await admin.reload();
    await admin.locator('[data-testid="team-row"][data-email="joiner@e2e.chorus"][data-status="active"]').waitFor();

    // the second declines: toasts, the page reloads, and with no workspace the setup form shows
    const decliner = await signInBare('decliner@e2e.chorus');
    await decliner.getByTestId('decline-invite').click({ timeout: 20_000 });
    await toast(decliner, 'Declining invite...').waitFor();
    await toast(decliner, 'Invite declined! Reloading page...').waitFor({ timeout: 15_000 });
    // the form is its own chunk (lazy): wait for it, not only for its card
    await decliner.getByTestId('org-setup-form').waitFor({ timeout: 15_000 });
    expect(await decliner.getByRole('heading', { name: 'Setup your organization' }).count()).toBe(1);
    await admin.reload();
    await admin.getByTestId('team-page').waitFor();
    await expect.poll(() => admin.locator('[data-testid="team-row"][data-email="decliner@e2e.chorus"]').count()).toBe(0);

    // organization setup: each validation error of spec §5, then success into /chats
    const submit = () => decliner.getByTestId('setup-submit').click();
    await submit();
    await toast(decliner, 'Please enter an organization name').waitFor();
    await decliner.getByTestId('setup-org-name').fill('Decliner Co');
    await submit();
    await toast(decliner, 'Please enter your number').waitFor();
    await decliner.getByTestId('setup-phone').fill('12345');
    await submit();
    await toast(decliner, 'Invalid phone number').waitFor();
    await decliner.getByTestId('setup-phone').fill('98765 43210');
    await submit();
    await toast(decliner, 'Please select where you heard about us').waitFor();
    await decliner.screenshot({ path: join(SHOTS, 'org-setup-desktop.png') });
    await decliner.getByTestId('setup-referral').selectOption('google');
    await submit();
    await decliner.waitForURL(/\/chats/, { timeout: 15_000 });
    await expect.poll(() => decliner.locator('#sidebar .org-name').textContent()).toBe('Decliner Co');

    // a second workspace on a free trial: the spec's message
    await decliner.getByTestId('org-menu-button').click();
    await decliner.getByTestId('create-workspace-link').click();
    await decliner.getByRole('heading', { name: 'Create workspace' }).waitFor();
    await decliner.getByTestId('setup-org-name').fill('Second Co');
    await decliner.getByTestId('setup-phone').fill('+1 202 555 0143');
    await decliner.getByTestId('setup-referral').selectOption('Other');
    await submit();
    await toast(decliner, 'You have reached the maximum number of workspaces on a free trial. Please contact support to create additional workspaces').waitFor();
    await Promise.all([admin.context().close(), joiner.context().close(), decliner.context().close()]);
  });

  it('the admin turns a member permission off and the member meets the Restricted page', async () => {
    const admin = await signIn(browser, rt, rt.adminEmail);
    await admin.goto(`${base()}/settings/permissions`);
    const analytics = admin.getByTestId('perm-analytics');
    await analytics.waitFor();
    expect(await analytics.isChecked()).toBe(true);
    await analytics.click();
    await toast(admin, 'Permissions updated').waitFor();
    expect(await analytics.isChecked()).toBe(false);
    await admin.screenshot({ path: join(SHOTS, 'permissions-desktop.png') });

    const member = await signIn(browser, rt, rt.memberEmail);
    await member.goto(`${base()}/analytics`);
    const restricted = member.getByTestId('restricted-page');
    await restricted.waitFor();
    expect(await restricted.textContent()).toContain(RESTRICTED_MESSAGE);
    await member.screenshot({ path: join(SHOTS, 'restricted-desktop.png') });
    await member.getByTestId('restricted-go-back').click();
    await member.waitForURL(/\/chats/);
    // contacts stays open; admin-only settings are restricted, member settings are not
    await member.goto(`${base()}/contacts`);
    await member.getByTestId('contacts-page').waitFor();
    await member.goto(`${base()}/settings/team`);
    await member.getByTestId('restricted-page').waitFor();
    // spec §2: only phones, scheduled, preferences and notifications are open to members (issue 49 §15)
    for (const section of ['tickets', 'labels', 'templates']) {
      await member.goto(`${base()}/settings/${section}`);
      await member.getByTestId('restricted-page').waitFor();
      expect(await member.getByTestId('restricted-page').textContent()).toContain(RESTRICTED_MESSAGE);
    }
    await member.goto(`${base()}/settings/preferences`);
    await member.getByTestId('preferences-page').waitFor();
    expect(await member.getByTestId('invite-team').count()).toBe(0);

    const phone = await signIn(browser, rt, rt.memberEmail, PHONE);
    await phone.goto(`${base()}/analytics`);
    await phone.getByTestId('restricted-page').waitFor();
    await phone.screenshot({ path: join(SHOTS, 'restricted-phone.png') });
    await Promise.all([admin.context().close(), member.context().close(), phone.context().close()]);
    // the server refuses a member's writes there too
    const memberToken = await rt.signIn(rt.memberEmail);
    for (const [method, path, body] of [
      ['PUT', '/settings/tickets', { labels: [], default_priority: 1, default_assignee: 'none' }],
      ['POST', '/labels', { name: 'Nope', color: '#123456' }],
      ['POST', '/templates/sync', {}],
    ] as const)
      expect((await rt.api(memberToken, `/api/orgs/${rt.orgId}${path}`, { method, json: body })).status).toBe(403);
  });
});
