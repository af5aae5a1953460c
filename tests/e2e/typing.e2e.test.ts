import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { join } from 'node:path';
import { type Browser } from 'playwright-core';
import { SHOTS, openChat, signIn, startE2E, stopE2E } from '../factories/browser.ts';
import type { TestRuntime } from '../factories/runtime.ts';
import { inboundText } from '../../shared/whatsapp/cloud/payloads.ts';

/**
 * Typing indicator end to end, in Debian's Chromium: the admin and the member open the same chat;
 * while the admin types the member sees 'Demo Admin is typing...', which goes away when the admin
 * sends the message, and again when the admin clears the input.
 */
let rt: TestRuntime;
let browser: Browser;

beforeAll(async () => ({ rt, browser } = await startE2E()));
afterAll(() => stopE2E({ browser, rt }));

describe('typing indicator in the browser', () => {
  it("shows a teammate's typing in the open chat until they send or stop", async () => {
    const wa = '16505550177';
    const chatId = `${wa}@c.us`;
    expect((await rt.postWebhook(inboundText(rt.phone, wa, 'Anyone there?', { name: 'Typing Customer' }))).status).toBe(200);
    const [admin, member] = await Promise.all([signIn(browser, rt, rt.adminEmail), signIn(browser, rt, rt.memberEmail)]);
    await Promise.all([openChat(admin, chatId), openChat(member, chatId)]);
    const indicator = member.getByTestId('typing-indicator');
    const input = admin.getByTestId('composer-input');

    // the admin types: the member sees who
    await input.pressSequentially('Hello', { delay: 20 });
    await expect.poll(() => indicator.textContent(), { timeout: 5_000 }).toBe('Demo Admin is typing...');
    // the admin's own thread shows nothing
    expect(await admin.getByTestId('typing-indicator').textContent()).toBe('');
    await member.screenshot({ path: join(SHOTS, 'typing-desktop.png') });

    // the admin sends: it goes away
    await input.press('Enter');
    await expect.poll(() => indicator.textContent(), { timeout: 5_000 }).toBe('');

    // types again (a start right after a stop goes through), then clears the input: goes away
    await input.pressSequentially('One more', { delay: 20 });
    await expect.poll(() => indicator.textContent(), { timeout: 5_000 }).toBe('Demo Admin is typing...');
    await input.fill('');
    await expect.poll(() => indicator.textContent(), { timeout: 5_000 }).toBe('');
    await Promise.all([admin.context().close(), member.context().close()]);
  });
});
