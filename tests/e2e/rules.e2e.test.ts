import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { join } from 'node:path';
import type { Browser } from 'playwright-core';
import { PHONE, SHOTS, openChat, signIn, startE2E, stopE2E } from '../factories/browser.ts';
import type { TestRuntime } from '../factories/runtime.ts';
import { inboundText } from '../../shared/whatsapp/cloud/payloads.ts';
import { db } from '../../shared/db/service.ts';
import { forgetRules } from '../../shared/rules/rules.ts';

/**
 * Automation rules in Debian's Chromium (issue 17): an admin writes a rule on /rules that reads
 * like a sentence ("When a message is received and the message text contains “hello”, send …,
 * then add label …"), a simulated inbound message makes it act (the templated reply appears in
 * the thread, the label on the chat), and the Log tab shows the evaluation with each action.
 * Screenshots of /rules (editor, list, log) at 1440×900 and the phone's desktop-only notice at 390×844.
 */
let rt: TestRuntime;
let browser: Browser;
let adminToken: string;
const CHAT = '15550002222@c.us';

beforeAll(async () => {
  ({ rt, browser, adminToken } = await startE2E());
  const r = await rt.orgCall<{ label: { label_id: string } }>(adminToken, 'POST', '/labels', { name: 'Greeted', color: '#2a7a4b' });
  if (r.status !== 201) throw new Error(`label: ${r.status}`);
}, 120_000);
afterAll(() => stopE2E({ browser, rt }));

describe('/rules in the browser', () => {
  it('creates a rule and sees it act on a simulated inbound message', async () => {
    const page = await signIn(browser, rt, rt.adminEmail);
    const base = rt.url.replace('localhost', '127.0.0.1');
    await page.goto(`${base}/rules`);
    await page.getByTestId('rules-page').waitFor();
    await page.getByTestId('rule-new').click();
    const editor = page.getByTestId('rule-editor');
    await editor.getByTestId('rule-name').fill('Greet hello');
    await editor.getByTestId('rule-trigger').selectOption('message.received');
    await editor.getByTestId('rule-add-condition').click();
    await editor.getByTestId('rule-cond-field').selectOption('message.body');
    await editor.getByTestId('rule-cond-op').selectOption('contains');
    await editor.getByTestId('rule-cond-value').fill('hello');
    await editor.getByTestId('rule-action-body-0').fill("Hi {{contact.name | default: 'there'}}, a human will answer soon.");
    await editor.getByTestId('rule-add-action').click();
    await editor.getByTestId('rule-action-label-1').selectOption({ label: 'Greeted' });
    await page.screenshot({ path: join(SHOTS, 'rules-editor-desktop.png') });
    await editor.getByTestId('rule-save').click();
    const card = page.getByTestId('rule-card').filter({ hasText: 'Greet hello' });
    await card.waitFor();
    expect(await card.getByTestId('rule-sentence').textContent()).toBe(
      'When a message is received and the message text contains “hello”, send “Hi {{contact.name | default: \'there\'}}, a human will answer soon.”, then add label Greeted.',
    );

    await rt.postWebhook(inboundText(rt.phone, '15550002222', 'hello, anyone there?', { name: 'Bea' }));
    await page.goto(`${base}/chats`);
    const thread = await openChat(page, CHAT);
    await thread.getByTestId('message').filter({ hasText: 'Hi Bea, a human will answer soon.' }).waitFor({ timeout: 20_000 });

    await page.goto(`${base}/rules`);
    await page.getByTestId('rule-card').first().waitFor();
    await page.screenshot({ path: join(SHOTS, 'rules-desktop.png') });
    await page.getByTestId('rules-log-tab').click();
    const row = page.locator('[data-testid="rule-log-row"][data-outcome="matched"]').first();
    await row.waitFor({ timeout: 15_000 });
    expect(await row.textContent()).toMatch(/1\. send_message: done — sent message .*2\. add_label: done/);
    await page.screenshot({ path: join(SHOTS, 'rules-log-desktop.png') });

    // a message that does not match is logged with the reason
    await rt.postWebhook(inboundText(rt.phone, '15550002222', 'bye', { name: 'Bea' }));
    const miss = page.locator('[data-testid="rule-log-row"][data-outcome="not_matched"]', { hasText: 'message.body contains "hello" (was "bye")' });
    await expect
      .poll(
        async () => {
          await page.getByRole('button', { name: 'Refresh' }).click();
          return miss.count();
        },
        { timeout: 20_000 },
      )
      .toBe(1);

    // /logs, Rules tab: a rule's name opens that rule's log on /rules
    await page.goto(`${base}/logs`);
    await page.getByTestId('logs-tab-rules').click();
    await page.locator('[data-testid="rule-log-row"][data-outcome="matched"]').first().getByRole('link').first().click();
    await page.waitForURL(/\/rules\?log=/);
    await expect.poll(() => page.getByTestId('rules-log-tab').getAttribute('data-state')).toBe('active');
    await page.locator('[data-testid="rule-log-row"][data-outcome="matched"]').first().waitFor({ timeout: 15_000 });
    expect(await page.getByRole('combobox', { name: 'Rule' }).inputValue()).not.toBe('');

    const phone = await signIn(browser, rt, rt.adminEmail, PHONE);
    await phone.goto(`${base}/rules`);
    await phone.getByTestId('unavailable-on-mobile').waitFor();
    await phone.screenshot({ path: join(SHOTS, 'rules-phone.png') });
  }, 180_000);

  it('shows a rule paused because its owner left, with the reason; the editor has the loop guard’s "may follow another rule" box (issue 42)', async () => {
    const now = Date.now();
    await db()
      .entities.rule.create({ org_id: rt.orgId, rule_id: 'rule_e2e_gone_owner', name: 'Left behind', trigger: { type: 'message.received' }, conditions: { match: 'all', items: [] }, actions: [{ type: 'close' }], enabled: true, version: 1, created_by: 'gone@test.chorus', created_at: now, updated_by: 'gone@test.chorus', updated_at: now })
      .go();
    forgetRules(rt.orgId);
    const page = await signIn(browser, rt, rt.adminEmail);
    const base = rt.url.replace('localhost', '127.0.0.1');
    await page.goto(`${base}/rules`);
    const card = page.getByTestId('rule-card').filter({ hasText: 'Left behind' });
    await card.getByTestId('rule-paused').waitFor();
    expect(await card.getByTestId('rule-paused').textContent()).toMatch(/gone@test\.chorus is no longer a member of this workspace/);
    expect(await card.getByTestId('rule-enabled').isChecked()).toBe(false);
    await page.screenshot({ path: join(SHOTS, 'rules-paused-desktop.png') });
    await card.getByTestId('rule-edit').click();
    const box = page.getByTestId('rule-editor').getByTestId('rule-allow-after-automation');
    expect(await box.isChecked()).toBe(false);
  }, 60_000);
});
