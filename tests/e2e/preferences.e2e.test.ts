import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { join } from 'node:path';
import { type Browser } from 'playwright-core';
import { PHONE, SHOTS, signIn, toast, startE2E, stopE2E } from '../factories/browser.ts';
import type { TestRuntime } from '../factories/runtime.ts';
import { PASSWORD_MESSAGES } from '../../shared/auth/password.rules.ts';

/**
 * Preferences end to end, in Debian's Chromium (issue 3 part 6 and the status toggle of part 3):
 * a member opens the password dialog from the user menu, sees Update disabled for a weak password
 * and for the old one, changes it, signs out and signs in with the new one; toggles their status
 * offline (kept across a reload, seen by GET /members); collapses the sidebar (left_sidebar_open
 * kept across a reload); opens /settings/preferences. Screenshots go to test-results/screenshots.
 */
let rt: TestRuntime;
let browser: Browser;
let adminToken: string;
const NEW_PASSWORD = 'Fresh 1234a';

beforeAll(async () => ({ rt, browser, adminToken } = await startE2E()));
afterAll(() => stopE2E({ browser, rt }));

describe('preferences in the browser', () => {
  it('a member changes the password, signs in with the new one and opens /settings/preferences', async () => {
    // Arrange
    const page = await signIn(browser, rt, rt.memberEmail);
    // Update password and Log out are in the organization menu (layout/OrgSwitcher.tsx)
    await page.getByTestId('org-menu-button').click();
    await page.getByTestId('update-password').click();
    const dialog = page.getByTestId('password-dialog');
    const submit = dialog.getByTestId('password-submit');
    await dialog.getByTestId('password-old').fill(rt.password);

    // Act / Assert: a weak password lists what is missing and keeps Update disabled
    await dialog.getByTestId('password-new').fill('abc');
    await expect.poll(() => submit.isDisabled()).toBe(true);
    expect(await dialog.locator('[data-rule="digit"]').getAttribute('data-met')).toBe('false');
    expect(await dialog.locator('[data-rule="upper"]').getAttribute('data-met')).toBe('false');
    // the old password again: spec §8's same_password message
    await dialog.getByTestId('password-new').fill(rt.password);
    await dialog.getByText(PASSWORD_MESSAGES.same_password).waitFor();
    expect(await submit.isDisabled()).toBe(true);
    await dialog.getByTestId('password-new').fill(NEW_PASSWORD);
    await expect.poll(() => submit.isEnabled()).toBe(true);
    await page.screenshot({ path: join(SHOTS, 'password-dialog-desktop.png') });
    await submit.click();
    await toast(page, PASSWORD_MESSAGES.updated).waitFor();
    await dialog.waitFor({ state: 'detached' });

    // sign out, then the old password fails and the new one (spaces stripped) works
    await page.getByTestId('org-menu-button').click();
    await page.getByTestId('sign-out').click();
    await page.waitForURL(/\/login/);
    await page.getByTestId('login-email').fill(rt.memberEmail);
    await page.getByTestId('login-password').fill(rt.password);
    await page.getByTestId('login-submit').click();
    await page.getByText('Invalid email or password!').waitFor();
    await page.getByTestId('login-password').fill(NEW_PASSWORD.replace(/\s+/g, ''));
    await page.getByTestId('login-submit').click();
    await page.waitForURL(/\/chats/, { timeout: 20_000 });

    // members may open /settings/preferences (spec §2), here on a phone
    await page.setViewportSize(PHONE);
    await page.goto(`${rt.url.replace('localhost', '127.0.0.1')}/settings/preferences`);
    await page.getByTestId('pref-enable_notifications').waitFor();
    await page.screenshot({ path: join(SHOTS, 'preferences-phone.png') });
    await page.context().close();
  });

  it('an admin toggles status and collapses the sidebar; both are stored', async () => {
    const page = await signIn(browser, rt, rt.adminEmail);
    const members = async () => (await (await rt.api(adminToken, `/api/orgs/${rt.orgId}/members`)).json()) as { members: Array<{ email: string; is_online: boolean }> };

    // Act: go offline
    const toggle = page.getByTestId('status-toggle');
    expect(await toggle.isChecked()).toBe(true);
    await toggle.click();
    // Assert: stored on the member row and kept across a reload
    await expect.poll(async () => (await members()).members.find((m) => m.email === rt.adminEmail)?.is_online).toBe(false);
    await page.getByRole('button', { name: 'Collapse sidebar' }).click();
    await expect.poll(async () => (await (await rt.api(adminToken, '/api/me/preferences')).json()).preferences.left_sidebar_open).toBe(false);
    await page.reload();
    await page.getByRole('button', { name: 'Expand sidebar' }).waitFor();
    expect(await page.getByTestId('status-toggle').isChecked()).toBe(false);
    await page.screenshot({ path: join(SHOTS, 'sidebar-collapsed-offline-desktop.png') });
    await page.getByRole('button', { name: 'Expand sidebar' }).click();
    await page.getByTestId('status-toggle').click();
    await expect.poll(async () => (await members()).members.find((m) => m.email === rt.adminEmail)?.is_online).toBe(true);

    await page.goto(`${rt.url.replace('localhost', '127.0.0.1')}/settings/preferences`);
    await page.getByTestId('pref-left_sidebar_open').waitFor();
    await page.screenshot({ path: join(SHOTS, 'preferences-desktop.png') });

    // issue 49 §11: this computer's Desktop notifications switch says what /settings/notifications says
    // (off: the browser has not allowed notifications and the device is not registered), though the stored flag is on
    expect((await (await rt.api(adminToken, '/api/me/preferences')).json()).preferences.notifications.enable_notifications).toBe(true);
    const desktop = page.getByTestId('pref-enable_notifications');
    await desktop.waitFor();
    expect(await desktop.isChecked()).toBe(false);
    await page.goto(`${rt.url.replace('localhost', '127.0.0.1')}/settings/notifications`);
    await page.getByTestId('push-this-device').waitFor();
    expect(await page.getByTestId('push-this-device').isChecked()).toBe(false);
  });
});
