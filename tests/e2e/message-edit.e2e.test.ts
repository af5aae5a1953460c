import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { join } from 'node:path';
import type { Browser, Locator } from 'playwright-core';
import { PHONE, SHOTS, openChat, openMenu, signIn, startE2E, stopE2E, toast } from '../factories/browser.ts';
import { captureWaWebCommands, customerWrites, seedSentMessage, seedWaWebPhone, type WaWebPhone } from '../factories/wa-web.ts';
import { applyInboundEdit, onDeleteResult, onEditResult } from '../../shared/message/message-edit.ts';
import { inboundText } from '../../shared/whatsapp/cloud/payloads.ts';
import { eventually } from '../factories/wait.ts';
import type { TestRuntime } from '../factories/runtime.ts';

/**
 * Edit and delete for everyone end to end, in Debian's Chromium, on a linked WhatsApp Web number
 * ('wa_web'). The test plays the number's session worker: it takes the commands the API hands
 * over (captureWaWebCommands) and reports results through onEditResult / onDeleteResult, and
 * brings a customer's edit through applyInboundEdit. Our sent messages are written as the session
 * leaves them (ack 1, a WhatsApp id). Checked: Edit offered for a just-sent message, edited inline
 * (Esc cancels, Enter saves), 'edited · sending…' then 'edited' with the time on hover; with the
 * page clock 15 minutes on, Edit is no longer offered (Delete still is); delete asks to confirm,
 * shows 'Deleting message...' then 'Message deleted successfully!', and a second browser shows the
 * message as deleted with its original text on click; a refused delete says 'Error while deleting
 * message' and the message comes back; a Cloud API number offers neither. Screenshots go to
 * test-results/screenshots.
 */
let rt: TestRuntime;
let browser: Browser;
let web: WaWebPhone;
let wa: ReturnType<typeof captureWaWebCommands>;
const MIN = 60_000;
const customer = '16505550777';
const chatId = `${customer}@c.us`;

const bubble = (thread: Locator, text: string) => thread.locator('[data-testid="message"]').filter({ hasText: text });

beforeAll(async () => {
  ({ rt, browser } = await startE2E());
  wa = captureWaWebCommands(rt);
  // before anyone signs in: the session's phone list says what each number can do
  web = await seedWaWebPhone(rt.orgId, 'waweb-e2e-1', '15550107777');
  await customerWrites(web, customer, 'Hi! Can you confirm my table for Friday?', { name: 'Ada Lovelace', at: Date.now() - 2 * MIN });
});
afterAll(() => stopE2E({ browser, rt }));

