import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { startTestRuntime, type TestRuntime } from '../factories/runtime.ts';
import { envelope, newWamid } from '../../shared/whatsapp/cloud/payloads.ts';
import { metrics, METRIC } from '../../shared/metrics.ts';
import { REJECTION_PREVIEW_CHARS, type WebhookRejection } from '../../shared/whatsapp/webhook-rejection.schemas.ts';
import { findKeptRejection, formatRejection, formatRejectionList, listKeptRejections } from '../../scripts/dlq-rejections.ts';

/**
 * Dead letters of the WhatsApp webhook: nothing signed is answered 200 and dropped. A signed body
 * (or an update inside it) that no schema accepts is answered 200 (Meta would retry it for 7 days),
 * kept with its reason and raw body, counted in METRIC.webhookRejections, and found again through
 * the logs API (an org's admins) and `npm run dlq -- rejections` (scripts/dlq-rejections.ts: every
 * org, and the ones no org could be matched to). Runs on the real local runtime.
 */
let rt: TestRuntime;
let admin: string;
let member: string;

type Page = { rejections: WebhookRejection[]; cursor: string | null };
const listed = async () => (await rt.orgJson<Page>(admin, '/logs/webhook-rejections?limit=100')).rejections;

/** A signed body whose one message names no sender: neither `from` nor `from_user_id` (nor a contact). */
function senderless(body: string) {
  const id = newWamid();
  const message = { id, timestamp: String(Math.floor(Date.now() / 1000)), type: 'text', text: { body } };
  return { id, message, payload: envelope(rt.phone, { messages: [message] }) };
}

beforeAll(async () => {
  rt = await startTestRuntime();
  admin = await rt.signIn(rt.adminEmail);
  member = await rt.signIn(rt.memberEmail);
}, 120_000);
afterAll(async () => {
  vi.unstubAllEnvs();
  await rt?.cleanup();
});

describe('a signed message with no sender', () => {
  let id: string;
  let message: Record<string, unknown>;

  /** EMF lines written while metrics are on (Powertools writes them to stdout): kept here, not printed */
  const emf: string[] = [];

  beforeAll(async () => {
    // Arrange: metrics recorded in this process (outside Lambda they are off unless asked for), from an empty buffer
    vi.stubEnv('POWERTOOLS_METRICS_DISABLED', 'false');
    metrics.clearMetrics();
    const write = process.stdout.write.bind(process.stdout);
    vi.spyOn(process.stdout, 'write').mockImplementation((chunk) => (String(chunk).includes('"_aws"') ? (emf.push(String(chunk)), true) : write(chunk as string)));
    ({ id, message } = senderless('who sent this?'));
    // Act
    const res = await rt.postWebhook(envelope(rt.phone, { messages: [message] }));
    expect(res.status).toBe(200);
    await rt.idle();
  });

  it('is kept for the org with its reason and raw body, on the logs API (admins)', async () => {
    const row = (await listed()).find((r) => r.raw_body.includes(id));
    expect(row, 'the senderless message among the kept rejections').toBeDefined();
    expect(row!.reason).toMatch(/^bad message: .*from/);
    expect(row!.source).toBe('whatsapp_cloud');
    expect(row!.raw_body).toBe(JSON.stringify(message));
    expect(row!.size_bytes).toBe(Buffer.byteLength(JSON.stringify(message)));
    expect(row!.truncated).toBe(false);
    expect(Math.abs(row!.received_at - Date.now())).toBeLessThan(60_000);

    const one = await rt.orgJson<{ rejection: WebhookRejection }>(admin, `/logs/webhook-rejections/${row!.rejection_id}`);
    expect(one.rejection).toEqual(row);
  });

  it('is counted once in the WebhookRejections metric (Chorus namespace, service dimension)', () => {
    try {
      metrics.publishStoredMetrics();
    } finally {
      vi.restoreAllMocks();
      vi.unstubAllEnvs();
    }
    const lines = emf.flatMap((c) => c.split('\n')).filter((l) => l.includes('"_aws"')).map((l) => JSON.parse(l) as Record<string, unknown>);
    const line = lines.find((l) => METRIC.webhookRejections in l);
    expect(line, 'an EMF line with WebhookRejections').toBeDefined();
    expect([line![METRIC.webhookRejections]].flat().reduce((n: number, v) => n + Number(v), 0)).toBe(1);
    expect(line).toMatchObject({ service: 'chorus', _aws: { CloudWatchMetrics: [{ Namespace: 'Chorus' }] } });
  });

  it('is listed, and printed whole, by npm run dlq -- rejections', async () => {
    const rows = await listKeptRejections({ limit: 100 });
    const row = rows.find((r) => r.raw_body.includes(id));
    expect(row).toMatchObject({ org_id: rt.orgId, raw_body: JSON.stringify(message) });
    expect(formatRejectionList(rows)).toContain(`${rt.orgId}\t${row!.rejection_id}`);
    const one = await findKeptRejection(row!.rejection_id);
    expect(one).toMatchObject({ org_id: rt.orgId, rejection_id: row!.rejection_id, raw_body: JSON.stringify(message), reason: row!.reason });
    expect(formatRejection(one!)).toContain(`reason:     ${row!.reason}`);
    expect(formatRejection(one!)).toContain('"who sent this?"');
  });

  it('is for admins only: a member gets 403, another id 404', async () => {
    expect((await rt.orgCall(member, 'GET', '/logs/webhook-rejections')).status).toBe(403);
    expect((await rt.orgCall(admin, 'GET', '/logs/webhook-rejections/01JZ0000000000000000000000')).status).toBe(404);
    expect((await rt.orgCall(admin, 'GET', '/logs/webhook-rejections/not-an-id')).status).toBe(400);
  });
});

