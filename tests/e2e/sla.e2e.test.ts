import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { join } from 'node:path';
import type { Browser } from 'playwright-core';
import { SHOTS, openChat, signIn, startE2E, stopE2E } from '../factories/browser.ts';
import type { TestRuntime } from '../factories/runtime.ts';
import { inboundText } from '../../shared/whatsapp/cloud/payloads.ts';

/**
 * SLA policies in Debian's Chromium (issue 17 §6): an admin creates a policy on /rules › SLA
 * (first response within 30 calendar minutes), a customer writes, and the chat list row and the
 * thread header show the chat's SLA chip ("SLA 30m" / "First response due in 30m"); the breach
 * report shows its empty state. Screenshots at 1440×900: the SLA tab, /chats with the chip, the thread.
 */
let rt: TestRuntime;
let browser: Browser;
const CHAT = '15550003333@c.us';

beforeAll(async () => {
  ({ rt, browser } = await startE2E());
}, 120_000);
afterAll(() => stopE2E({ browser, rt }));

describe('SLA in the browser', () => {
  it('creates a policy on /rules › SLA and shows the chat’s SLA in the list and the thread', async () => {
    const page = await signIn(browser, rt, rt.adminEmail);
    const base = rt.url.replace('localhost', '127.0.0.1');
    await page.goto(`${base}/rules`);
    await page.getByTestId('rules-page').waitFor();
    await page.getByTestId('rules-sla-tab').click();
    await page.getByTestId('sla-new').click();
    const editor = page.getByTestId('sla-editor');
    await editor.getByTestId('sla-name').fill('Every chat');
    await editor.getByTestId('sla-first').fill('30');
    await editor.getByTestId('sla-resolution').fill('480');
    await editor.getByText('Count business hours only').click();
    await editor.getByTestId('sla-breach-notify').selectOption(rt.adminEmail);
    await page.screenshot({ path: join(SHOTS, 'sla-editor-desktop.png') });
    await editor.getByTestId('sla-save').click();
    const card = page.getByTestId('sla-card').filter({ hasText: 'Every chat' });
    await card.waitFor();
    expect(await card.locator('.rule-sentence').textContent()).toBe('For every chat: first response within 30 min, resolution within 480 min (calendar minutes), warn at 80 %; on breach notify.');
    await page.locator('.sla-breaches').getByTestId('log-empty').waitFor();
    await page.screenshot({ path: join(SHOTS, 'sla-desktop.png') });

    await rt.postWebhook(inboundText(rt.phone, '15550003333', 'Hello, is anyone there?', { name: 'Cleo' }));
    await page.goto(`${base}/chats`);
    const row = page.locator(`[data-testid="chat-row"][data-chat-id="${CHAT}"]`);
    const chip = row.getByTestId('sla-badge');
    await chip.waitFor({ timeout: 20_000 });
    expect(await chip.getAttribute('data-state')).toBe('ok');
    expect(await chip.textContent()).toMatch(/^SLA (29|30)m$/);
    await page.screenshot({ path: join(SHOTS, 'sla-chats-desktop.png') });
    await openChat(page, CHAT);
    const header = page.locator('.thread-header').getByTestId('sla-badge');
    await header.waitFor();
    expect(await header.textContent()).toMatch(/^SLA (29|30)m$/);
    expect(await header.getAttribute('title')).toMatch(/^First response due /);
    await page.screenshot({ path: join(SHOTS, 'sla-thread-desktop.png') });
  });
});
