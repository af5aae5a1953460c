import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { join } from 'node:path';
import sharp from 'sharp';
import { type Browser, type Page } from 'playwright-core';
import { DESKTOP, PHONE, SHOTS, openChat, openMenu, signIn as signInAs, startE2E, stopE2E } from '../factories/browser.ts';
import type { TestRuntime } from '../factories/runtime.ts';
import { inboundText, newWamid } from '../../shared/whatsapp/cloud/payloads.ts';
import { eventually } from '../factories/wait.ts';

/**
 * Reply (issue 5) in Debian's Chromium: a customer message arrives, the agent picks Reply from the
 * message menu, sees the quote above the composer (author, first line, ×), sends; the Graph
 * stand-in receives `context.message_id` = the customer's wamid and the sent bubble shows the quote,
 * which jumps back to the original. Esc (and ×) cancel a reply; R on a focused message replies;
 * a photo with a caption carries the quote too. Phone 390x844 as well.
 * Screenshots go to test-results/screenshots.
 */
let rt: TestRuntime;
let browser: Browser;
let adminToken: string;

/** Sign in through the login page (tests/factories/browser.ts). */
const signIn = (email: string, viewport = DESKTOP): Promise<Page> => signInAs(browser, rt, email, viewport, { touch: true });

const api = <T>(path: string): Promise<T> => rt.orgJson<T>(adminToken, path);

async function customerSays(wa: string, body: string, name: string, id = newWamid()): Promise<string> {
  expect((await rt.postWebhook(inboundText(rt.phone, wa, body, { name, id }))).status).toBe(200);
  await eventually(async () => (await api<{ messages: Array<{ message_id?: string }> }>(`/chats/${encodeURIComponent(`${wa}@c.us`)}/messages`)).messages.some((m) => m.message_id === id), 15_000, `message ${body}`);
  return id;
}

type Sent = { type?: string; to?: string; text?: { body?: string }; image?: { caption?: string }; context?: { message_id?: string } };
const sentOfType = (type: string) => rt.graph.sent.map((s) => s.body as Sent).filter((b) => b?.type === type);

beforeAll(async () => ({ rt, browser, adminToken } = await startE2E()));
afterAll(() => stopE2E({ browser, rt }));