describe('a signed body that is not JSON', () => {
  const raw = '{"object":"whatsapp_business_account","entry":[{"id":"102290129340398","changes":[{"value":';

  it('is answered 200 and kept under "unknown" with its exact bytes: npm run dlq finds it, no org sees it', async () => {
    // Act
    const res = await rt.postWebhook(raw);
    await rt.idle();
    // Assert
    expect(res.status).toBe(200);
    const rows = await listKeptRejections({ limit: 100 });
    const row = rows.find((r) => r.raw_body === raw);
    expect(row).toMatchObject({ org_id: 'unknown', reason: 'body is not valid JSON', size_bytes: Buffer.byteLength(raw) });
    expect((await findKeptRejection(row!.rejection_id, { orgIds: ['unknown'] }))?.raw_body).toBe(raw);
    expect(formatRejection((await findKeptRejection(row!.rejection_id))!)).toContain(raw);
    // an org's admins see their own org's rejections only
    expect((await listed()).some((r) => r.rejection_id === row!.rejection_id)).toBe(false);
  });

  it('unsigned, it is refused (401) and nothing is kept', async () => {
    const before = (await listKeptRejections({ orgIds: ['unknown'], limit: 100 })).length;
    expect((await rt.postWebhook('not json, not signed', null)).status).toBe(401);
    await rt.idle();
    expect((await listKeptRejections({ orgIds: ['unknown'], limit: 100 })).length).toBe(before);
  });
});

describe('a long rejected body', () => {
  it('is listed as a preview and read whole by its id', async () => {
    const { id, message, payload } = senderless('é'.repeat(6_000));
    expect((await rt.postWebhook(payload)).status).toBe(200);
    await rt.idle();
    const row = (await listed()).find((r) => r.raw_body.includes(id));
    expect(row).toMatchObject({ truncated: true, size_bytes: Buffer.byteLength(JSON.stringify(message)) });
    expect(row!.raw_body).toHaveLength(REJECTION_PREVIEW_CHARS);
    const one = await rt.orgJson<{ rejection: WebhookRejection }>(admin, `/logs/webhook-rejections/${row!.rejection_id}`);
    expect(one.rejection).toMatchObject({ truncated: false, raw_body: JSON.stringify(message) });
  });
});
