import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { join } from 'node:path';
import { type Browser, type Page } from 'playwright-core';
import { DESKTOP, PHONE, SHOTS, openChat, signIn, startE2E, stopE2E } from '../factories/browser.ts';
import type { TestRuntime } from '../factories/runtime.ts';
import { envelope, newWamid } from '../../shared/whatsapp/cloud/payloads.ts';
import type { Chat } from '../../shared/chat/chat.schemas.ts';
import { db } from '../../shared/db/service.ts';
import { forgetOrgPreferences } from '../../shared/org/preferences.ts';

/**
 * Customer identity in the browser (issue 41 §7, issue 49 item 2), Debian's Chromium: a 2026
 * webhook from a WhatsApp username user without a number makes an opaque `cht_…` chat that reads
 * '@ana' / 'Number not shared' in the list, the header and the details panel (never `cht_…`), and
 * whose contact lists the WhatsApp user id; a customer whose user id WhatsApp replaced shows the old
 * one struck with what replaced it; a number + user id customer with a long name and the AI agent
 * on keeps room for the name in the header at 1440×900 and 390×844 with the details panel open;
 * with masking on, a member sees that number masked and still 'Number not shared' for '@ana'.
 * Screenshots: test-results/screenshots/identity-*.png.
 */
let rt: TestRuntime;
let browser: Browser;
let adminToken: string;
const ANA = 'BR.17730000000000000101';
const BRUNA = { wa: '5511987650123', user: 'BR.17730000000000000102', name: 'Bruna Fernandes de Albuquerque Lima' };
const CARLA = { old: 'BR.17730000000000000103', new: 'BR.17730000000000000104' };
const nowS = () => String(Math.floor(Date.now() / 1000));

/** The chat of a BSUID (the API's list, as the admin). */
async function chatOf(userId: string): Promise<Chat> {
  const { chats } = await rt.orgJson<{ chats: Chat[] }>(adminToken, '/chats');
  const chat = chats.find((c) => c.identity?.user_id === userId);
  if (!chat) throw new Error(`no chat for ${userId}`);
  return chat;
}

/** What a person can read on the page: its text, and the tooltips and accessible names. */
const readable = (page: Page): Promise<string> =>
  page.evaluate(() => {
    const attrs = Array.from(document.querySelectorAll('[title], [aria-label], [alt], [placeholder]')).flatMap((el) => ['title', 'aria-label', 'alt', 'placeholder'].map((a) => el.getAttribute(a) ?? ''));
    return [document.title, document.body.innerText, ...attrs].join('\n');
  });

/** Open the chat's details panel (remembered open or closed per browser). */
async function openDetails(page: Page): Promise<void> {
  const toggle = page.getByTestId('chat-details-toggle');
  if ((await toggle.getAttribute('aria-pressed')) !== 'true') await toggle.click();
  await page.getByTestId('chat-contact').waitFor();
}

/** The header's name keeps its room and is not cut at the top (issue 49 item 2). */
async function expectRoomyTitle(page: Page, minWidth: number): Promise<void> {
  const header = (await page.getByTestId('thread-header').boundingBox())!;
  const title = (await page.getByTestId('thread-name').boundingBox())!;
  expect(title.y).toBeGreaterThanOrEqual(header.y);
  expect(title.y + title.height).toBeLessThanOrEqual(header.y + header.height);
  expect(title.width).toBeGreaterThanOrEqual(minWidth);
}

beforeAll(async () => {
  ({ rt, browser, adminToken } = await startE2E());
  // a username user without a number (2026)
  await rt.postWebhook(envelope(rt.phone, { contacts: [{ user_id: ANA, profile: { username: '@ana' } }], messages: [{ from_user_id: ANA, id: newWamid(), timestamp: nowS(), type: 'text', text: { body: 'Oi' } }] }));
  // a customer with a number and a user id, a long name
  await rt.postWebhook(
    envelope(rt.phone, {
      contacts: [{ wa_id: BRUNA.wa, user_id: BRUNA.user, profile: { name: BRUNA.name } }],
      messages: [{ from: BRUNA.wa, from_user_id: BRUNA.user, id: newWamid(), timestamp: nowS(), type: 'text', text: { body: 'Olá! Is order 4471 on its way?' } }],
    }),
  );
  // a username user whose user id WhatsApp replaced
  await rt.postWebhook(envelope(rt.phone, { contacts: [{ user_id: CARLA.old, profile: { username: '@carla' } }], messages: [{ from_user_id: CARLA.old, id: newWamid(), timestamp: nowS(), type: 'text', text: { body: 'Bom dia' } }] }));
  await rt.idle();
  await rt.postWebhook(
    envelope(rt.phone, {
      messages: [{ from_user_id: CARLA.old, id: newWamid(), timestamp: nowS(), type: 'system', system: { body: `User changed from ${CARLA.old} to ${CARLA.new}`, user_id: CARLA.new, previous_user_id: CARLA.old, type: 'user_changed_user_id' } }],
    }),
  );
  await rt.idle();
  // the AI agent is on for Bruna's chat: Take over shows in the header
  await rt.orgJson(adminToken, `/chats/${encodeURIComponent(`${BRUNA.wa}@c.us`)}/ai`, { method: 'PUT', json: { activation_state: 'active' } });
}, 180_000);
afterAll(() => stopE2E({ browser, rt }));

