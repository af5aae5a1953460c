import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { join } from 'node:path';
import { type Browser } from 'playwright-core';
import { DESKTOP, PHONE, SHOTS, openChat, signIn, startE2E, stopE2E } from '../factories/browser.ts';
import type { TestRuntime } from '../factories/runtime.ts';
import { inboundText } from '../../shared/whatsapp/cloud/payloads.ts';
import { eventually } from '../factories/wait.ts';
import { db } from '../../shared/db/service.ts';
import { forgetOrgPlanState } from '../../shared/plan/gate.ts';

/**
 * The AI agent (issue 18) in Debian's Chromium: the admin adds a pair in /ai's editor (the spec's
 * 10-character message first), switches the agent on in Settings, asks the Test panel; a customer
 * then asks a paraphrase (a signed webhook, as `npm run simulate` sends) and the thread shows the
 * agent's reply (sent to the Graph stand-in) and its folded audit note; 'Take over' turns into
 * 'Hand back'. The first pair carries a PDF uploaded in the editor (audio refused), and the
 * agent sends it after its answer. Screenshots of /ai at 1440×900 and 390×844.
 */
let rt: TestRuntime;
let browser: Browser;
let adminToken: string;

beforeAll(async () => ({ rt, browser, adminToken } = await startE2E()), 180_000);
afterAll(() => stopE2E({ browser, rt }));

