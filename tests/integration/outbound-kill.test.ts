import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestRuntime, type TestRuntime } from '../factories/runtime.ts';
import { eventually } from '../factories/wait.ts';
import { inboundText, statusUpdate } from '../../shared/whatsapp/cloud/payloads.ts';
import { db } from '../../shared/db/service.ts';
import { runOutboundCrashChild } from '../factories/outbound-crash.ts';
import { callbackDataFor, UNCERTAIN_REASON } from '../../shared/inbox/send-reconcile.rules.ts';
import type { Message } from '../../shared/message/message.schemas.ts';

/**
 * Issue 23 item 4, "outbound is never sent twice silently". A child process delivers a member's
 * message and is killed (SIGKILL) at the one dangerous point: the Graph API stand-in has accepted the
 * message, the wamid is not recorded yet (CHORUS_OUTBOUND_CRASH_AFTER_GRAPH=1). The queue then
 * redelivers the command to the runtime's own consumer. Counted at the Graph stand-in (what WhatsApp
 * received, by the send's biz_opaque_callback_data): the message is never sent a second time on its
 * own. It is reconciled from Meta's status webhook when one arrives (before or after the
 * redelivery), shown as "may not have been sent" until then, and sent again only by Retry.
 */
let rt: TestRuntime;
let token: string;
const customer = '15554450001';
const chatId = `${customer}@c.us`;

const outbound = () => rt.queues.get('whatsapp-outbound')!;
/** What WhatsApp (the stand-in) accepted for one message, found by the callback data the send carried. */
const sendsOf = (m: Message) =>
  rt.graph.sent.filter((r) => r.wamid && (r.body as { biz_opaque_callback_data?: string }).biz_opaque_callback_data === callbackDataFor({ chat_id: m.chat_id, timestamp: m.timestamp, unique_id: m.unique_id }));
const stored = async (m: Message) => (await db().entities.message.get({ org_id: rt.orgId, chat_id: m.chat_id, timestamp: m.timestamp, unique_id: m.unique_id }).go()).data!;

/** A member's message, stored and queued while the outbound queue is paused, then delivered by a child killed right after WhatsApp took it. */
async function sendThenCrash(text: string): Promise<{ message: Message; wamid: string }> {
  outbound().pause();
  const { message } = await rt.orgJson<{ message: Message }>(token, `/chats/${encodeURIComponent(chatId)}/messages`, { method: 'POST', json: { body: text } });
  const end = await runOutboundCrashChild(rt, { org_id: rt.orgId, chat_id: chatId, unique_id: message.unique_id, timestamp: message.timestamp });
  expect(end, end.stderr).toMatchObject({ signal: 'SIGKILL' });
  expect(end.stdout).not.toContain('recorded');
  const sends = sendsOf(message);
  expect(sends).toHaveLength(1); // WhatsApp has it…
  const row = await stored(message);
  expect(row.message_id).toBeUndefined(); // …and Chorus does not know
  expect(row.send_started_at).toBeGreaterThan(0);
  return { message, wamid: sends[0]!.wamid! };
}

const postStatus = (m: Message, wamid: string, status: 'sent' | 'delivered') =>
  rt.postWebhook(statusUpdate(rt.phone, { id: wamid, status, recipient: customer, bizOpaqueCallbackData: callbackDataFor({ chat_id: m.chat_id, timestamp: m.timestamp, unique_id: m.unique_id }) }));

beforeAll(async () => {
  rt = await startTestRuntime();
  token = await rt.signIn(rt.adminEmail);
  // a customer message opens the 24-hour window
  expect((await rt.postWebhook(inboundText(rt.phone, customer, 'Hello, is my order on its way?'))).status).toBe(200);
  await eventually(async () => !!(await db().entities.chat.get({ org_id: rt.orgId, chat_id: chatId }).go()).data, 15_000, 'the chat is stored');
});
afterAll(async () => {
  outbound()?.resume();
  await rt?.cleanup();
});

