import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { join } from 'node:path';
import type { Browser } from 'playwright-core';
import { DESKTOP, PHONE, SHOTS, signIn, toast, startE2E, stopE2E } from '../factories/browser.ts';
import type { TestRuntime } from '../factories/runtime.ts';
import { PHONE_MESSAGES } from '../../shared/phone/phone.schemas.ts';
import { STANDIN_PHONE_TOKEN } from '../../scripts/local/graph-standin.ts';
import { TRIAL } from '../../shared/plan/catalog.rules.ts';

/**
 * /settings/phones end to end in Chromium (issue 3 part 8): an admin adds a Cloud API number
 * through the Add phone dialog (a refused token first: the spec §8 error toast and Meta's reason
 * under the field; then the right one: 'Adding phone...', 'New phone added successfully!' and the
 * new row with the counter, whose denominator is the seeded trial's phone limit, spec §9), and a member sees the list without the Add button (phone layout).
 * Screenshots go to test-results/screenshots.
 */
let rt: TestRuntime;
let browser: Browser;
const NEW_ID = '109876543210987'; // built into the Graph stand-in (scripts/local/graph-standin.ts PHONE_NUMBERS)

beforeAll(async () => ({ rt, browser } = await startE2E()));
afterAll(() => stopE2E({ browser, rt }));

describe('phones settings in the browser', () => {
  it('an admin adds a phone through the dialog and sees the toasts and the new row', async () => {
    const admin = await signIn(browser, rt, rt.adminEmail, DESKTOP);
    await admin.goto(`${rt.url.replace('localhost', '127.0.0.1')}/settings/phones`);
    await admin.getByTestId('phones-page').waitFor();
    await expect.poll(() => admin.getByTestId('phone-row').count()).toBe(1);
    expect(await admin.getByTestId('phone-counter').textContent()).toBe(`1 / ${TRIAL.phones} connected`);
    await expect.poll(() => admin.getByTestId('phone-status').first().textContent()).toBe('Ready');

    await admin.getByTestId('add-phone').click();
    const dialog = admin.getByTestId('add-phone-dialog');
    await dialog.waitFor();
    await dialog.getByTestId('phone-phone_number_id').fill(NEW_ID);
    await dialog.getByTestId('phone-waba_id').fill('102290129340398');
    await dialog.getByTestId('phone-access_token').fill('EAAG-wrong-token');
    expect(await dialog.getByTestId('phone-access_token').getAttribute('type')).toBe('password');
    await dialog.getByTestId('add-phone-submit').click();
    await toast(admin, PHONE_MESSAGES.addFailed).waitFor();
    await expect.poll(() => dialog.getByTestId('phone-access_token-error').textContent()).toContain('Invalid OAuth access token');
    await admin.screenshot({ path: join(SHOTS, 'phones-add-error-desktop.png') });

    await dialog.getByTestId('phone-access_token').fill(STANDIN_PHONE_TOKEN);
    await dialog.getByTestId('add-phone-submit').click();
    await toast(admin, PHONE_MESSAGES.adding).waitFor();
    await toast(admin, PHONE_MESSAGES.added).waitFor();
    await dialog.waitFor({ state: 'detached' });
    const row = admin.locator(`[data-testid="phone-row"][data-phone-id="${NEW_ID}"]`);
    await row.waitFor();
    expect(await row.textContent()).toContain('Chorus Support');
    await expect.poll(() => admin.getByTestId('phone-counter').textContent()).toBe(`2 / ${TRIAL.phones} connected`);
    await admin.screenshot({ path: join(SHOTS, 'phones-desktop.png') });
  });

  it('a member sees the list without the Add button', async () => {
    const member = await signIn(browser, rt, rt.memberEmail, PHONE);
    await member.goto(`${rt.url.replace('localhost', '127.0.0.1')}/settings/phones`);
    await member.getByTestId('phones-page').waitFor();
    await expect.poll(() => member.getByTestId('phone-row').count()).toBe(2);
    expect(await member.getByTestId('add-phone').count()).toBe(0);
    await member.screenshot({ path: join(SHOTS, 'phones-phone.png') });
  });
});