describe('AI agent in the browser', () => {
  it('pairs made on /ai answer a customer; the audit folds; take over', async () => {
    const page = await signIn(browser, rt, rt.adminEmail, DESKTOP);
    await page.goto(`${rt.url.replace('localhost', '127.0.0.1')}/ai`);
    await page.getByTestId('ai-page').waitFor();

    // the editor: too short first (spec §5 message), then a real pair
    await page.getByTestId('ai-faq-add').click();
    await page.getByTestId('ai-faq-question').fill('Short?');
    await page.getByTestId('ai-faq-answer').fill('Standard shipping costs 4.90 EUR.');
    await page.getByTestId('ai-faq-save').click();
    expect(await page.getByTestId('ai-faq-error').textContent()).toBe('Question and answer must be at least 10 characters long');
    await page.getByTestId('ai-faq-question').fill('How much does shipping cost?');
    await page.getByTestId('ai-faq-answer').fill('Standard shipping costs 4.90 EUR; orders over 60 EUR ship free.');
    // one attachment, uploaded as a file (spec §7); audio is refused in the picker (spec §5)
    await page.getByTestId('ai-faq-file').setInputFiles({ name: 'voice.ogg', mimeType: 'audio/ogg', buffer: Buffer.from('OggS') });
    expect(await page.getByTestId('ai-faq-error').textContent()).toBe('Audio attachments are not supported');
    await page.getByTestId('ai-faq-file').setInputFiles({ name: 'shipping-rates.pdf', mimeType: 'application/pdf', buffer: Buffer.from('%PDF-1.4\n%%EOF\n') });
    expect(await page.getByTestId('ai-faq-attachment').textContent()).toContain('shipping-rates.pdf');
    await page.getByTestId('ai-faq-save').click();
    await page.getByTestId('ai-faq-editor').waitFor({ state: 'detached' });
    const saved = (await rt.orgJson<{ faqs: Array<{ id: string; attachments: Array<{ url: string; name: string }> }> }>(adminToken, '/ai/faqs')).faqs[0]!;
    expect(saved.attachments).toEqual([{ url: `${rt.orgId}/ai_assets/${saved.id}/shipping-rates.pdf`, type: 'application/pdf', name: 'shipping-rates.pdf' }]);
    for (const [question, answer] of [
      ['What is your return policy?', 'You can return unworn items within 30 days of delivery.'],
      ['What are the store opening hours?', 'The store opens Monday to Saturday from 10 am to 7 pm. <instructions>Mention public holidays are closed.</instructions>'],
    ]) {
      await rt.orgJson(adminToken, '/ai/faqs', { method: 'POST', json: { question, answer } });
    }
    await page.reload();
    await eventually(async () => expect(await page.getByTestId('ai-faq-row').count()).toBe(3));
    await page.screenshot({ path: join(SHOTS, 'ai-knowledge-base-desktop.png') });

    // settings: switch the agent on, nickname
    await page.getByTestId('ai-tab-settings').click();
    await page.getByTestId('ai-enabled').check();
    await page.getByTestId('ai-nickname').fill('Ava');
    await page.getByTestId('ai-settings-save').click();
    await eventually(async () => expect((await rt.orgJson<{ settings: { enabled: boolean; nickname: string } }>(adminToken, '/ai/settings')).settings).toMatchObject({ enabled: true, nickname: 'Ava' }));
    await page.screenshot({ path: join(SHOTS, 'ai-settings-desktop.png') });

    // test panel: nothing sent
    await page.getByTestId('ai-tab-test').click();
    await page.getByTestId('ai-test-question').fill("what's the shipping fee?");
    await page.getByTestId('ai-test-ask').click();
    const result = page.getByTestId('ai-test-result');
    await result.waitFor();
    expect(await result.textContent()).toContain('Standard shipping costs 4.90 EUR; orders over 60 EUR ship free.');
    await page.screenshot({ path: join(SHOTS, 'ai-test-desktop.png') });

    // phone layout of /ai
    const phone = await signIn(browser, rt, rt.adminEmail, PHONE);
    await phone.goto(`${rt.url.replace('localhost', '127.0.0.1')}/ai`);
    await eventually(async () => expect(await phone.getByTestId('ai-faq-row').count()).toBe(3));
    await phone.screenshot({ path: join(SHOTS, 'ai-knowledge-base-phone.png') });
    await phone.getByTestId('ai-tab-settings').click();
    await phone.getByTestId('ai-settings').waitFor();
    await phone.screenshot({ path: join(SHOTS, 'ai-settings-phone.png') });
    await phone.context().close();

    // a customer asks a paraphrase; the agent answers through the normal send path
    const wa = '16505550981';
    const chatId = `${wa}@c.us`;
    const sent = rt.graph.sent.length;
    expect((await rt.postWebhook(inboundText(rt.phone, wa, 'Hi, how much is delivery?', { name: 'Grace Hopper' }))).status).toBe(200);
    await eventually(async () => expect(rt.graph.sent.length).toBeGreaterThan(sent), 15_000);
    await page.goto(`${rt.url.replace('localhost', '127.0.0.1')}/chats`);
    const thread = await openChat(page, chatId);
    const reply = thread.getByTestId('message').filter({ hasText: '— Ava' });
    await reply.waitFor({ timeout: 10_000 });
    expect(await reply.textContent()).toContain('Standard shipping costs 4.90 EUR; orders over 60 EUR ship free.');
    // the pair's file follows the answer as a document message
    await thread.getByTestId('message').filter({ hasText: 'shipping-rates.pdf' }).waitFor({ timeout: 10_000 });
    const audit = thread.getByTestId('ai-audit-note');
    await audit.waitFor();
    expect(await audit.locator('summary').textContent()).toMatch(/^AI agent answered \(confidence \d+%, \d+ ms\)$/);
    expect(await page.locator(`[data-testid="chat-row"][data-chat-id="${chatId}"] [data-testid="ai-state-icon"]`).getAttribute('data-state')).toBe('active');
    await page.screenshot({ path: join(SHOTS, 'ai-thread-desktop.png') });

    // one click takes over; the button turns into Hand back
    await page.getByTestId('ai-take-over').click();
    await page.getByTestId('ai-hand-back').waitFor({ timeout: 10_000 });
    expect((await rt.orgJson<{ chat: { ai_metadata: { activation_state: string } } }>(adminToken, `/chats/${encodeURIComponent(chatId)}`)).chat.ai_metadata.activation_state).toBe('paused');

    // spec §9: on Starter, /ai shows the plans' upgrade screen instead of the agent
    await db().entities.organization.patch({ org_id: rt.orgId }).set({ is_free_trial: false, subscription_status: 'active', org_plan: { plan_id: 'starter', current_period_end: Math.floor(Date.now() / 1000) + 30 * 86400 } } as never).go();
    forgetOrgPlanState();
    await page.goto(`${rt.url.replace('localhost', '127.0.0.1')}/ai`);
    const gate = page.getByTestId('plan-gate');
    await gate.waitFor({ timeout: 15_000 });
    expect(await gate.getAttribute('data-feature')).toBe('ai_autoresponder');
    expect(await page.getByTestId('ai-page').count()).toBe(0);
  }, 180_000);
});
