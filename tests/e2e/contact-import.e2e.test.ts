import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { join } from 'node:path';
import { type Browser } from 'playwright-core';
import { DESKTOP, PHONE, SHOTS, signIn, startE2E, stopE2E } from '../factories/browser.ts';
import type { TestRuntime } from '../factories/runtime.ts';

/**
 * The contacts CSV import in Debian's Chromium (issue 15 item 3): pick a file, the mapping is
 * guessed from the header, the preview counts the rows, the repeated number and the bad row (with
 * its row number), the import runs with a progress bar to 'done', the contacts are listed, and undo
 * removes them. Screenshots: contacts-import-*.png at 1440x900 and 390x844.
 */
let rt: TestRuntime;
let browser: Browser;
const base = () => rt.url.replace('localhost', '127.0.0.1');
const CSV = ['Name,Phone,City', 'Lin Wei,+1 415 555 0161,Oakland', 'Lin (again),+1 (415) 555-0161,Oakland', 'Omar Haddad,+44 7911 123456,Leeds', 'Nobody,not a number,', '=cmd(),098765 43210,Pune'].join('\n');

beforeAll(async () => {
  ({ rt, browser } = await startE2E());
});
afterAll(() => stopE2E({ browser, rt }));

describe('contacts CSV import in the browser', () => {
  it('maps, previews, imports with a progress bar, and undoes', async () => {
    const page = await signIn(browser, rt, rt.adminEmail, DESKTOP);
    await page.goto(`${base()}/contacts`);
    await page.getByTestId('contact-import-open').click();
    await page.getByTestId('contact-import-file').setInputFiles({ name: 'people.csv', mimeType: 'text/csv', buffer: Buffer.from(CSV) });
    const preview = page.getByTestId('contact-import-preview');
    await preview.waitFor();
    expect(await page.getByTestId('contact-import-map').evaluateAll((els) => els.map((e) => (e as HTMLSelectElement).value))).toEqual(['name', 'phone', 'ignore']);
    expect(await preview.innerText()).toContain('3 contacts to import, 1 rows repeat a number above them (left out), 1 rows with errors (left out)');
    expect(await page.getByTestId('contact-import-errors').innerText()).toContain('Row 5: phone “not a number” is not a valid phone number');
    await page.screenshot({ path: join(SHOTS, 'contacts-import-preview-desktop.png') });
    await page.getByTestId('contact-import-start').click();
    const status = page.getByTestId('contact-import-status');
    await page.locator('[data-testid="contact-import-status"][data-status="done"]').waitFor({ timeout: 60_000 });
    expect(await status.innerText()).toBe('Done: 3 contacts added, 0 already existed.');
    expect(await page.getByTestId('contact-import-progress').getAttribute('value')).toBe('3');
    await page.screenshot({ path: join(SHOTS, 'contacts-import-done-desktop.png') });
    await expect.poll(async () => page.getByTestId('contact-row').count(), { timeout: 15_000 }).toBe(3);
    // the formula-looking name is kept as text
    expect(await page.getByTestId('contact-row').allInnerTexts()).toEqual(expect.arrayContaining([expect.stringContaining('=cmd()')]));
    // undo
    await page.getByRole('button', { name: 'Undo import' }).click();
    await page.locator('[data-testid="contact-import-status"][data-status="undone"]').waitFor({ timeout: 60_000 });
    expect(await status.innerText()).toBe('Undone: 3 contacts removed.');
    await expect.poll(async () => page.getByTestId('contact-row').count(), { timeout: 15_000 }).toBe(0);
    await page.close();
  });

  it('reports a stray quote by its file line, keeps the rows after it, counts blank lines and takes a UK test-range mobile (issue 49 item 6)', async () => {
    const page = await signIn(browser, rt, rt.adminEmail, DESKTOP);
    await page.goto(`${base()}/contacts`);
    await page.getByTestId('contact-import-open').click();
    const csv = ['Name,Phone', 'Amy,+447700900601', '"Ben,+1 415 555 0171', 'Cat,+1 415 555 0172', '', 'Dan,+1 415 555 0173', 'Eve,not a number'].join('\n');
    await page.getByTestId('contact-import-file').setInputFiles({ name: 'quote.csv', mimeType: 'text/csv', buffer: Buffer.from(csv) });
    const preview = page.getByTestId('contact-import-preview');
    await preview.waitFor();
    expect(await preview.innerText()).toContain('3 contacts to import, 2 rows with errors (left out)');
    const errors = await page.getByTestId('contact-import-errors').innerText();
    expect(errors).toContain('Row 3: has a quote (") that is not closed');
    expect(errors).toContain('Row 7: phone “not a number” is not a valid phone number');
    await page.close();
  });

  it('shows the preview on a phone', async () => {
    const page = await signIn(browser, rt, rt.adminEmail, PHONE);
    await page.goto(`${base()}/contacts`);
    await page.getByTestId('contact-import-open').click();
    await page.getByTestId('contact-import-file').setInputFiles({ name: 'people.csv', mimeType: 'text/csv', buffer: Buffer.from(CSV) });
    await page.getByTestId('contact-import-preview').waitFor();
    await page.screenshot({ path: join(SHOTS, 'contacts-import-preview-phone.png') });
    await page.close();
  });
});
