import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Webhook } from 'standardwebhooks';
import { startTestRuntime, type TestRuntime } from '../factories/runtime.ts';
import { startReceiver, type Receiver } from '../factories/webhook-receiver.ts';
import { eventually } from '../factories/wait.ts';
import { inboundText } from '../../shared/whatsapp/cloud/payloads.ts';
import { setWebhookClock } from '../../shared/webhooks/clock.ts';
import { schedulerPort, setSchedulerPort, type ScheduledCommand } from '../../shared/ports/scheduler.ts';
import { enqueue } from '../../shared/ports/commands.ts';
import { signedHeaders } from '../../shared/webhooks/send.ts';
import { DISABLE_AFTER_MS, RETRY_DELAYS_MS } from '../../shared/webhooks/webhook.rules.ts';

/**
 * Outbound webhooks end to end (issue 20 item 4) against the local runtime and a local receiver
 * that checks every request with the official Standard Webhooks library (`standardwebhooks`
 * `Webhook.verify`). Retries run on an injected clock: the engine's clock is a variable here and
 * the scheduler port is wrapped so retry wake-ups fire when the test advances that clock (no sleeps).
 */
let rt: TestRuntime;
let admin: string;
let member: string;
let rx: Receiver;
let now = Date.now();
const pending = new Map<string, ScheduledCommand>();
/** per path: statuses to answer in order (then 200) */
const script = new Map<string, number[]>();

type Endpoint = { endpoint_id: string; secret: string; enabled: boolean; disabled_reason: string | null; url: string };
type Delivery = { delivery_id: string; status: string; attempts: number; response_code: number | null; event_type: string; latency_ms: number | null; request_body: string };

beforeAll(async () => {
  process.env.CHORUS_WEBHOOKS_ALLOW_LOOPBACK = '1';
  rt = await startTestRuntime();
  [admin, member] = await Promise.all([rt.signIn(rt.adminEmail), rt.signIn(rt.memberEmail)]);
  setWebhookClock(() => now);
  const real = await schedulerPort();
  setSchedulerPort({
    schedule: async (cmd) => (cmd.queue === 'webhook-deliveries' ? void pending.set(cmd.name, cmd) : real.schedule(cmd)),
    cancel: async (name) => (pending.delete(name) ? undefined : real.cancel(name)),
  });
  rx = await startReceiver((r) => {
    const s = script.get(r.path);
    if (r.path.startsWith('/down')) return 503;
    return s?.length ? s.shift()! : 200;
  });
}, 120_000);

afterAll(async () => {
  setWebhookClock(undefined);
  await rx?.close();
  await rt?.cleanup();
  delete process.env.CHORUS_WEBHOOKS_ALLOW_LOOPBACK;
});

/** Move the injected clock and fire the retry wake-ups that came due. */
async function advance(ms: number): Promise<number> {
  now += ms;
  const due = [...pending.values()].filter((c) => c.at <= now);
  for (const c of due) {
    pending.delete(c.name);
    await enqueue(c.queue, c.body);
  }
  return due.length;
}

const createEndpoint = async (path: string, events: string[]) => (await rt.orgCall<{ endpoint: Endpoint }>(admin, 'POST', '/webhooks', { url: `${rx.url}${path}`, events, description: path })).body.endpoint;
const deliveries = async (id: string) => (await rt.orgJson<{ deliveries: Delivery[] }>(admin, `/webhooks/${id}/deliveries`)).deliveries;
const receivedAt = (path: string) => rx.received.filter((r) => r.path === path);
const delivery = async (epId: string, deliveryId: string) => eventually(async () => (await deliveries(epId)).find((d) => d.delivery_id === deliveryId), 10_000, 'the delivery row');
async function settled(epId: string, deliveryId: string, status: string) {
  return eventually(async () => {
    const d = await delivery(epId, deliveryId);
    return d.status === status ? d : null;
  }, 15_000, `delivery ${deliveryId} ${status}`);
}