describe('customer identity in the browser', () => {
  it('a username customer without a number reads @ana and “Number not shared”, never cht_…', async () => {
    const ana = await chatOf(ANA);
    expect(ana.chat_id).toMatch(/^cht_/);
    const page = await signIn(browser, rt, rt.adminEmail, DESKTOP);
    const row = page.locator(`[data-testid="chat-row"][data-chat-id="${ana.chat_id}"]`);
    await row.waitFor();
    expect(await row.locator('.chat-name').innerText()).toBe('@ana');
    await openChat(page, ana.chat_id);
    const header = page.getByTestId('thread-header');
    expect(await header.getByTestId('thread-name').innerText()).toBe('@ana');
    expect(await header.getByTestId('thread-number-missing').innerText()).toBe('Number not shared');
    await openDetails(page);
    const contact = page.getByTestId('chat-contact');
    const ids = contact.getByTestId('contact-identifier');
    await expect.poll(() => ids.count(), { timeout: 10_000 }).toBe(1);
    expect(await ids.first().getAttribute('data-kind')).toBe('bsuid');
    expect(await ids.first().innerText()).toContain('WhatsApp user id');
    expect(await ids.first().innerText()).toContain(ANA);
    expect(await contact.getByTestId('contact-phone').innerText()).toBe('Number not shared');
    expect(await contact.getByTestId('contact-username').innerText()).toBe('@ana');
    expect(await readable(page)).not.toContain('cht_');
    expect(await readable(page)).not.toContain('ctc_');
    await page.screenshot({ path: join(SHOTS, 'identity-username-desktop.png') });

    // the contact on /contacts: the same identity, with when it was first seen
    await contact.getByTestId('chat-contact-open').click();
    const panel = page.getByTestId('contact-panel');
    await panel.waitFor();
    expect(await panel.locator('h2').innerText()).toBe('@ana');
    expect(await panel.getByTestId('contact-phone').innerText()).toBe('Number not shared');
    const item = panel.getByTestId('contact-identifier').first();
    expect(await item.innerText()).toMatch(/WhatsApp user id[\s\S]*BR\.17730000000000000101[\s\S]*First seen/);
    expect(await readable(page)).not.toContain('cht_');
    await page.screenshot({ path: join(SHOTS, 'identity-contact-desktop.png') });
    await page.context().close();

    // on a phone: the header keeps the name and says the number is not shared
    const phone = await signIn(browser, rt, rt.adminEmail, PHONE, { touch: true });
    await phone.locator(`[data-testid="chat-row"][data-chat-id="${ana.chat_id}"]`).waitFor();
    expect(await readable(phone)).not.toContain('cht_');
    await phone.screenshot({ path: join(SHOTS, 'identity-list-phone.png') });
    await openChat(phone, ana.chat_id);
    expect(await phone.getByTestId('thread-name').innerText()).toBe('@ana');
    expect(await phone.getByTestId('thread-number-missing').isVisible()).toBe(true);
    await expectRoomyTitle(phone, 30);
    expect(await readable(phone)).not.toContain('cht_');
    await phone.screenshot({ path: join(SHOTS, 'identity-username-phone.png') });
    await openDetails(phone);
    await phone.screenshot({ path: join(SHOTS, 'identity-username-details-phone.png') });
    await phone.context().close();
  });

  it('a replaced user id is listed struck, with what replaced it', async () => {
    const carla = await chatOf(CARLA.new).catch(() => chatOf(CARLA.old));
    const page = await signIn(browser, rt, rt.adminEmail, DESKTOP);
    await openChat(page, carla.chat_id);
    await openDetails(page);
    const ids = page.getByTestId('chat-contact').getByTestId('contact-identifier');
    await expect.poll(() => ids.count(), { timeout: 10_000 }).toBe(2);
    const old = page.getByTestId('chat-contact').locator('[data-testid="contact-identifier"][data-replaced="true"]');
    expect(await old.innerText()).toContain(CARLA.old);
    expect(await old.innerText()).toMatch(new RegExp(`Replaced by ${CARLA.new.replace('.', '\\.')} on \\d{1,2} \\w{3} \\d{2}`));
    expect(await old.locator('s').count()).toBe(1);
    expect(await readable(page)).not.toContain('cht_');
    await page.screenshot({ path: join(SHOTS, 'identity-replaced-desktop.png') });
    await page.context().close();
  });

  it('a number + user id customer with a long name and Take over keeps the name readable (1440×900, 390×844)', async () => {
    const chatId = `${BRUNA.wa}@c.us`;
    const page = await signIn(browser, rt, rt.adminEmail, DESKTOP);
    await openChat(page, chatId);
    await page.getByTestId('ai-controls').waitFor();
    const header = page.getByTestId('thread-header');
    expect(await header.getByTestId('thread-number').innerText()).toBe(`+${BRUNA.wa}`);
    expect(await header.getByTestId('thread-number-missing').count()).toBe(0);
    // the details panel closed, then open: the name keeps at least 180 px either way
    const toggle = page.getByTestId('chat-details-toggle');
    if ((await toggle.getAttribute('aria-pressed')) === 'true') await toggle.click();
    await expectRoomyTitle(page, 180);
    await page.screenshot({ path: join(SHOTS, 'identity-long-name-desktop.png') });
    await openDetails(page);
    await expectRoomyTitle(page, 180);
    expect(await header.getByTestId('thread-number').isVisible()).toBe(true);
    // Take over is still one click away (its word, or its icon when the header is narrow)
    await page.locator('[data-testid="ai-take-over"]').waitFor();
    const ids = page.getByTestId('chat-contact').getByTestId('contact-identifier');
    await expect.poll(async () => (await ids.evaluateAll((els) => els.map((e) => e.getAttribute('data-kind')))).sort(), { timeout: 10_000 }).toEqual(['bsuid', 'phone']);
    expect(await page.getByTestId('chat-contact').getByTestId('contact-phone').innerText()).toBe(`+${BRUNA.wa}`);
    await page.screenshot({ path: join(SHOTS, 'identity-long-name-details-desktop.png') });
    await page.context().close();

    const phone = await signIn(browser, rt, rt.adminEmail, PHONE, { touch: true });
    await openChat(phone, chatId);
    await phone.getByTestId('ai-controls').waitFor();
    await expectRoomyTitle(phone, 100);
    expect(await phone.getByTestId('thread-number').isVisible()).toBe(true);
    expect(await phone.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(PHONE.width);
    await phone.screenshot({ path: join(SHOTS, 'identity-long-name-phone.png') });
    // Create task moved into "⋯" on the phone
    await phone.getByTestId('chat-more').click();
    await phone.getByTestId('chat-action-task').waitFor();
    await phone.screenshot({ path: join(SHOTS, 'identity-long-name-menu-phone.png') });
    await phone.context().close();
  });

  it('with masking on, a member sees the number masked and “Number not shared” for @ana', async () => {
    await db().entities.organization.patch({ org_id: rt.orgId }).set({ org_metadata: { preferences: { mask_phone_numbers: true } } }).go();
    forgetOrgPreferences(rt.orgId);
    try {
      const page = await signIn(browser, rt, rt.memberEmail, DESKTOP);
      // the list names chats by masked ids for masked members: open them by their row
      const open = async (name: string) => {
        await page.getByTestId('chat-row').filter({ hasText: name }).click();
        await page.getByTestId('thread').getByTestId('message').first().waitFor({ timeout: 15_000 });
      };
      await open(BRUNA.name.slice(0, 15));
      const masked = '55*********23';
      await expect.poll(() => page.getByTestId('thread-number').innerText(), { timeout: 10_000 }).toBe(masked);
      await openDetails(page);
      expect(await page.getByTestId('chat-contact').getByTestId('contact-phone').innerText()).toBe(masked);
      expect(await readable(page)).not.toContain(BRUNA.wa);
      await page.screenshot({ path: join(SHOTS, 'identity-masked-member-desktop.png') });
      await open('@ana');
      expect(await page.getByTestId('thread-number-missing').innerText()).toBe('Number not shared');
      const ids = page.getByTestId('chat-contact').getByTestId('contact-identifier');
      await expect.poll(() => ids.count()).toBe(1);
      expect(await ids.first().innerText()).toContain(ANA);
      expect(await readable(page)).not.toContain('cht_');
      await page.context().close();
    } finally {
      await db().entities.organization.patch({ org_id: rt.orgId }).set({ org_metadata: { preferences: {} } }).go();
      forgetOrgPreferences(rt.orgId);
    }
  });
});
