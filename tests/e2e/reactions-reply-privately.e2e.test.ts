import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { join } from 'node:path';
import { type Browser } from 'playwright-core';
import { openMenu, DESKTOP, PHONE, SHOTS, signIn, openChat, startE2E, stopE2E } from '../factories/browser.ts';
import type { TestRuntime } from '../factories/runtime.ts';
import sharp from 'sharp';
import { inboundImage, inboundMessage, inboundText, newWamid } from '../../shared/whatsapp/cloud/payloads.ts';
import { toast } from '../factories/browser.ts';
import { eventually } from '../factories/wait.ts';

/**
 * Issue 5, end to end in Debian's Chromium: a reaction chip opens 'who reacted' (the message's
 * Reaction rows: the customer by name, ours by the member's email); Reply Privately from a group
 * member's message opens the 1:1 chat with the group message quoted in the composer, and the sent
 * reply shows that quote 'from the group' while WhatsApp gets the text alone; a photo forwarded to
 * two chats is re-sent from its stored file to both.
 * Screenshots (desktop 1440x900, phone 390x844) go to test-results/screenshots.
 */
let rt: TestRuntime;
let browser: Browser;
let adminToken: string;

const api = <T>(path: string): Promise<T> => rt.orgJson<T>(adminToken, path);
type Msg = { unique_id: string; message_id?: string; body?: string; quoted_message?: { chat_id?: string } | null };
const messagesOf = (chatId: string) => api<{ messages: Msg[] }>(`/chats/${encodeURIComponent(chatId)}/messages`).then((r) => r.messages);

beforeAll(async () => ({ rt, browser, adminToken } = await startE2E()));
afterAll(() => stopE2E({ browser, rt }));

