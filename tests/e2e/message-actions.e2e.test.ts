import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { join } from 'node:path';
import sharp from 'sharp';
import { type Browser, type Page } from 'playwright-core';
import { openMenu, DESKTOP, PHONE, SHOTS, signIn as signInAs, openChat, toast, startE2E, stopE2E } from '../factories/browser.ts';
import type { TestRuntime } from '../factories/runtime.ts';
import { inboundImage, inboundMedia, inboundText, newWamid } from '../../shared/whatsapp/cloud/payloads.ts';
import { eventually } from '../factories/wait.ts';

/**
 * Message actions end to end, in Debian's Chromium: a reaction made in one browser shows in a
 * second one; a reaction WhatsApp refuses is reverted with 'Failed to send reaction!'; a flag
 * marks the message and the chat row until a member replies; a pin shows in the pinned bar of
 * both browsers and jumps to the message; Copy Id; Forward to a second chat; an inbound image as
 * a thumbnail opened in the viewer, a document downloaded, a file WhatsApp no longer has.
 * Screenshots (desktop 1440x900, phone 390x844) go to test-results/screenshots.
 */
let rt: TestRuntime;
let browser: Browser;
let adminToken: string;

/** Sign in through the login page (tests/factories/browser.ts). */
const signIn = (email: string, viewport = DESKTOP): Promise<Page> => signInAs(browser, rt, email, viewport, { permissions: ['clipboard-read', 'clipboard-write'], touch: true });



const api = <T>(path: string): Promise<T> => rt.orgJson<T>(adminToken, path);

/** A customer message, waited for in the API. */
async function customerSays(wa: string, body: string, name: string, id = newWamid()): Promise<string> {
  expect((await rt.postWebhook(inboundText(rt.phone, wa, body, { name, id }))).status).toBe(200);
  await eventually(async () => (await api<{ messages: Array<{ message_id?: string }> }>(`/chats/${encodeURIComponent(`${wa}@c.us`)}/messages`)).messages.some((m) => m.message_id === id), 15_000, `message ${body}`);
  return id;
}

const reactionsSent = () => rt.graph.sent.filter((s) => (s.body as { type?: string })?.type === 'reaction');

beforeAll(async () => ({ rt, browser, adminToken } = await startE2E()));
afterAll(() => stopE2E({ browser, rt }));