describe('outbound webhooks', () => {
  it('admins manage endpoints; URLs are checked (SSRF) with the field and reason; members get 403', async () => {
    const bad = await rt.orgCall<{ error: { details: Array<{ field: string; reason: string }> } }>(admin, 'POST', '/webhooks', { url: 'https://169.254.169.254/latest', events: ['message.received'] });
    expect(bad.status).toBe(400);
    expect(bad.body.error.details[0]).toMatchObject({ field: 'url', reason: expect.stringMatching(/linkLocal/) });
    const priv = await rt.orgCall<{ error: { details: Array<{ field: string }> } }>(admin, 'POST', '/webhooks', { url: 'http://10.1.2.3/hook', events: ['message.received'] });
    expect(priv.status).toBe(400);
    const noEvents = await rt.orgCall(admin, 'POST', '/webhooks', { url: `${rx.url}/x`, events: [] });
    expect(noEvents.status).toBe(400);
    const unknownEvent = await rt.orgCall(admin, 'POST', '/webhooks', { url: `${rx.url}/x`, events: ['message.nope'] });
    expect(unknownEvent.status).toBe(400);
    expect((await rt.orgCall(member, 'GET', '/webhooks')).status).toBe(403);
    expect((await rt.orgCall(member, 'POST', '/webhooks', { url: `${rx.url}/x`, events: ['message.received'] })).status).toBe(403);
  });

  it('a customer message reaches the endpoint signed per Standard Webhooks; the official library verifies it and rejects a tampered body and a stale timestamp', async () => {
    const ep = await createEndpoint('/inbound', ['message.received', 'chat.assigned']);
    expect(ep.secret).toMatch(/^whsec_/);
    expect((await rt.postWebhook(inboundText(rt.phone, '447700900777', 'Where is my parcel?', { name: 'Webhook Wendy' }))).status).toBe(200);
    const r = await eventually(async () => receivedAt('/inbound')[0], 15_000, 'the message.received webhook');
    const wh = new Webhook(ep.secret);
    const payload = wh.verify(r.body, r.headers) as { type: string; timestamp: string; data: { message: { body: string }; chat: { chat_id: string } } };
    expect(payload.type).toBe('message.received');
    expect(payload.data.message.body).toBe('Where is my parcel?');
    expect(r.headers['webhook-id']).toMatch(/^msg_/);
    // tampered body
    expect(() => wh.verify(r.body.replace('parcel', 'refund'), r.headers)).toThrow();
    // stale timestamp: correctly signed, 10 minutes old
    const stale = signedHeaders(r.headers['webhook-id']!, r.body, [ep.secret], new Date(Date.now() - 10 * 60_000));
    expect(() => wh.verify(r.body, stale)).toThrow(/too old/i);
    // a wrong secret
    expect(() => new Webhook(`whsec_${Buffer.alloc(32, 7).toString('base64')}`).verify(r.body, r.headers)).toThrow();
    // logged with response code and latency
    const [d] = await deliveries(ep.endpoint_id);
    expect(d).toMatchObject({ event_type: 'message.received', status: 'succeeded', attempts: 1, response_code: 200 });
    expect(d!.latency_ms).toBeGreaterThanOrEqual(0);

    // the same chat assigned: chat.assigned
    const chatId = payload.data.chat.chat_id;
    await rt.orgJson(admin, '/chats/assign', { method: 'POST', json: { chat_ids: [chatId], assigned_to: rt.memberEmail } });
    const assigned = await eventually(async () => receivedAt('/inbound').find((x) => JSON.parse(x.body).type === 'chat.assigned'), 15_000, 'chat.assigned');
    expect((wh.verify(assigned.body, assigned.headers) as { data: { chat: { assigned_to: string } } }).data.chat.assigned_to).toBe(rt.memberEmail);
  });

  it("payloads respect the org's number masking (an org-level integration is not an admin)", async () => {
    const ep = await createEndpoint('/masked', ['message.received']);
    await rt.orgJson(admin, '/settings/permissions', { method: 'PUT', json: { mask_phone_numbers: true } });
    try {
      await rt.postWebhook(inboundText(rt.phone, '447700900888', 'Masked hello', { name: '447700900888' }));
      const r = await eventually(async () => receivedAt('/masked')[0], 15_000, 'masked delivery');
      const p = new Webhook(ep.secret).verify(r.body, r.headers) as { data: { chat: Record<string, unknown>; message: Record<string, unknown> } };
      // every number field is masked as the guard masks it for a member (ids such as chat_id stay: they address the chat, as in the app)
      expect(p.data.message).toMatchObject({ body: 'Masked hello', sender_phone: '44********88', author: '44********88' });
      expect(p.data.chat.chat_name).toBe('44********88');
      expect(r.body.replaceAll('447700900888@c.us', '')).not.toContain('447700900888');
    } finally {
      await rt.orgJson(admin, '/settings/permissions', { method: 'PUT', json: { mask_phone_numbers: false } });
    }
  });

  it('retries with exponential backoff on the injected clock, same webhook-id every attempt', async () => {
    script.set('/flaky', [500, 502, 500]);
    const ep = await createEndpoint('/flaky', ['ticket.created']);
    const test = (await rt.orgCall<{ delivery: Delivery }>(admin, 'POST', `/webhooks/${ep.endpoint_id}/test`)).body.delivery;
    await eventually(async () => (await delivery(ep.endpoint_id, test.delivery_id)).attempts === 1 && pending.size > 0, 10_000, 'attempt 1 failed and a retry is scheduled');
    let d = await delivery(ep.endpoint_id, test.delivery_id);
    expect(d).toMatchObject({ status: 'pending', response_code: 500 });
    // not due yet: nothing fires
    expect(await advance(RETRY_DELAYS_MS[0] - 1_000)).toBe(0);
    expect(await advance(1_000)).toBe(1);
    await eventually(async () => (await delivery(ep.endpoint_id, test.delivery_id)).attempts === 2 && pending.size > 0, 10_000, 'attempt 2');
    expect(await advance(RETRY_DELAYS_MS[1])).toBe(1);
    await eventually(async () => (await delivery(ep.endpoint_id, test.delivery_id)).attempts === 3 && pending.size > 0, 10_000, 'attempt 3');
    expect(await advance(RETRY_DELAYS_MS[2])).toBe(1);
    d = await settled(ep.endpoint_id, test.delivery_id, 'succeeded');
    expect(d).toMatchObject({ attempts: 4, response_code: 200 });
    const got = receivedAt('/flaky');
    expect(got).toHaveLength(4);
    expect(new Set(got.map((g) => g.headers['webhook-id']))).toEqual(new Set([test.delivery_id]));
    for (const g of got) expect(new Webhook(ep.secret).verify(g.body, g.headers)).toMatchObject({ type: 'webhook.test' });
  });

  it('replay sends the same delivery again as one more attempt', async () => {
    const ep = await createEndpoint('/replay', ['ticket.created']);
    const test = (await rt.orgCall<{ delivery: Delivery }>(admin, 'POST', `/webhooks/${ep.endpoint_id}/test`)).body.delivery;
    await settled(ep.endpoint_id, test.delivery_id, 'succeeded');
    const res = await rt.orgCall(admin, 'POST', `/webhooks/${ep.endpoint_id}/deliveries/${test.delivery_id}/replay`);
    expect(res.status).toBe(202);
    await eventually(async () => receivedAt('/replay').length === 2, 10_000, 'the replay');
    const d = await settled(ep.endpoint_id, test.delivery_id, 'succeeded');
    expect(d.attempts).toBe(2);
    expect(receivedAt('/replay').map((r) => r.headers['webhook-id'])).toEqual([test.delivery_id, test.delivery_id]);
    expect((await rt.orgCall(admin, 'POST', `/webhooks/${ep.endpoint_id}/deliveries/msg_00000000000000000000000000/replay`)).status).toBe(404);
    expect((await rt.orgCall(admin, 'POST', `/webhooks/${ep.endpoint_id}/deliveries/nope/replay`)).status).toBe(400);
  });

  it('rotation: the new and the previous secret both sign for 24 h, then only the new one', async () => {
    const ep = await createEndpoint('/rotate', ['ticket.created']);
    const rotated = (await rt.orgCall<{ endpoint: Endpoint & { rotating_until: number } }>(admin, 'POST', `/webhooks/${ep.endpoint_id}/rotate-secret`)).body.endpoint;
    expect(rotated.secret).not.toBe(ep.secret);
    expect(rotated.rotating_until).toBe(now + 24 * 3600_000);
    await rt.orgCall(admin, 'POST', `/webhooks/${ep.endpoint_id}/test`);
    const r = await eventually(async () => receivedAt('/rotate')[0], 10_000, 'rotated delivery');
    expect(r.headers['webhook-signature']!.split(' ')).toHaveLength(2);
    expect(new Webhook(rotated.secret).verify(r.body, r.headers)).toMatchObject({ type: 'webhook.test' });
    expect(new Webhook(ep.secret).verify(r.body, r.headers)).toMatchObject({ type: 'webhook.test' });
    await advance(24 * 3600_000 + 1);
    await rt.orgCall(admin, 'POST', `/webhooks/${ep.endpoint_id}/test`);
    const r2 = await eventually(async () => receivedAt('/rotate')[1], 10_000, 'delivery after the overlap');
    expect(r2.headers['webhook-signature']!.split(' ')).toHaveLength(1);
    expect(new Webhook(rotated.secret).verify(r2.body, r2.headers)).toBeTruthy();
    expect(() => new Webhook(ep.secret).verify(r2.body, r2.headers)).toThrow();
  });

  it('an endpoint failing for 5 days is disabled after an exhausted delivery, and the admins get an email', async () => {
    const ep = await createEndpoint('/down', ['ticket.created']);
    const runAll = async () => {
      const test = (await rt.orgCall<{ delivery: Delivery }>(admin, 'POST', `/webhooks/${ep.endpoint_id}/test`)).body.delivery;
      for (let attempt = 1; attempt <= RETRY_DELAYS_MS.length; attempt++) {
        await eventually(async () => (await delivery(ep.endpoint_id, test.delivery_id)).attempts === attempt && [...pending.keys()].some((k) => k.includes(test.delivery_id)), 10_000, `attempt ${attempt}`);
        expect(await advance(RETRY_DELAYS_MS[attempt - 1]!)).toBe(1);
      }
      return settled(ep.endpoint_id, test.delivery_id, 'failed');
    };
    const first = await runAll();
    expect(first).toMatchObject({ attempts: 8, response_code: 503 });
    // ~27.6 h of failure: exhausted, but not yet disabled
    let eps = (await rt.orgJson<{ endpoints: Endpoint[] }>(admin, '/webhooks')).endpoints;
    expect(eps.find((e) => e.endpoint_id === ep.endpoint_id)).toMatchObject({ enabled: true });
    await advance(DISABLE_AFTER_MS);
    await runAll();
    eps = (await rt.orgJson<{ endpoints: Endpoint[] }>(admin, '/webhooks')).endpoints;
    expect(eps.find((e) => e.endpoint_id === ep.endpoint_id)).toMatchObject({ enabled: false, disabled_reason: 'failing' });
    const mail = await eventually(async () => (await rt.outbox.list(50)).find((m) => m.kind === 'webhook-disabled'), 10_000, 'the email');
    expect(mail.to).toBe(rt.adminEmail);
    expect(mail.text).toContain(`${rx.url}/down`);
    // a disabled endpoint gets no test events or replays, and no new deliveries
    expect((await rt.orgCall(admin, 'POST', `/webhooks/${ep.endpoint_id}/test`)).status).toBe(409);
    // enabling clears the failure state
    const on = (await rt.orgCall<{ endpoint: Endpoint & { failing_since: number | null } }>(admin, 'PATCH', `/webhooks/${ep.endpoint_id}`, { enabled: true })).body.endpoint;
    expect(on).toMatchObject({ enabled: true, disabled_reason: null, failing_since: null });
  }, 120_000);

  it('Zapier / Pabbly REST hooks: subscribe, sample, unsubscribe', async () => {
    const sub = await rt.orgCall<{ id: string; kind: string; events: string[] }>(admin, 'POST', '/hooks', { target_url: `${rx.url}/zap`, event: 'ticket.created', source: 'zapier' });
    expect(sub.status).toBe(201);
    expect(sub.body).toMatchObject({ kind: 'zapier', events: ['ticket.created'] });
    const samples = await rt.orgCall<Array<{ type: string; data: { ticket: { ticket_id: string } } }>>(admin, 'GET', '/hooks/samples/ticket.created');
    expect(samples.body[0]).toMatchObject({ type: 'ticket.created', data: { ticket: { ticket_id: expect.stringMatching(/^tkt_/) } } });
    expect((await rt.orgCall(admin, 'GET', '/hooks/samples/ticket.nope')).status).toBe(400);
    expect((await rt.orgCall(admin, 'DELETE', `/hooks/${sub.body.id}`)).status).toBe(200);
    expect((await rt.orgCall(admin, 'DELETE', `/hooks/${sub.body.id}`)).status).toBe(404);
  });

  it('Slack: an incoming webhook gets Block Kit messages', async () => {
    // a private address is refused for Slack too (hooks.slack.com is required outside the local test flag)
    expect((await rt.orgCall(admin, 'PUT', '/integrations/slack', { url: 'https://192.168.0.10/hook', events: ['chat.new_unassigned'] })).status).toBe(400);
    const put = await rt.orgCall<{ slack: Endpoint }>(admin, 'PUT', '/integrations/slack', { url: `${rx.url}/slack`, events: ['chat.new_unassigned', 'mention.created'] });
    expect(put.status).toBe(200);
    await rt.postWebhook(inboundText(rt.phone, '447700900999', 'Brand new chat here', { name: 'Slack Sam' }));
    const r = await eventually(async () => receivedAt('/slack')[0], 15_000, 'the Slack message');
    const body = JSON.parse(r.body) as { text: string; blocks: Array<{ type: string; text?: { type: string; text: string } }> };
    expect(body.text).toContain('New unassigned chat from Slack Sam');
    expect(body.blocks[0]).toMatchObject({ type: 'section', text: { type: 'mrkdwn' } });
    expect((await rt.orgCall(admin, 'PUT', '/integrations/slack', { url: `${rx.url}/slack`, events: ['message.received'] })).status).toBe(400);
  });
});