describe('edit and delete on a WhatsApp Web number', () => {
  it('edits a just-sent message inline and shows “edited”; after 15 minutes (page clock) Edit is no longer offered', async () => {
    const sent = await seedSentMessage(web, chatId, 'Your table is booked for 3 people', { at: Date.now() - 20_000, author: rt.adminEmail });
    const admin = await signIn(browser, rt, rt.adminEmail);
    const thread = await openChat(admin, chatId);
    const msg = bubble(thread, 'Your table is booked');

    // Esc cancels without saving
    await openMenu(msg);
    await admin.screenshot({ path: join(SHOTS, 'message-edit-menu-desktop.png') });
    await admin.getByTestId('menu-edit').click();
    const input = msg.getByTestId('message-edit-input');
    await input.waitFor();
    await input.fill('Your table is booked for 5 people');
    await input.press('Escape');
    await expect.poll(() => msg.getByTestId('message-edit').count()).toBe(0);
    await expect.poll(() => msg.locator('.msg-text').innerText()).toBe('Your table is booked for 3 people');
    expect(await thread.count()).toBe(1); // Esc closed the editor, not the chat
    expect(wa.commands).toHaveLength(0);

    // Enter saves: the new text at once, 'edited · sending…' until the session confirms
    await openMenu(msg);
    await admin.getByTestId('menu-edit').click();
    await input.fill('Your table is booked for 4 people');
    await admin.screenshot({ path: join(SHOTS, 'message-edit-inline-desktop.png') });
    await input.press('Enter');
    const edited = bubble(thread, 'Your table is booked for 4 people');
    await edited.getByTestId('edited-label').waitFor({ timeout: 10_000 });
    expect(await edited.getByTestId('edited-label').getAttribute('data-status')).toBe('pending');
    await eventually(async () => wa.commands.some((c) => c.kind === 'edit'), 10_000, 'the edit command');
    const cmd = wa.take('edit');
    expect(cmd).toMatchObject({ unique_id: sent.unique_id, message_id: sent.message_id, body: 'Your table is booked for 4 people', requested_by: rt.adminEmail });
    await onEditResult(cmd, { ok: true, at_ms: Date.now() });
    const label = edited.getByTestId('edited-label');
    await expect.poll(() => label.getAttribute('data-status'), { timeout: 10_000 }).toBe('sent');
    expect(await label.innerText()).toBe('edited');
    expect(await label.getAttribute('title')).toMatch(/^Edited .+ by admin@test\.chorus$/);
    await admin.screenshot({ path: join(SHOTS, 'message-edited-desktop.png') });

    // the page clock 15:01 after sending: Edit is gone from the menu, Delete (48 hours) is still there
    await admin.clock.setFixedTime(sent.timestamp + 15 * MIN + 1000);
    await openMenu(edited);
    expect(await admin.getByTestId('menu-edit').count()).toBe(0);
    expect(await admin.getByTestId('menu-delete').count()).toBe(1);
    await admin.keyboard.press('Escape');
    await admin.context().close();
  });

  it('deletes for everyone with the spec’s toasts; a second browser shows it deleted, the original on click', async () => {
    await seedSentMessage(web, chatId, 'Wrong link: example.com/old-menu', { at: Date.now() - MIN, author: rt.adminEmail });
    const admin = await signIn(browser, rt, rt.adminEmail);
    const member = await signIn(browser, rt, rt.memberEmail);
    const thread = await openChat(admin, chatId);
    const memberThread = await openChat(member, chatId);
    const msg = bubble(thread, 'Wrong link');
    await bubble(memberThread, 'Wrong link').waitFor();

    await openMenu(msg);
    await admin.getByTestId('menu-delete').click();
    const dialog = admin.getByTestId('delete-message-dialog');
    await dialog.waitFor();
    await admin.screenshot({ path: join(SHOTS, 'message-delete-confirm-desktop.png') });
    await admin.getByTestId('delete-message-confirm').click();
    await toast(admin, 'Deleting message...').waitFor({ timeout: 10_000 });
    const deleted = thread.locator('[data-testid="message"]').filter({ has: admin.getByTestId('message-deleted') });
    await deleted.first().waitFor({ timeout: 10_000 });
    await eventually(async () => wa.commands.some((c) => c.kind === 'delete'), 10_000, 'the delete command');
    const cmd = wa.take('delete');
    expect(await toast(admin, 'Message deleted successfully!').count()).toBe(0); // not before WhatsApp confirms
    await onDeleteResult(cmd, { ok: true, at_ms: Date.now() });
    await toast(admin, 'Message deleted successfully!').waitFor({ timeout: 10_000 });
    await admin.screenshot({ path: join(SHOTS, 'message-deleted-desktop.png') });

    // the second browser: deleted, muted, the original text for the team on click
    const memberDeleted = memberThread.getByTestId('message-deleted');
    await memberDeleted.waitFor({ timeout: 10_000 });
    expect(await memberDeleted.innerText()).toContain('This message was deleted');
    expect(await memberThread.locator('[data-testid="message"]').filter({ hasText: 'Wrong link' }).count()).toBe(0);
    await memberThread.getByTestId('message-deleted-toggle').click();
    const original = memberThread.getByTestId('message-deleted-original');
    await original.waitFor();
    expect(await original.innerText()).toContain('Wrong link: example.com/old-menu');
    expect(await original.innerText()).toContain(`Deleted by ${rt.adminEmail}`);
    await member.screenshot({ path: join(SHOTS, 'message-deleted-second-browser-desktop.png') });
    // the member saw no toast: it was not their delete
    expect(await toast(member, 'Message deleted successfully!').count()).toBe(0);
    await member.context().close();
    await admin.context().close();
  });

  it('a delete WhatsApp refuses says “Error while deleting message” and the message comes back', async () => {
    await seedSentMessage(web, chatId, 'Please keep this one', { at: Date.now() - MIN, author: rt.adminEmail });
    const admin = await signIn(browser, rt, rt.adminEmail);
    const thread = await openChat(admin, chatId);
    const msg = bubble(thread, 'Please keep this one');
    await openMenu(msg);
    await admin.getByTestId('menu-delete').click();
    await admin.getByTestId('delete-message-confirm').click();
    await expect.poll(() => msg.count(), { timeout: 10_000 }).toBe(0);
    await eventually(async () => wa.commands.some((c) => c.kind === 'delete'), 10_000, 'the delete command');
    const cmd = wa.take('delete');
    await onDeleteResult(cmd, { ok: false, reason: 'The number is not connected.', retryable: false });
    await toast(admin, 'Error while deleting message').waitFor({ timeout: 10_000 });
    await msg.waitFor({ timeout: 10_000 });
    await admin.context().close();
  });

  it('a Cloud API number offers neither Edit nor Delete for everyone (its capabilities)', async () => {
    const wa2 = '16505550778';
    expect((await rt.postWebhook(inboundText(rt.phone, wa2, 'Hello over the Cloud API', { name: 'Alan Turing' }))).status).toBe(200);
    await rt.idle();
    const admin = await signIn(browser, rt, rt.adminEmail);
    const thread = await openChat(admin, `${wa2}@c.us`);
    await openMenu(bubble(thread, 'Hello over the Cloud API'));
    expect(await admin.getByTestId('menu-react').count()).toBe(1);
    expect(await admin.getByTestId('menu-edit').count()).toBe(0);
    expect(await admin.getByTestId('menu-delete').count()).toBe(0);
    await admin.context().close();
  });

  it('a customer’s edit on WhatsApp updates the bubble live (phone layout)', async () => {
    const id = await customerWrites(web, customer, 'Table for 2 at 8pm please', { name: 'Ada Lovelace' });
    const member = await signIn(browser, rt, rt.memberEmail, PHONE);
    const thread = await openChat(member, chatId);
    await bubble(thread, 'Table for 2 at 8pm').waitFor();
    expect(await applyInboundEdit({ org_id: rt.orgId, phone_id: web.phone_id, chat_id: chatId, message_id: id, body: 'Table for 3 at 8pm please', at_ms: Date.now(), from: { chat_id: chatId, sender: customer, from_me: false } })).toBe('applied');
    const edited = bubble(thread, 'Table for 3 at 8pm');
    await edited.getByTestId('edited-label').waitFor({ timeout: 10_000 });
    expect(await edited.getByTestId('edited-label').getAttribute('title')).toContain(`by ${customer} on WhatsApp`);
    await member.screenshot({ path: join(SHOTS, 'message-edited-inbound-phone.png') });
    await member.context().close();
  });
});