describe('message actions in the browser', () => {
  it('a reaction shows in a second browser; a refused one is reverted with the spec’s toast', async () => {
    const wa = '16505550401';
    const chatId = `${wa}@c.us`;
    await customerSays(wa, 'Hi! Is my order ready for pickup?', 'Ada Lovelace');
    const admin = await signIn(rt.adminEmail);
    const member = await signIn(rt.memberEmail);
    const thread = await openChat(admin, chatId);
    const memberThread = await openChat(member, chatId);
    const msg = thread.locator('[data-testid="message"]').filter({ hasText: 'Is my order ready' });
    const memberMsg = memberThread.locator('[data-testid="message"]').filter({ hasText: 'Is my order ready' });

    // React from the menu: the picker, then ours at once (sending), then sent to WhatsApp
    await openMenu(msg);
    await admin.screenshot({ path: join(SHOTS, 'message-actions-menu-desktop.png') });
    await admin.getByTestId('menu-react').click();
    const picker = admin.getByTestId('reaction-picker');
    await picker.waitFor();
    await admin.screenshot({ path: join(SHOTS, 'reaction-picker-desktop.png') });
    await picker.locator('[data-emoji="👍"]').click();
    await msg.locator('[data-testid="message-reactions"] [data-emoji="👍"][data-mine="true"]').waitFor({ timeout: 5_000 });
    await eventually(async () => reactionsSent().length === 1, 15_000, 'the reaction sent to the Graph API');
    expect(reactionsSent()[0].body).toMatchObject({ type: 'reaction', to: wa, reaction: { emoji: '👍' } });

    // the second browser sees it live, with who reacted in the tooltip
    const memberChip = memberMsg.locator('[data-testid="message-reactions"] [data-emoji="👍"]');
    await memberChip.waitFor({ timeout: 15_000 });
    expect(await memberChip.getAttribute('title')).toContain(rt.adminEmail);
    await expect.poll(() => msg.locator('.reaction.pending').count(), { timeout: 15_000 }).toBe(0);
    await member.screenshot({ path: join(SHOTS, 'reaction-second-browser-desktop.png') });

    // WhatsApp refuses the next one (131009): the background send fails, ours goes back to 👍
    rt.graph.failNext(131009);
    await msg.locator('.bubble').hover();
    await msg.getByTestId('message-react-button').click();
    await admin.getByTestId('reaction-picker').locator('[data-emoji="❤️"]').click();
    await toast(admin, 'Failed to send reaction!').waitFor({ timeout: 15_000 });
    await expect.poll(() => msg.locator('[data-testid="reaction"]').evaluateAll((els) => els.map((e) => e.getAttribute('data-emoji'))), { timeout: 15_000 }).toEqual(['👍']);
    await expect.poll(() => memberMsg.locator('[data-testid="reaction"]').evaluateAll((els) => els.map((e) => e.getAttribute('data-emoji'))), { timeout: 15_000 }).toEqual(['👍']);
    // the other browser did not send it: no toast there
    expect(await toast(member, 'Failed to send reaction!').count()).toBe(0);
    await admin.screenshot({ path: join(SHOTS, 'reaction-failed-desktop.png') });

    // an HTTP failure reverts at once too
    await admin.route('**/reaction', (route) => route.fulfill({ status: 500, contentType: 'application/json', body: JSON.stringify({ error: { code: 'boom', message: 'boom' } }) }));
    await msg.locator('.bubble').hover();
    await msg.getByTestId('message-react-button').click();
    await admin.getByTestId('reaction-picker').locator('[data-emoji="😂"]').click();
    await expect.poll(() => msg.locator('[data-testid="reaction"]').evaluateAll((els) => els.map((e) => e.getAttribute('data-emoji'))), { timeout: 10_000 }).toEqual(['👍']);
    await admin.unroute('**/reaction');

    await admin.context().close();
    await member.context().close();
  });

  it('flag until a reply, pin with the pinned bar, copy id, forward to a second chat', async () => {
    const wa = '16505550402';
    const chatId = `${wa}@c.us`;
    const other = '16505550403';
    const otherId = `${other}@c.us`;
    await customerSays(other, 'Hello from the other chat', 'Grace Hopper');
    const wamid = await customerSays(wa, 'Can someone call me back about the invoice?', 'Alan Turing');
    const admin = await signIn(rt.adminEmail);
    const member = await signIn(rt.memberEmail);
    const thread = await openChat(admin, chatId);
    const msg = thread.locator('[data-testid="message"]').filter({ hasText: 'call me back' });
    const uid = (await msg.getAttribute('data-unique-id'))!;

    // Flag: toast, marker on the bubble, 'needs reply' on the chat row (live in the other browser)
    await openMenu(msg);
    expect(await admin.getByTestId('menu-unflag').count()).toBe(0);
    await admin.getByTestId('menu-flag').click();
    await toast(admin, 'Message flagged successfully!').waitFor({ timeout: 15_000 });
    await msg.getByTestId('flag-marker').waitFor({ timeout: 15_000 });
    const adminRowFlag = admin.locator(`[data-testid="chat-row"][data-chat-id="${chatId}"] [data-testid="chat-flag"]`);
    const memberRowFlag = member.locator(`[data-testid="chat-row"][data-chat-id="${chatId}"] [data-testid="chat-flag"]`);
    await adminRowFlag.waitFor({ timeout: 15_000 });
    await memberRowFlag.waitFor({ timeout: 15_000 });
    await openMenu(msg);
    await admin.getByTestId('menu-unflag').waitFor();
    await admin.getByTestId('menu-remove-flag').waitFor();
    expect(await admin.getByTestId('menu-flag').count()).toBe(0);
    await admin.keyboard.press('Escape');
    await admin.screenshot({ path: join(SHOTS, 'message-flagged-desktop.png') });

    // a reply on that number answers it: marker and row flag go away in both browsers
    await admin.getByTestId('composer-input').fill('Sure, we will call you in ten minutes.');
    await admin.getByTestId('composer-input').press('Enter');
    await expect.poll(() => msg.getByTestId('flag-marker').count(), { timeout: 20_000 }).toBe(0);
    await adminRowFlag.waitFor({ state: 'detached', timeout: 20_000 });
    await memberRowFlag.waitFor({ state: 'detached', timeout: 20_000 });

    // Pin for 24 hours: the pinned bar in both browsers; it jumps to the message
    const memberThread = await openChat(member, chatId);
    await openMenu(msg);
    await admin.getByTestId('menu-pin').click();
    const pinDialog = admin.getByTestId('pin-dialog');
    await pinDialog.waitFor();
    await pinDialog.getByTestId('pin-duration-24h').check();
    await admin.screenshot({ path: join(SHOTS, 'pin-dialog-desktop.png') });
    await pinDialog.getByTestId('pin-submit').click();
    await toast(admin, 'Message pinned successfully!').waitFor({ timeout: 15_000 });
    await pinDialog.waitFor({ state: 'detached' });
    const bar = admin.getByTestId('pinned-bar');
    await expect.poll(() => bar.textContent(), { timeout: 15_000 }).toContain('call me back about the invoice');
    expect(await bar.textContent()).toMatch(/2[34] hours left/);
    await msg.getByTestId('pin-marker').waitFor();
    await expect.poll(() => memberThread.page().getByTestId('pinned-bar').textContent(), { timeout: 15_000 }).toContain('call me back');
    await thread.locator('.thread-scroll').evaluate((el) => (el.scrollTop = el.scrollHeight));
    await bar.getByTestId('pinned-item').click();
    await expect.poll(() => msg.getAttribute('class'), { timeout: 5_000 }).toContain('flash');
    await admin.screenshot({ path: join(SHOTS, 'pinned-bar-desktop.png') });

    // Copy Id: the wamid, in the spec's words
    await openMenu(msg);
    await admin.getByTestId('menu-copy-id').click();
    await toast(admin, `Message ID - ${wamid} copied to clipboard`).waitFor({ timeout: 5_000 });
    expect(await admin.evaluate(() => navigator.clipboard.readText())).toBe(wamid);

    // Refresh is for our own messages: the reply has it, the customer's message does not
    await openMenu(msg);
    expect(await admin.getByTestId('menu-refresh').count()).toBe(0);
    await admin.keyboard.press('Escape');
    const reply = thread.locator('[data-testid="message"][data-from-me="true"]').filter({ hasText: 'call you in ten minutes' });
    await openMenu(reply);
    await admin.getByTestId('menu-refresh').click();
    await toast(admin, 'Message refreshed successfully!').waitFor({ timeout: 15_000 });

    // Forward (keyboard: the menu opens with Shift+F10 on the focused bubble) to the other chat
    await msg.locator('.bubble').hover();
    await msg.getByTestId('message-menu-button').focus();
    await admin.keyboard.press('Shift+F10');
    await admin.getByTestId('message-menu').waitFor();
    await admin.getByTestId('menu-forward').click();
    const fwd = admin.getByTestId('forward-dialog');
    await fwd.waitFor();
    await fwd.getByTestId('forward-search').fill('grace');
    await expect.poll(() => fwd.getByTestId('forward-option').count()).toBe(1);
    await fwd.locator(`[data-testid="forward-option"][data-chat-id="${otherId}"]`).click();
    await admin.screenshot({ path: join(SHOTS, 'forward-dialog-desktop.png') });
    await fwd.getByTestId('forward-submit').click();
    await fwd.waitFor({ state: 'detached', timeout: 15_000 });
    await toast(admin, 'Message forwarded').waitFor({ timeout: 5_000 });
    const otherThread = await openChat(admin, otherId);
    await otherThread.locator('[data-testid="message"][data-from-me="true"]').filter({ hasText: 'call me back about the invoice' }).waitFor({ timeout: 15_000 });
    await eventually(async () => rt.graph.sent.some((s) => (s.body as { to?: string; text?: { body?: string } })?.to === other && /call me back/.test((s.body as { text?: { body?: string } }).text?.body ?? '')), 15_000, 'forward sent');

    // Unpin: the bar goes away
    await openChat(admin, chatId);
    await openMenu(msg);
    await admin.getByTestId('menu-unpin').click();
    await toast(admin, 'Message unpinned successfully!').waitFor({ timeout: 15_000 });
    await admin.getByTestId('pinned-bar').waitFor({ state: 'detached', timeout: 15_000 });
    await admin.context().close();
    await member.context().close();

    // phone: pin again, the bar, the menu and the picker on a small screen
    expect((await rt.api(adminToken, `/api/orgs/${rt.orgId}/chats/${encodeURIComponent(chatId)}/messages/${uid}/pin`, { method: 'PUT', json: { pin: true, duration: '7d' } })).status).toBe(200);
    const phone = await signIn(rt.adminEmail, PHONE);
    const phoneThread = await openChat(phone, chatId);
    const phoneMsg = phoneThread.locator('[data-testid="message"]').filter({ hasText: 'call me back' });
    await phone.getByTestId('pinned-bar').waitFor({ timeout: 15_000 });
    // a long press opens the menu where the finger is
    const b = (await phoneMsg.locator('.bubble').boundingBox())!;
    const at = { clientX: b.x + 20, clientY: b.y + 10, pointerType: 'touch', isPrimary: true, bubbles: true };
    await phoneMsg.locator('.msg-text').dispatchEvent('pointerdown', at);
    await phone.getByTestId('message-menu').waitFor({ timeout: 3_000 });
    await phoneMsg.locator('.msg-text').dispatchEvent('pointerup', at);
    await phone.screenshot({ path: join(SHOTS, 'message-actions-menu-phone.png') });
    await phone.getByTestId('menu-react').click();
    await phone.getByTestId('reaction-picker').waitFor();
    await phone.screenshot({ path: join(SHOTS, 'reaction-picker-phone.png') });
    await phone.keyboard.press('Escape');
    await phone.context().close();
  });

  it('inbound media: image thumbnail and viewer, document download, a file WhatsApp no longer has', async () => {
    const wa = '16505550404';
    const chatId = `${wa}@c.us`;
    // a 1600x1000 photo (the thumbnail is 120x80)
    const photo = await sharp({ create: { width: 1600, height: 1000, channels: 3, background: '#4a90d9' } })
      .composite([{ input: Buffer.from('<svg width="1600" height="1000"><rect x="200" y="200" width="1200" height="600" fill="#f5a623"/><circle cx="800" cy="500" r="220" fill="#d0021b"/></svg>'), top: 0, left: 0 }])
      .jpeg()
      .toBuffer();
    rt.graph.addMedia('media-photo-1', photo, 'image/jpeg');
    const pdf = Buffer.from('%PDF-1.4\n1 0 obj <<>> endobj\ntrailer <<>>\n%%EOF\n');
    rt.graph.addMedia('media-doc-1', pdf, 'application/pdf');
    expect((await rt.postWebhook(inboundImage(rt.phone, wa, { id: 'media-photo-1', caption: 'The broken part' }, { name: 'Katherine Johnson' }))).status).toBe(200);
    expect((await rt.postWebhook(inboundMedia(rt.phone, wa, 'document', { id: 'media-doc-1', mime_type: 'application/pdf', filename: 'invoice-4411.pdf' }, { name: 'Katherine Johnson' }))).status).toBe(200);
    expect((await rt.postWebhook(inboundImage(rt.phone, wa, { id: 'media-never-registered', caption: 'Old photo' }, { name: 'Katherine Johnson' }))).status).toBe(200);

    const admin = await signIn(rt.adminEmail);
    const thread = await openChat(admin, chatId);
    const image = thread.locator('[data-testid="message"]').filter({ hasText: 'The broken part' });
    const doc = thread.locator('[data-testid="message"]').filter({ has: admin.getByTestId('media-document') });
    const gone = thread.locator('[data-testid="message"]').filter({ hasText: 'Old photo' });

    // the thumbnail (120x80), loaded
    const thumb = image.getByTestId('media-thumb');
    await image.locator('[data-testid="media"][data-state="stored"] img').waitFor({ timeout: 30_000 });
    await expect.poll(() => image.locator('img').evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth), { timeout: 10_000 }).toBe(120);
    const box = await thumb.boundingBox();
    expect(Math.round(box!.width)).toBe(120);
    expect(Math.round(box!.height)).toBe(80);

    // the file WhatsApp no longer has: the reason in words
    await gone.locator('[data-testid="media"][data-state="failed"]').waitFor({ timeout: 30_000 });
    expect(await gone.locator('.media-error').textContent()).toContain('WhatsApp no longer has this file');
    await admin.screenshot({ path: join(SHOTS, 'media-thread-desktop.png') });

    // the viewer: full image, zoom (capped), Esc closes and keeps the chat open
    await thumb.click();
    const viewer = admin.getByTestId('media-viewer');
    await viewer.waitFor();
    await expect.poll(() => viewer.locator('img').evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth), { timeout: 10_000 }).toBe(1600);
    const maxZoom = Number(await viewer.getAttribute('data-max-zoom'));
    expect(maxZoom).toBeGreaterThan(1);
    for (let i = 0; i < 12; i++) {
      const zoomIn = viewer.getByTestId('viewer-zoom-in');
      if (await zoomIn.isDisabled()) break;
      await zoomIn.click();
    }
    await expect.poll(async () => Number(await viewer.getAttribute('data-zoom'))).toBeCloseTo(maxZoom, 1);
    await viewer.getByTestId('viewer-zoom-in').isDisabled();
    await admin.keyboard.press('0');
    await admin.screenshot({ path: join(SHOTS, 'media-viewer-desktop.png') });
    await admin.keyboard.press('Escape');
    await viewer.waitFor({ state: 'detached' });
    expect(admin.url()).toContain(`/chats/${encodeURIComponent(chatId)}`);

    // the document: a file row whose Download saves it under its name
    await doc.locator('[data-testid="media"][data-state="stored"]').waitFor({ timeout: 30_000 });
    expect(await doc.textContent()).toContain('invoice-4411.pdf');
    const [download] = await Promise.all([admin.waitForEvent('download'), doc.getByTestId('media-download').click()]);
    expect(download.suggestedFilename()).toBe('invoice-4411.pdf');
    await toast(admin, 'Media downloaded successfully!').waitFor({ timeout: 10_000 });
    // and from the menu
    await openMenu(doc);
    const [again] = await Promise.all([admin.waitForEvent('download'), admin.getByTestId('menu-download').click()]);
    expect(again.suggestedFilename()).toBe('invoice-4411.pdf');
    await admin.context().close();

    // phone: the thread with media and the viewer
    const phone = await signIn(rt.adminEmail, PHONE);
    const phoneThread = await openChat(phone, chatId);
    await phoneThread.locator('[data-testid="media"][data-state="stored"] img').first().waitFor({ timeout: 15_000 });
    await phone.screenshot({ path: join(SHOTS, 'media-thread-phone.png') });
    await phoneThread.getByTestId('media-thumb').first().click();
    await phone.getByTestId('media-viewer').locator('img').waitFor();
    await phone.screenshot({ path: join(SHOTS, 'media-viewer-phone.png') });
    await phone.keyboard.press('Escape');
    await phone.context().close();
  });
});
