import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { join } from 'node:path';
import type { Browser } from 'playwright-core';
import { DESKTOP, SHOTS, signIn, toast, startE2E, stopE2E } from '../factories/browser.ts';
import type { TestRuntime } from '../factories/runtime.ts';

/**
 * Linking a WhatsApp Web number on /settings/phones in Chromium: the admin enters the number and
 * accepts the risk, the in-process session worker starts the session on the stand-in
 * (scripts/local/wa-web-standin.ts, here waiting at its QR), the QR arrives over the WebSocket and
 * is drawn as an image; the phone 'scans' it and the dialog and the list show the number ready.
 */
let rt: TestRuntime;
let browser: Browser;

beforeAll(async () => ({ rt, browser } = await startE2E()));
afterAll(() => stopE2E({ browser, rt }));

describe('WhatsApp Web linking in the browser', () => {
  it('shows the QR pushed over the socket, then the linked state after the scan', async () => {
    rt.waWeb.autoScan = false;
    const admin = await signIn(browser, rt, rt.adminEmail, DESKTOP);
    await admin.goto(`${rt.url.replace('localhost', '127.0.0.1')}/settings/phones`);
    await admin.getByTestId('phones-page').waitFor();
    await admin.getByTestId('link-wa-web').click();
    const dialog = admin.getByTestId('wa-web-dialog');
    await dialog.getByTestId('wa-web-phone').fill('+91 98111 44455');
    expect(await dialog.getByTestId('wa-web-submit').isDisabled()).toBe(true); // the risk must be accepted first
    await dialog.getByTestId('wa-web-accept').check();
    await dialog.getByTestId('wa-web-submit').click();

    const row = admin.locator('[data-testid="phone-row"]', { hasText: 'WhatsApp Web' });
    await row.waitFor();
    const phoneId = (await row.getAttribute('data-phone-id'))!;
    await rt.waWebWorker.tick(); // the worker's next heartbeat, now
    const qr = dialog.getByTestId('wa-web-qr');
    await qr.waitFor({ timeout: 15_000 });
    expect(await qr.getAttribute('src')).toMatch(/^data:image\/png;base64,/);
    expect(await dialog.getByTestId('wa-web-state').textContent()).toBe('Waiting for the QR scan');
    await expect.poll(() => row.getByTestId('phone-status').textContent()).toBe('Waiting for the QR scan');
    await admin.screenshot({ path: join(SHOTS, 'wa-web-qr-desktop.png') });

    rt.waWeb.scan(phoneId);
    await dialog.getByTestId('wa-web-linked').waitFor({ timeout: 15_000 });
    await toast(admin, 'WhatsApp Web linked: the number is ready.').waitFor();
    await expect.poll(() => row.getByTestId('phone-status').textContent()).toBe('Ready');
    await dialog.getByTestId('wa-web-close').click();
    await dialog.waitFor({ state: 'detached' });
  });
});
