import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { join } from 'node:path';
import { type Browser, type Page } from 'playwright-core';
import { PHONE, SHOTS, signIn, startE2E, stopE2E } from '../factories/browser.ts';
import type { TestRuntime } from '../factories/runtime.ts';
import { envelope, newWamid } from '../../shared/whatsapp/cloud/payloads.ts';
import { eventually } from '../factories/wait.ts';

/**
 * Global search end to end (issue 14), in Debian's Chromium: a chat with 400 customer messages
 * whose oldest holds a rare word, a private note and a ticket. Ctrl+F opens the dialog; the
 * message is found, chosen, its thread opens scrolled to it (8 pages back) and highlighted, and
 * the dialog closes; the note, the ticket (ticket list) and the contact (its chat) too; the box
 * above the chat list opens the same dialog. Screenshots at 1440x900 and 390x844.
 */
let rt: TestRuntime;
let browser: Browser;
let adminToken: string;

beforeAll(async () => ({ rt, browser, adminToken } = await startE2E()));
afterAll(() => stopE2E({ browser, rt }));

const api = <T>(path: string, init: RequestInit & { json?: unknown } = {}): Promise<T> => rt.orgJson<T>(adminToken, path, init);

async function searchFor(page: Page, q: string, tab: string) {
  await page.keyboard.press('Control+f');
  const dialog = page.getByTestId('search-dialog');
  await dialog.waitFor();
  await page.getByTestId('search-input').fill(q);
  await page.getByTestId(`search-tab-${tab}`).click();
  const hit = dialog.getByTestId('search-hit').first();
  // the note and the contact are not awaited through the API first: the index may trail under load
  await hit.waitFor({ timeout: 30_000 });
  return { dialog, hit };
}

describe('search in the browser', () => {
  it('finds and opens a message far back in its thread, a note, a ticket and a contact', async () => {
    const wa = '16505550199';
    const chatId = `${wa}@c.us`;
    const n = 400;
    const now = Math.floor(Date.now() / 1000) - n;
    const messages = Array.from({ length: n }, (_, i) => ({ from: wa, id: newWamid(), timestamp: String(now + i), type: 'text', text: { body: i === 0 ? 'The quokka parcel never came' : `Routine message ${i}` } }));
    for (let i = 0; i < n; i += 100) expect((await rt.postWebhook(envelope(rt.phone, { contacts: [{ profile: { name: 'Zebulon Searchable' }, wa_id: wa }], messages: messages.slice(i, i + 100) }))).status).toBe(200);
    // indexed (the consumer trails the ingest): the oldest message, by its rare word
    const target = await eventually(async () => {
      const r = await api<{ results: { messages: { items: Array<{ unique_id: string }> } } }>('/search?q=quokka&kind=messages');
      return r.results.messages.items[0]?.unique_id;
    }, 60_000);
    await api(`/chats/${encodeURIComponent(chatId)}/notes`, { method: 'POST', json: { body: 'Wombat escalation agreed with finance' } });
    const ticket = await api<{ ticket: { ticket_id: string } }>('/tickets', { method: 'POST', json: { chat_id: chatId, quoted_message_id: target, subject: 'Platypus refund request' } });
    await eventually(async () => {
      const r = await api<{ results: Record<string, { items: unknown[] }> }>('/search?q=platypus');
      return r.results.tickets!.items.length > 0;
    }, 60_000);

    const page = await signIn(browser, rt, rt.adminEmail);
    const step = (s: string) => console.log(`search e2e: ${s}`);
    step('signed in');
    // the message: found, chosen, its thread opens on it (loading older pages) highlighted
    let { dialog, hit } = await searchFor(page, 'quokka', 'messages');
    expect(await hit.locator('mark').textContent()).toBe('quokka');
    await page.screenshot({ path: join(SHOTS, 'search-dialog-desktop.png') });
    await page.keyboard.press('Enter');
    const msg = page.locator(`[data-unique-id="${target}"]`);
    await msg.waitFor({ timeout: 20_000 }).catch(async (e: unknown) => {
      await page.screenshot({ path: join(SHOTS, 'search-jump-failed.png') });
      step(`url ${page.url()}`);
      throw e;
    });
    await expect.poll(() => msg.evaluate((el) => el.classList.contains('flash')), { timeout: 10_000 }).toBe(true);
    await expect.poll(() => msg.evaluate((el) => {
      const r = el.getBoundingClientRect();
      return r.top >= 0 && r.bottom <= window.innerHeight;
    })).toBe(true);
    await dialog.waitFor({ state: 'detached', timeout: 5_000 });
    expect(page.url()).toContain(`/chats/${encodeURIComponent(chatId)}`);

    step('message jumped');
    // the note
    ({ dialog, hit } = await searchFor(page, 'wombat', 'notes'));
    await hit.click();
    await dialog.waitFor({ state: 'detached', timeout: 5_000 });
    await page.getByText('Wombat escalation agreed with finance').waitFor();

    step('note');
    // the ticket: the ticket list with it selected
    ({ dialog, hit } = await searchFor(page, 'platypus', 'tickets'));
    await hit.click();
    await dialog.waitFor({ state: 'detached', timeout: 5_000 });
    expect(page.url()).toContain(`ticket=${ticket.ticket.ticket_id}`);

    step('ticket');
    // the contact (by name, with a typo): its chat
    ({ dialog, hit } = await searchFor(page, 'zebulom', 'contacts'));
    await hit.click();
    await dialog.waitFor({ state: 'detached', timeout: 5_000 });
    expect(decodeURIComponent(page.url())).toContain(`/chats/${chatId}`);

    // the box above the chat list opens the same dialog with what was typed
    await page.getByTestId('chat-list-search').pressSequentially('q');
    await page.getByTestId('search-dialog').waitFor();
    expect(await page.getByTestId('search-input').inputValue()).toBe('q');
    await page.context().close();

    const phone = await signIn(browser, rt, rt.adminEmail, PHONE);
    await searchFor(phone, 'quokka', 'messages');
    await phone.screenshot({ path: join(SHOTS, 'search-dialog-phone.png') });
    await phone.context().close();
  }, 240_000);
});
