import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestRuntime, type TestRuntime } from '../factories/runtime.ts';
import { eventually } from '../factories/wait.ts';
import { inboundText } from '../../shared/whatsapp/cloud/payloads.ts';
import type { Message } from '../../shared/message/message.schemas.ts';

/**
 * Issue 49 item 3: the Graph stand-in follows each accepted send with signed sent → delivered →
 * read status webhooks in Meta's shape, so a demo reply's ticks move like on WhatsApp. This file's
 * runtime opts in with short delays (npm start has it on; other test runtimes have it off).
 */
let rt: TestRuntime;
let token: string;

beforeAll(async () => {
  rt = await startTestRuntime({ graphStatuses: { delaysMs: { sent: 20, delivered: 60, read: 120 } } });
  token = await rt.signIn(rt.adminEmail);
});
afterAll(async () => {
  await rt?.cleanup();
});

async function reply(chatId: string, body: string): Promise<Message> {
  const r = await rt.api(token, `/api/orgs/${rt.orgId}/chats/${encodeURIComponent(chatId)}/messages`, { method: 'POST', json: { body } });
  expect(r.status).toBe(201);
  return ((await r.json()) as { message: Message }).message;
}

async function messageOf(chatId: string, uniqueId: string): Promise<Message | undefined> {
  const r = await rt.api(token, `/api/orgs/${rt.orgId}/chats/${encodeURIComponent(chatId)}/messages?limit=100`);
  return ((await r.json()) as { messages: Message[] }).messages.find((m) => m.unique_id === uniqueId);
}

type StatusBody = { entry: Array<{ changes: Array<{ value: { metadata: Record<string, string>; contacts?: Array<Record<string, string>>; statuses: Array<Record<string, unknown>> } }> }> };

describe('the Graph stand-in sends statuses after each send', () => {
  it("a reply's ack moves to read through signed, Meta-shaped status webhooks", async () => {
    const from = '15550104949';
    await rt.postWebhook(inboundText(rt.phone, from, 'hi'));
    await rt.idle();
    const sent = await reply(`${from}@c.us`, 'on its way');

    const read = await eventually(async () => {
      const m = await messageOf(`${from}@c.us`, sent.unique_id);
      return m?.ack === 3 && m;
    }, 20_000, 'the reply to be read');
    expect(read.message_id).toMatch(/^wamid\./);

    const posted = rt.graph.statusesPosted.filter((p) => p.wamid === read.message_id);
    expect(posted.map((p) => p.status)).toEqual(['sent', 'delivered', 'read']);
    // every one accepted by the webhook: signed with the app secret
    expect(posted.map((p) => p.http)).toEqual([200, 200, 200]);
    const [s, d, r] = posted.map((p) => (p.body as StatusBody).entry[0]!.changes[0]!.value);
    expect(s!.metadata).toEqual({ display_phone_number: rt.phone.display_phone_number, phone_number_id: rt.phone.phone_number_id });
    expect(s!.statuses[0]).toMatchObject({
      id: read.message_id,
      status: 'sent',
      recipient_id: from,
      recipient_user_id: expect.stringMatching(/^US\.\d+$/),
      conversation: { id: expect.stringMatching(/^[0-9a-f]{32}$/), expiration_timestamp: expect.stringMatching(/^\d+$/), origin: { type: 'service' } },
      pricing: { billable: false, pricing_model: 'PMP', type: 'free_customer_service', category: 'service' },
    });
    expect(s!.contacts).toEqual([{ wa_id: from, user_id: s!.statuses[0]!.recipient_user_id }]);
    expect(d!.statuses[0]).toMatchObject({ status: 'delivered', pricing: { pricing_model: 'PMP' }, conversation: { id: (s!.statuses[0]!.conversation as { id: string }).id } });
    expect(d!.statuses[0]!.conversation).not.toHaveProperty('expiration_timestamp');
    expect(r!.statuses[0]).toMatchObject({ status: 'read', recipient_id: from });
    expect(r!.statuses[0]).not.toHaveProperty('pricing');
  });

  it('switched off, a send gets no statuses and stays pending', async () => {
    rt.graph.simulateStatuses(null);
    const from = '15550104950';
    await rt.postWebhook(inboundText(rt.phone, from, 'hello'));
    await rt.idle();
    const sent = await reply(`${from}@c.us`, 'no ticks');
    const m = await eventually(async () => {
      const x = await messageOf(`${from}@c.us`, sent.unique_id);
      return x?.message_id ? x : undefined;
    }, 20_000, 'the reply to be sent');
    await rt.idle();
    expect(rt.graph.statusesPosted.filter((p) => p.wamid === m.message_id)).toEqual([]);
    // accepted by the Graph API but never acknowledged: the "Pending" of issue 49 item 3
    expect((await messageOf(`${from}@c.us`, sent.unique_id))?.ack).toBe(0);
  });
});