describe('who reacted and reply privately', () => {
  it('a reaction chip lists who reacted', async () => {
    const wa = '16505550701';
    const chatId = `${wa}@c.us`;
    const id = newWamid();
    await rt.postWebhook(inboundText(rt.phone, wa, 'Did the parcel leave today?', { name: 'Ada Lovelace', id }));
    await eventually(async () => (await messagesOf(chatId)).some((m) => m.message_id === id), 15_000, 'message stored');
    const target = (await messagesOf(chatId)).find((m) => m.message_id === id)!;
    // the customer reacts, and so do we (through the API, as the member's browser would)
    await rt.postWebhook(inboundMessage(rt.phone, { from: wa, name: 'Ada Lovelace', type: 'reaction', fields: { reaction: { message_id: id, emoji: '👍' } } }));
    const r = await rt.api(adminToken, `/api/orgs/${rt.orgId}/chats/${encodeURIComponent(chatId)}/messages/${target.unique_id}/reaction`, { method: 'POST', json: { reaction: '👍' } });
    expect(r.status).toBe(202);

    const page = await signIn(browser, rt, rt.memberEmail);
    const thread = await openChat(page, chatId);
    const msg = thread.locator('[data-testid="message"]').filter({ hasText: 'parcel leave' });
    const chip = msg.getByTestId('reaction-chip');
    await expect.poll(() => chip.textContent(), { timeout: 15_000 }).toContain('2');
    await chip.click();
    const pop = page.getByTestId('reactions-popover');
    await pop.waitFor();
    await expect.poll(() => pop.getByTestId('reactions-popover-row').count(), { timeout: 10_000 }).toBe(2);
    const text = await pop.textContent();
    expect(text).toContain('Ada Lovelace');
    expect(text).toContain(rt.adminEmail);
    await page.screenshot({ path: join(SHOTS, 'who-reacted-desktop.png') });
    await page.keyboard.press('Escape');
    await pop.waitFor({ state: 'detached' });
    await page.context().close();
  });

  it('Reply Privately opens the 1:1 chat with the group quote; the reply shows where it came from', async () => {
    const wa = '16505550702';
    // Grace wrote to us directly before (her 24-hour window is open), and in a group
    await rt.postWebhook(inboundText(rt.phone, wa, 'hello from Grace', { name: 'Grace Hopper' }));
    const payload = inboundText(rt.phone, wa, 'Who can check my invoice privately?', { name: 'Grace Hopper' });
    (payload.entry[0]!.changes[0]!.value as unknown as { messages: Array<Record<string, unknown>> }).messages[0]!.group_id = 'G7788';
    await rt.postWebhook(payload);
    const group = 'G7788@g.us';
    await eventually(async () => (await messagesOf(group).catch(() => [])).length > 0, 15_000, 'group message stored');

    for (const viewport of [DESKTOP, PHONE]) {
      const page = await signIn(browser, rt, rt.adminEmail, viewport, { touch: viewport === PHONE });
      const thread = await openChat(page, group);
      const msg = thread.locator('[data-testid="message"]').filter({ hasText: 'check my invoice' });
      await openMenu(msg);
      await page.getByTestId('menu-reply-privately').click();
      await page.waitForURL(new RegExp(`/chats/${wa}%40c\\.us|/chats/${wa}@c\\.us`), { timeout: 10_000 });
      const quote = page.getByTestId('composer-quote');
      await quote.waitFor({ timeout: 10_000 });
      expect(await quote.textContent()).toContain('Who can check my invoice privately?');
      expect(await page.getByTestId('composer-quote-from').textContent()).toContain('from the group');
      const name = viewport === PHONE ? 'phone' : 'desktop';
      await page.screenshot({ path: join(SHOTS, `reply-privately-composer-${name}.png`) });
      if (viewport === DESKTOP) {
        const before = rt.graph.sent.length;
        const box = page.getByTestId('thread').locator('textarea').first();
        await box.fill('Hi Grace, I can help with the invoice here.');
        await box.press('Enter');
        const sent = page.getByTestId('thread').locator('[data-testid="message"]').filter({ hasText: 'I can help with the invoice' });
        await sent.getByTestId('message-quote-from').waitFor({ timeout: 10_000 });
        await eventually(async () => rt.graph.sent.slice(before).some((s) => (s.body as { to?: string }).to === wa), 15_000, 'reply sent to WhatsApp');
        const out = rt.graph.sent.slice(before).find((s) => (s.body as { to?: string }).to === wa)!.body as { context?: unknown; text?: { body: string } };
        expect(out.text?.body).toBe('Hi Grace, I can help with the invoice here.');
        expect(out.context).toBeUndefined();
        const stored = (await messagesOf(`${wa}@c.us`)).find((m) => m.body === 'Hi Grace, I can help with the invoice here.');
        expect(stored?.quoted_message?.chat_id).toBe(group);
        await page.screenshot({ path: join(SHOTS, 'reply-privately-sent-desktop.png') });
      }
      await page.context().close();
    }
  });

  it('forwards a photo to two chats', async () => {
    const photo = await sharp({ create: { width: 320, height: 240, channels: 3, background: { r: 30, g: 140, b: 90 } } }).jpeg().toBuffer();
    rt.graph.addMedia('e2e-fwd-photo', photo, 'image/jpeg');
    const [src, b, c] = ['16505550711', '16505550712', '16505550713'];
    await rt.postWebhook(inboundText(rt.phone, b, 'I am Bea', { name: 'Bea Forward' }));
    await rt.postWebhook(inboundText(rt.phone, c, 'I am Cal', { name: 'Cal Forward' }));
    await rt.postWebhook(inboundImage(rt.phone, src, { id: 'e2e-fwd-photo', caption: 'Shelf photo' }, { name: 'Dee Source' }));
    await eventually(async () => (await messagesOf(`${src}@c.us`)).some((m) => (m as { media?: { status?: string } }).media?.status === 'stored'), 15_000, 'photo stored');

    const page = await signIn(browser, rt, rt.adminEmail);
    const thread = await openChat(page, `${src}@c.us`);
    const msg = thread.locator('[data-testid="message"]').filter({ hasText: 'Shelf photo' });
    await openMenu(msg);
    await page.getByTestId('menu-forward').click();
    const fwd = page.getByTestId('forward-dialog');
    await fwd.getByTestId('forward-search').fill('forward');
    await expect.poll(() => fwd.getByTestId('forward-option').count(), { timeout: 10_000 }).toBe(2);
    const before = rt.graph.sent.length;
    await fwd.locator(`[data-testid="forward-option"][data-chat-id="${b}@c.us"]`).click();
    await fwd.locator(`[data-testid="forward-option"][data-chat-id="${c}@c.us"]`).click();
    await page.screenshot({ path: join(SHOTS, 'forward-media-dialog-desktop.png') });
    await fwd.getByTestId('forward-submit').click();
    await toast(page, 'Message forwarded to 2 chats').waitFor({ timeout: 10_000 });
    await eventually(async () => rt.graph.sent.slice(before).filter((x) => (x.body as { type?: string }).type === 'image').length === 2, 15_000, 'two images sent');
    const sent = rt.graph.sent.slice(before).filter((x) => (x.body as { type?: string }).type === 'image').map((x) => x.body as { to: string; image: { caption?: string } });
    expect(sent.map((x) => [x.to, x.image.caption]).sort()).toEqual([
      [b, 'Shelf photo'],
      [c, 'Shelf photo'],
    ]);
    // the copy shows in the target chat as a forwarded photo
    const target = await openChat(page, `${b}@c.us`);
    const copy = target.locator('[data-testid="message"]').filter({ hasText: 'Shelf photo' });
    await copy.locator('.forwarded').waitFor({ timeout: 10_000 });
    const img = copy.getByTestId('media-thumb').locator('img');
    await img.waitFor({ timeout: 10_000 });
    // the copy's thumbnail is the stored one, and it loads
    await expect.poll(() => img.evaluate((el) => (el as HTMLImageElement).complete && (el as HTMLImageElement).naturalWidth), { timeout: 10_000 }).toBe(120);
    await page.screenshot({ path: join(SHOTS, 'forward-media-copy-desktop.png') });
    await page.context().close();
  });
});
