import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { join } from 'node:path';
import { type Browser, type Page } from 'playwright-core';
import { DESKTOP, SHOTS, signIn as signInAs, startE2E, stopE2E } from '../factories/browser.ts';
import type { TestRuntime } from '../factories/runtime.ts';
import { inboundText, statusUpdate } from '../../shared/whatsapp/cloud/payloads.ts';
import { eventually } from '../factories/wait.ts';

/**
 * The walking skeleton end to end, in Debian's Chromium: the admin and the member sign in in two
 * browsers, a signed customer message arrives in both without reload, the admin replies, the
 * Graph stand-in receives exactly Meta's JSON, and a `delivered` status moves the tick.
 * Screenshots of each main screen (desktop 1440x900, phone 390x844) go to test-results/screenshots.
 */
let rt: TestRuntime;
let browser: Browser;

/** Sign in through the login page (tests/factories/browser.ts). */
const signIn = (email: string, viewport = DESKTOP): Promise<Page> => signInAs(browser, rt, email, viewport);

beforeAll(async () => ({ rt, browser } = await startE2E()));
afterAll(() => stopE2E({ browser, rt }));

describe('shared inbox in the browser', () => {
  it('a wrong password is refused with the spec’s words', async () => {
    const page = await browser.newPage();
    await page.goto(`${rt.url.replace('localhost', '127.0.0.1')}/login`);
    await page.getByTestId('login-email').fill(rt.adminEmail);
    await page.getByTestId('login-password').fill('wrong-password-1');
    await page.getByTestId('login-submit').click();
    await expect.poll(() => page.getByTestId('login-error').textContent(), { timeout: 15_000 }).toContain('Invalid email or password');
    await page.screenshot({ path: join(SHOTS, 'login-desktop.png') });
    await page.close();
  });

  it('message in, reply out, ticks move — live in two browsers', async () => {
    const admin = await signIn(rt.adminEmail);
    const member = await signIn(rt.memberEmail);
    await admin.screenshot({ path: join(SHOTS, 'chats-empty-desktop.png') });

    // a customer writes: both browsers show it without reload
    const wa = '16505550101';
    const chatId = `${wa}@c.us`;
    expect((await rt.postWebhook(inboundText(rt.phone, wa, 'Hi! Is my order <b>shipped</b>?', { name: 'Ada Lovelace' }))).status).toBe(200);
    for (const page of [admin, member]) {
      const row = page.locator(`[data-testid="chat-row"][data-chat-id="${chatId}"]`);
      await row.waitFor({ timeout: 15_000 });
      await expect.poll(() => row.textContent()).toContain('Ada Lovelace');
      await expect.poll(() => row.getByTestId('unread-badge').textContent()).toBe('1');
    }

    // the admin opens it: markup is shown as text
    await admin.locator(`[data-testid="chat-row"][data-chat-id="${chatId}"]`).click();
    const thread = admin.getByTestId('thread');
    await thread.getByTestId('message').first().waitFor();
    await expect.poll(() => thread.getByTestId('message').first().textContent()).toContain('Hi! Is my order <b>shipped</b>?');
    expect(await thread.locator('b').count()).toBe(0);
    await admin.screenshot({ path: join(SHOTS, 'chat-open-desktop.png') });

    // the admin replies with Enter
    await admin.getByTestId('composer-input').fill('Yes, it left our warehouse today.');
    await admin.getByTestId('composer-input').press('Enter');
    const sentRecord = await eventually(async () => rt.graph.sent.find((s) => JSON.stringify(s.body).includes('warehouse')), 15_000, 'Graph send');
    expect(sentRecord.path).toBe(`/${rt.env.WHATSAPP_GRAPH_VERSION ?? 'v24.0'}/${rt.phone.phone_number_id}/messages`);
    expect(sentRecord.authorization).toBe(`Bearer ${rt.env.WHATSAPP_ACCESS_TOKEN}`);
    expect(sentRecord.body).toEqual({
      messaging_product: 'whatsapp',
      recipient_type: 'individual',
      to: wa,
      type: 'text',
      text: { preview_url: false, body: 'Yes, it left our warehouse today.' },
      // our message key, which Meta echoes in the statuses (reconciles a send that crashed: issue 23)
      biz_opaque_callback_data: expect.stringMatching(new RegExp(`^chorus1\\|${chatId.replace('.', '\\.')}\\|\\d+\\|[0-9A-Z]{26}$`)),
    });

    // the member sees the reply live in the chat list preview
    await expect.poll(() => member.locator(`[data-testid="chat-row"][data-chat-id="${chatId}"]`).textContent(), { timeout: 15_000 }).toContain('warehouse');

    // delivered: the admin's tick moves from pending/sent to delivered
    const mine = thread.locator('[data-testid="message"][data-from-me="true"]').last();
    await mine.waitFor();
    expect(Number(await mine.getAttribute('data-ack'))).toBeLessThan(2);
    await rt.postWebhook(statusUpdate(rt.phone, { id: sentRecord.wamid!, status: 'delivered', recipient: wa }));
    await expect.poll(() => mine.getAttribute('data-ack'), { timeout: 15_000 }).toBe('2');
    await admin.screenshot({ path: join(SHOTS, 'chat-delivered-desktop.png') });

    // read moves it again
    await rt.postWebhook(statusUpdate(rt.phone, { id: sentRecord.wamid!, status: 'read', recipient: wa }));
    await expect.poll(() => mine.getAttribute('data-ack'), { timeout: 15_000 }).toBe('3');
    await admin.context().close();
    await member.context().close();
  });

  it('a send WhatsApp refuses shows failed with the reason', async () => {
    const admin = await signIn(rt.adminEmail);
    const wa = '16505550202';
    await rt.postWebhook(inboundText(rt.phone, wa, 'ping', { name: 'Grace Hopper' }));
    const row = admin.locator(`[data-testid="chat-row"][data-chat-id="${wa}@c.us"]`);
    await row.waitFor({ timeout: 15_000 });
    await row.click();
    rt.graph.failNext(131026);
    await admin.getByTestId('composer-input').fill('This will bounce');
    await admin.getByTestId('composer-send').click();
    const failed = admin.locator('[data-testid="message"][data-ack="-1"]');
    await failed.waitFor({ timeout: 15_000 });
    await expect.poll(() => failed.getByTestId('delivery-error').textContent()).toMatch(/could not be delivered/);
    await admin.screenshot({ path: join(SHOTS, 'chat-failed-desktop.png') });
    await admin.context().close();
  });

  it('works on a phone: one pane at a time', async () => {
    const phone = await signIn(rt.memberEmail, { width: 390, height: 844 });
    await phone.screenshot({ path: join(SHOTS, 'chats-phone.png') });
    const row = phone.locator('[data-testid="chat-row"]').first();
    await row.waitFor({ timeout: 15_000 });
    await row.click();
    await phone.getByTestId('composer-input').waitFor();
    await phone.getByTestId('message').first().waitFor({ timeout: 15_000 });
    expect(await phone.getByTestId('chat-list').isVisible()).toBe(false);
    await phone.screenshot({ path: join(SHOTS, 'chat-open-phone.png') });
    await phone.context().close();
  });
});