describe('reply in the browser', () => {
  it('Reply from the menu quotes the customer’s message, sends context.message_id and shows the quote; Esc cancels', async () => {
    const wa = '16505550501';
    const chatId = `${wa}@c.us`;
    const first = await customerSays(wa, 'Do you deliver on Sundays?\nAsking for next week.', 'Grace Hopper');
    await customerSays(wa, 'Also, is parking free?', 'Grace Hopper');
    const page = await signIn(rt.adminEmail);
    const thread = await openChat(page, chatId);
    const msg = thread.locator('[data-testid="message"][data-from-me="false"]').filter({ hasText: 'Do you deliver on Sundays' });
    const input = page.getByTestId('composer-input');
    const quote = page.getByTestId('composer-quote');

    // Esc cancels a reply preview (and does not close the chat)
    await openMenu(msg);
    await page.getByTestId('menu-reply').click();
    await quote.waitFor();
    await expect.poll(() => input.evaluate((el) => el === document.activeElement)).toBe(true);
    await page.keyboard.press('Escape');
    await quote.waitFor({ state: 'detached', timeout: 5_000 });
    expect(page.url()).toContain(encodeURIComponent(chatId));

    // × cancels too
    await openMenu(msg);
    await page.getByTestId('menu-reply').click();
    await quote.waitFor();
    await page.getByTestId('composer-quote-cancel').click();
    await quote.waitFor({ state: 'detached', timeout: 5_000 });

    // Reply, see the preview (author, first line only), send
    await openMenu(msg);
    await page.getByTestId('menu-reply').click();
    await quote.waitFor();
    expect(await quote.getByTestId('composer-quote-author').textContent()).toBe('Grace Hopper');
    expect(await quote.getByTestId('composer-quote-body').textContent()).toBe('Do you deliver on Sundays?');
    await page.screenshot({ path: join(SHOTS, 'reply-preview-desktop.png') });
    await input.fill('Yes, from 10 to 4.');
    await page.keyboard.press('Enter');
    await quote.waitFor({ state: 'detached', timeout: 5_000 });

    await eventually(async () => sentOfType('text').some((b) => b.text?.body === 'Yes, from 10 to 4.'), 15_000, 'the reply sent to the Graph API');
    const sent = sentOfType('text').find((b) => b.text?.body === 'Yes, from 10 to 4.')!;
    expect(sent).toMatchObject({ to: wa, context: { message_id: first } });

    // the sent bubble shows the quote; it survives the POST answer and a reload
    const mine = thread.locator('[data-testid="message"][data-from-me="true"]').filter({ hasText: 'Yes, from 10 to 4.' });
    await expect.poll(() => mine.getAttribute('data-unique-id'), { timeout: 15_000 }).not.toMatch(/^local/);
    const block = mine.getByTestId('message-quote');
    await block.waitFor();
    expect(await block.getAttribute('data-quoted-id')).toBe(first);
    expect(await block.textContent()).toContain('Grace Hopper');
    expect(await block.textContent()).toContain('Do you deliver on Sundays?');
    await page.screenshot({ path: join(SHOTS, 'reply-sent-desktop.png') });

    // clicking the quote shows the original (highlighted like the pinned bar does)
    await block.click();
    await expect.poll(() => msg.getAttribute('class'), { timeout: 5_000 }).toContain('flash');

    await page.reload();
    await thread.getByTestId('message').first().waitFor({ timeout: 15_000 });
    await mine.getByTestId('message-quote').waitFor({ timeout: 15_000 });
    await page.context().close();
  });

  it('R on a focused message replies; a photo with a caption carries the quote; phone layout', async () => {
    const wa = '16505550502';
    const chatId = `${wa}@c.us`;
    const wamid = await customerSays(wa, 'Can you show me the blue one?', 'Alan Turing');
    const page = await signIn(rt.adminEmail);
    const thread = await openChat(page, chatId);
    const msg = thread.locator('[data-testid="message"][data-from-me="false"]').filter({ hasText: 'show me the blue one' });
    const quote = page.getByTestId('composer-quote');

    await msg.locator('.bubble').focus();
    await page.keyboard.press('r');
    await quote.waitFor();
    expect(await page.getByTestId('composer-input').inputValue()).toBe(''); // the R did not land in the input
    const png = await sharp({ create: { width: 160, height: 100, channels: 3, background: { r: 20, g: 60, b: 200 } } }).png().toBuffer();
    await page.getByTestId('composer-file').setInputFiles({ name: 'blue.png', mimeType: 'image/png', buffer: png });
    await page.getByTestId('attachment-preview').waitFor();
    await page.getByTestId('composer-input').fill('The blue one');
    await page.getByTestId('composer-send').click();
    await quote.waitFor({ state: 'detached', timeout: 15_000 });
    await eventually(async () => sentOfType('image').some((b) => b.image?.caption === 'The blue one'), 15_000, 'the photo sent to the Graph API');
    expect(sentOfType('image').find((b) => b.image?.caption === 'The blue one')).toMatchObject({ to: wa, context: { message_id: wamid } });
    const mine = thread.locator('[data-testid="message"][data-from-me="true"]').filter({ hasText: 'The blue one' });
    await mine.getByTestId('message-quote').waitFor({ timeout: 15_000 });
    await page.context().close();

    // phone: the menu by long press is covered elsewhere; the hover Reply button is reachable by tap
    const phone = await signIn(rt.adminEmail, PHONE);
    const pthread = await openChat(phone, chatId);
    const pmsg = pthread.locator('[data-testid="message"][data-from-me="false"]').filter({ hasText: 'show me the blue one' });
    await pmsg.locator('.bubble').focus();
    await phone.keyboard.press('r');
    const pquote = phone.getByTestId('composer-quote');
    await pquote.waitFor();
    const box = (await pquote.boundingBox())!;
    expect(box.x).toBeGreaterThanOrEqual(0);
    expect(box.x + box.width).toBeLessThanOrEqual(PHONE.width);
    const cancel = (await phone.getByTestId('composer-quote-cancel').boundingBox())!;
    expect(cancel.x + cancel.width).toBeLessThanOrEqual(PHONE.width);
    await phone.screenshot({ path: join(SHOTS, 'reply-preview-phone.png') });
    await phone.getByTestId('composer-input').fill('It comes in navy too.');
    await phone.getByTestId('composer-send').tap();
    await pquote.waitFor({ state: 'detached', timeout: 15_000 });
    await pthread.locator('[data-testid="message"][data-from-me="true"]').filter({ hasText: 'It comes in navy too.' }).getByTestId('message-quote').waitFor({ timeout: 15_000 });
    await phone.screenshot({ path: join(SHOTS, 'reply-sent-phone.png') });
    await phone.context().close();
  });
});
