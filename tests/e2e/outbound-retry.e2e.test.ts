import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { join } from 'node:path';
import { type Browser } from 'playwright-core';
import { PHONE, SHOTS, openChat, signIn, startE2E, stopE2E } from '../factories/browser.ts';
import type { TestRuntime } from '../factories/runtime.ts';
import { eventually } from '../factories/wait.ts';
import { runOutboundCrashChild } from '../factories/outbound-crash.ts';
import { inboundText } from '../../shared/whatsapp/cloud/payloads.ts';
import { db } from '../../shared/db/service.ts';

/**
 * Issue 23 item 4 in the browser: a send whose process died right after WhatsApp took it shows
 * "May not have been sent" with Retry (live, from the socket) instead of being resent on its own;
 * Retry sends it again and the bubble goes back to its ticks.
 */
let rt: TestRuntime;
let browser: Browser;

beforeAll(async () => ({ rt, browser } = await startE2E()));
afterAll(() => stopE2E({ browser, rt }));

describe('a send that may not have gone out', () => {
  it('says so with Retry, and Retry sends it', async () => {
    const wa = '16505550199';
    const chatId = `${wa}@c.us`;
    expect((await rt.postWebhook(inboundText(rt.phone, wa, 'Can you confirm my booking?', { name: 'Retry Customer' }))).status).toBe(200);
    const admin = await signIn(browser, rt, rt.adminEmail);
    await openChat(admin, chatId);

    const outbound = rt.queues.get('whatsapp-outbound')!;
    outbound.pause();
    await admin.getByTestId('composer-input').fill('Your booking is confirmed for Friday.');
    await admin.getByTestId('composer-input').press('Enter');
    const msg = await eventually(
      async () => (await db().entities.message.query.byChat({ org_id: rt.orgId, chat_id: chatId }).go()).data.find((m) => m.body === 'Your booking is confirmed for Friday.'),
      15_000,
      'the message is stored',
    );
    const end = await runOutboundCrashChild(rt, { org_id: rt.orgId, chat_id: chatId, unique_id: msg.unique_id, timestamp: msg.timestamp });
    expect(end.signal, end.stderr).toBe('SIGKILL');
    outbound.resume();

    const bubble = admin.locator('[data-testid="message"][data-from-me="true"]').last();
    const note = bubble.getByTestId('delivery-error');
    await expect.poll(() => note.textContent(), { timeout: 15_000 }).toContain('May not have been sent');
    expect(rt.graph.sent.filter((s) => JSON.stringify(s.body).includes('confirmed for Friday') && s.wamid)).toHaveLength(1);
    await admin.screenshot({ path: join(SHOTS, 'send-uncertain-desktop.png') });
    // on a phone too (one session at a time: the phone's sign-in pauses the desktop one)
    await admin.context().close();
    const phone = await signIn(browser, rt, rt.adminEmail, PHONE, { touch: true });
    await openChat(phone, chatId);
    const mine = phone.locator('[data-testid="message"][data-from-me="true"]').last();
    await expect.poll(() => mine.getByTestId('delivery-error').textContent(), { timeout: 15_000 }).toContain('May not have been sent');
    await phone.screenshot({ path: join(SHOTS, 'send-uncertain-phone.png') });

    await mine.getByTestId('retry-send').click();
    await expect.poll(() => mine.getByTestId('delivery-error').count(), { timeout: 15_000 }).toBe(0);
    await eventually(async () => rt.graph.sent.filter((s) => JSON.stringify(s.body).includes('confirmed for Friday') && s.wamid).length === 2, 15_000, 'sent again');
    // accepted: the message has WhatsApp's id and no doubt left
    await eventually(async () => !!(await db().entities.message.get({ org_id: rt.orgId, chat_id: chatId, timestamp: msg.timestamp, unique_id: msg.unique_id }).go()).data?.message_id, 15_000, 'wamid recorded');
    await phone.context().close();
  });
});
