import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { join } from 'node:path';
import { type Browser, type Page } from 'playwright-core';
import { DESKTOP, SHOTS, openChat, openMenu, signIn as signInAs, toast, startE2E, stopE2E } from '../factories/browser.ts';
import type { TestRuntime } from '../factories/runtime.ts';
import { inboundText, newWamid } from '../../shared/whatsapp/cloud/payloads.ts';
import { eventually } from '../factories/wait.ts';

/**
 * Private notes with @mentions (issue 4) in Debian's Chromium, two members at once: the admin
 * switches the composer to 'Private note' (Ctrl+Shift+N), mentions the member through the '@'
 * picker (arrow keys + Enter) and saves; the note never reaches the Graph API. The member, with
 * the chat open in a second browser context, sees the yellow note live with the mention
 * highlighted, a toast and the bell's count; the bell's dropdown opens the chat and marks it read.
 * Only the author's menu offers 'Delete note'; deleting leaves 'This note was deleted' for both.
 */
let rt: TestRuntime;
let browser: Browser;
let adminToken: string;

const signIn = (email: string): Promise<Page> => signInAs(browser, rt, email, DESKTOP);

beforeAll(async () => ({ rt, browser, adminToken } = await startE2E()));
afterAll(() => stopE2E({ browser, rt }));

describe('private notes in the browser', () => {
  it('admin mentions the member in a note; the member sees it live with a toast and the bell; the author deletes it', async () => {
    const wa = '16505550601';
    const chatId = `${wa}@c.us`;
    const id = newWamid();
    expect((await rt.postWebhook(inboundText(rt.phone, wa, 'Can someone call me back?', { name: 'Katherine Johnson', id }))).status).toBe(200);
    await eventually(async () => (await rt.orgJson<{ messages: Array<{ message_id?: string }> }>(adminToken, `/chats/${encodeURIComponent(chatId)}/messages`)).messages.some((m) => m.message_id === id), 15_000, 'inbound message');

    const [admin, member] = await Promise.all([signIn(rt.adminEmail), signIn(rt.memberEmail)]);
    const [thread, memberThread] = await Promise.all([openChat(admin, chatId), openChat(member, chatId)]);
    const graphBefore = rt.graph.sent.length;

    // note mode: toggle with Ctrl+Shift+N, yellow input with the note placeholder
    const input = admin.getByTestId('composer-input');
    await input.click();
    await admin.keyboard.press('Control+Shift+N');
    await admin.locator('form.composer[data-mode="note"]').waitFor({ timeout: 5_000 });
    expect(await input.getAttribute('placeholder')).toBe('Write a private note… use @ to mention');

    // '@' opens the member picker; arrow keys and Enter pick; '@Demo Member' is written
    await input.pressSequentially('Please call back @dem');
    const picker = admin.getByTestId('mention-picker');
    await picker.waitFor({ timeout: 5_000 });
    const options = picker.getByTestId('mention-option');
    const emails = await options.evaluateAll((els) => els.map((e) => e.getAttribute('data-email')));
    expect(emails).toContain(rt.memberEmail);
    for (let i = 0; i < emails.indexOf(rt.memberEmail); i++) await admin.keyboard.press('ArrowDown');
    await admin.keyboard.press('Enter');
    await picker.waitFor({ state: 'detached', timeout: 5_000 });
    await input.pressSequentially('today');
    expect(await input.inputValue()).toBe('Please call back @Demo Member today');
    await admin.screenshot({ path: join(SHOTS, 'private-note-composer-desktop.png') });
    await admin.keyboard.press('Enter');

    // the author's thread shows the note: yellow, locked label, mention highlighted
    const note = thread.locator('[data-testid="message"].msg-note').filter({ hasText: 'Please call back' });
    await note.waitFor({ timeout: 10_000 });
    expect(await note.getByTestId('note-label').textContent()).toContain('Private note');
    expect(await note.getByTestId('note-mention').textContent()).toBe('@Demo Member');
    expect(await input.inputValue()).toBe('');

    // the member sees it live, gets a toast and a bell count
    const memberNote = memberThread.locator('[data-testid="message"].msg-note').filter({ hasText: 'Please call back' });
    await memberNote.waitFor({ timeout: 10_000 });
    await toast(member, 'Demo Admin mentioned you').waitFor({ timeout: 10_000 });
    const badge = member.getByTestId('notifications-badge');
    await expect.poll(() => badge.getAttribute('data-count'), { timeout: 10_000 }).toBe('1');
    await member.screenshot({ path: join(SHOTS, 'private-note-mention-desktop.png') });

    // only its author gets 'Delete note'
    await openMenu(memberNote);
    expect(await member.getByTestId('menu-delete-note').count()).toBe(0);
    await member.keyboard.press('Escape');

    // the bell lists it; clicking opens the chat and marks it read
    await member.getByTestId('notifications-button').click();
    const item = member.getByTestId('notifications-panel').getByTestId('notification-item').first();
    await item.waitFor({ timeout: 5_000 });
    expect(await item.textContent()).toContain('Please call back @Demo Member today');
    await item.click();
    await expect.poll(() => badge.getAttribute('data-count'), { timeout: 10_000 }).toBe('0');
    expect(decodeURIComponent(member.url())).toContain(`/chats/${chatId}`);

    // nothing went to WhatsApp
    await rt.idle();
    expect(rt.graph.sent.length).toBe(graphBefore);

    // the author deletes it: both see the tombstone in its place
    const uniqueId = await note.getAttribute('data-unique-id');
    await openMenu(note);
    await admin.getByTestId('menu-delete-note').click();
    const tombstone = `[data-testid="message"][data-unique-id="${uniqueId}"] [data-testid="note-deleted"]`;
    await thread.locator(tombstone).waitFor({ timeout: 10_000 });
    await memberThread.locator(tombstone).waitFor({ timeout: 10_000 });
    expect(await memberThread.locator(tombstone).textContent()).toContain('This note was deleted');
    await admin.screenshot({ path: join(SHOTS, 'private-note-deleted-desktop.png') });

    await admin.context().close();
    await member.context().close();
  });
});