describe('outbound: a send killed after WhatsApp took it, before its wamid was recorded', () => {
  it('the redelivered command does not send again: the message says it may not have been sent, and a status webhook reconciles it', async () => {
    const { message, wamid } = await sendThenCrash('Your order ships today.');
    outbound().resume();
    await eventually(async () => (await stored(message)).send_uncertain_at != null, 15_000, 'marked uncertain');
    await outbound().idle();
    expect(sendsOf(message)).toHaveLength(1); // not sent twice
    // the thread shows it, with the reason in words and Retry offered
    const page = await rt.orgJson<{ messages: Message[] }>(token, `/chats/${encodeURIComponent(chatId)}/messages`);
    const shown = page.messages.find((m) => m.unique_id === message.unique_id)!;
    expect(shown).toMatchObject({ ack: 0, delivery_error: { reason: UNCERTAIN_REASON } });
    expect(shown.send_uncertain_at).toBeGreaterThan(0);
    expect(shown).not.toHaveProperty('send_started_at');

    // Meta's 'sent' status carries the callback data back: the wamid is recorded, the doubt cleared
    expect((await postStatus(message, wamid, 'sent')).status).toBe(200);
    // the wamid is recorded, then the status waiting on its ref applies
    await eventually(async () => (await stored(message)).ack === 1, 15_000, 'reconciled from the status webhook');
    const row = await stored(message);
    expect(row.message_id).toBe(wamid);
    expect(row.send_uncertain_at).toBeUndefined();
    expect(row.delivery_error).toBeUndefined();
    expect(sendsOf(message)).toHaveLength(1);
  });

  it('a status that arrives before the redelivery reconciles it, and the redelivery sends nothing', async () => {
    const { message, wamid } = await sendThenCrash('Tracking number to follow.');
    expect((await postStatus(message, wamid, 'delivered')).status).toBe(200);
    await eventually(async () => (await stored(message)).ack === 2, 15_000, 'reconciled from the status webhook');
    expect((await stored(message)).message_id).toBe(wamid);
    outbound().resume();
    await outbound().idle();
    const row = await stored(message);
    expect(row.send_uncertain_at).toBeUndefined();
    expect(row.ack).toBe(2);
    expect(sendsOf(message)).toHaveLength(1);
  });

  it('Retry sends an uncertain message again, once, at the member\'s request; a late status of the first send changes nothing', async () => {
    const { message, wamid: first } = await sendThenCrash('Did you get my last message?');
    outbound().resume();
    await eventually(async () => (await stored(message)).send_uncertain_at != null, 15_000, 'marked uncertain');
    const retried = await rt.orgCall<{ message: Message }>(token, 'POST', `/chats/${encodeURIComponent(chatId)}/messages/${message.unique_id}/retry`);
    expect(retried.status).toBe(200);
    expect(retried.body.message).toMatchObject({ ack: 0, send_retries: 1 });
    await eventually(async () => !!(await stored(message)).message_id, 15_000, 'the retry was accepted');
    const row = await stored(message);
    const sends = sendsOf(message);
    expect(sends).toHaveLength(2);
    expect(row.message_id).toBe(sends[1]!.wamid);
    expect(row.send_uncertain_at).toBeUndefined();
    // the first send's status arrives late: the message keeps the retry's wamid
    expect((await postStatus(message, first, 'sent')).status).toBe(200);
    await rt.idle();
    expect((await stored(message)).message_id).toBe(sends[1]!.wamid);
    // an accepted message cannot be retried
    const again = await rt.orgCall<{ error: { code: string } }>(token, 'POST', `/chats/${encodeURIComponent(chatId)}/messages/${message.unique_id}/retry`);
    expect(again.status).toBe(400);
    expect(again.body.error.code).toBe('message.retry_refused');
  });

  it('a send Meta answered with an error releases its claim: the queue retries and sends it once', async () => {
    rt.graph.failNext(130429); // rate limited: retryable, nothing was sent
    const { message } = await rt.orgJson<{ message: Message }>(token, `/chats/${encodeURIComponent(chatId)}/messages`, { method: 'POST', json: { body: 'After a rate limit.' } });
    await eventually(async () => !!(await stored(message)).message_id, 30_000, 'sent after the retry');
    const row = await stored(message);
    expect(row.send_uncertain_at).toBeUndefined();
    expect(row.send_started_at).toBeGreaterThan(0);
    expect(sendsOf(message)).toHaveLength(1);
    // the refused call did reach the stand-in first
    const data = callbackDataFor({ chat_id: message.chat_id, timestamp: message.timestamp, unique_id: message.unique_id });
    expect(rt.graph.sent.filter((r) => r.error && (r.body as { biz_opaque_callback_data?: string }).biz_opaque_callback_data === data)).toHaveLength(1);
  });
});
