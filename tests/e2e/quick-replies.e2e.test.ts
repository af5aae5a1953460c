import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { join } from 'node:path';
import { type Browser } from 'playwright-core';
import { DESKTOP, PHONE, SHOTS, openChat, signIn, startE2E, stopE2E } from '../factories/browser.ts';
import type { TestRuntime } from '../factories/runtime.ts';
import { inboundText, newWamid } from '../../shared/whatsapp/cloud/payloads.ts';

/**
 * Quick replies end to end in Debian's Chromium (issue 15 item 5): an admin saves replies on
 * /settings/replies; in a chat, typing '/' opens the picker, typing narrows it, the arrow keys and
 * Enter insert one with its variables filled ({{contact.first_name}}, {{member.name}}), Esc closes
 * it, a click inserts too. Screenshots at 1440x900 and 390x844: test-results/screenshots/replies-*.png.
 */
let rt: TestRuntime;
let browser: Browser;
const base = () => rt.url.replace('localhost', '127.0.0.1');
const CUSTOMER = '16505550977';
const chat = `${CUSTOMER}@c.us`;

beforeAll(async () => {
  ({ rt, browser } = await startE2E());
  await rt.postWebhook(inboundText(rt.phone, CUSTOMER, 'Hi, are you open on Sunday?', { name: 'Grace Hopper', id: newWamid() }));
  await rt.idle();
});
afterAll(() => stopE2E({ browser, rt }));

describe('quick replies in the browser', () => {
  it('saves replies in settings, then "/" in the composer picks one from the keyboard with its variables filled', async () => {
    const page = await signIn(browser, rt, rt.adminEmail, DESKTOP);
    await page.goto(`${base()}/settings/replies`);
    const add = async (shortcut: string, text: string) => {
      await page.getByTestId('reply-shortcut').fill(shortcut);
      await page.getByTestId('reply-text').fill(text);
      await page.getByTestId('reply-save').click();
      await page.locator(`[data-testid="reply-row"][data-shortcut="${shortcut}"]`).waitFor();
    };
    await add('hours', 'Hi {{contact.first_name}}, we are open 9:00-18:00, Monday to Saturday. — {{member.name}}');
    await add('thanks', 'Thank you for writing to us!');
    await add('address', 'We are at 12 Harbour Street.');
    // a bad variable is refused with the field and the reason
    await page.getByTestId('reply-shortcut').fill('bad');
    await page.getByTestId('reply-text').fill('Hi {{contact.phone}}');
    await page.getByTestId('reply-save').click();
    await page.getByRole('alert').filter({ hasText: 'unknown variable {{contact.phone}}' }).waitFor();
    await page.screenshot({ path: join(SHOTS, 'replies-settings-desktop.png') });

    await page.goto(`${base()}/chats`);
    await openChat(page, chat);
    const input = page.getByTestId('composer-input');
    await input.click();
    await input.pressSequentially('/');
    const picker = page.getByTestId('reply-picker');
    await picker.waitFor();
    // the replies load after the picker opens (it shows a loading line first)
    await expect.poll(async () => picker.getByTestId('reply-option').evaluateAll((els) => els.map((e) => e.getAttribute('data-shortcut')))).toEqual(['address', 'hours', 'thanks']);
    await input.pressSequentially('h');
    // shortcut prefix first ('hours'), then a shortcut containing 'h' ('thanks'), then text ('address': 'Harbour')
    await expect.poll(async () => picker.getByTestId('reply-option').evaluateAll((els) => els.map((e) => e.getAttribute('data-shortcut')))).toEqual(['hours', 'thanks', 'address']);
    await page.screenshot({ path: join(SHOTS, 'replies-picker-desktop.png') });
    await input.press('ArrowDown');
    await expect.poll(async () => picker.locator('[aria-selected="true"]').getAttribute('data-shortcut')).toBe('thanks');
    await input.press('ArrowUp');
    await input.press('Enter');
    // {{member.name}}: the admin's member name, else their email
    await expect.poll(async () => input.inputValue()).toMatch(/^Hi Grace, we are open 9:00-18:00, Monday to Saturday\. — [^{}\s][^{}]*$/);
    expect(await picker.count()).toBe(0);

    // Esc closes the picker and keeps the text; Enter then sends
    await input.fill('');
    await input.pressSequentially('/tha');
    await picker.waitFor();
    await input.press('Escape');
    expect(await picker.count()).toBe(0);
    expect(await input.inputValue()).toBe('/tha');
    // a click inserts, then Enter sends the filled text
    await input.fill('');
    await input.pressSequentially('/');
    await picker.locator('[data-shortcut="thanks"]').click();
    await expect.poll(async () => input.inputValue()).toBe('Thank you for writing to us!');
    await input.press('Enter');
    await page.getByTestId('message').filter({ hasText: 'Thank you for writing to us!' }).waitFor();
    await page.close();
  });

  it('works on a phone', async () => {
    const page = await signIn(browser, rt, rt.adminEmail, PHONE);
    await openChat(page, chat);
    const input = page.getByTestId('composer-input');
    await input.click();
    await input.pressSequentially('/ho');
    await page.getByTestId('reply-picker').waitFor();
    await page.screenshot({ path: join(SHOTS, 'replies-picker-phone.png') });
    await input.press('Enter');
    await expect.poll(async () => input.inputValue()).toMatch(/^Hi Grace, we are open/);
    await page.goto(`${base()}/settings/replies`);
    await page.getByTestId('reply-row').first().waitFor();
    await page.screenshot({ path: join(SHOTS, 'replies-settings-phone.png') });
    await page.close();
  });
});
