import { sealChatId } from '../../shared/chat/chat-id-seal.ts';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createServer, type Server } from 'node:http';
import { createECDH, createDecipheriv, createHmac, randomBytes, type ECDH } from 'node:crypto';
import { decodeJwt, decodeProtectedHeader, importJWK, jwtVerify } from 'jose';
import { startTestRuntime, type TestRuntime } from '../factories/runtime.ts';
import { freePort } from '../../scripts/local/ports.ts';
import { inboundText } from '../../shared/whatsapp/cloud/payloads.ts';
import { db } from '../../shared/db/service.ts';
import { eventually } from '../factories/wait.ts';
import { pushForEvent } from '../../shared/push/push.ts';
import { forgetOrgPreferences } from '../../shared/org/preferences.ts';
import type { PushPayload } from '../../shared/push/push.schemas.ts';

/**
 * The server half of web push (issue 21), against the real local runtime:
 * - `web-push` encrypts to a subscription whose keys this test holds (an ECDH P-256 pair and a
 *   16-byte auth secret), posts to a local HTTP receiver standing in for the push service, and
 *   the test decrypts the body per RFC 8291 (aes128gcm, hand-rolled below with node:crypto) and
 *   checks the VAPID JWT (RFC 8292) against the deployment's public key;
 * - a customer message in a chat assigned to the member reaches their device through the bus and
 *   the web-push consumer; a muted chat, a chat they may not open, the device switch off and quiet
 *   hours do not; numbers are masked for members when the org masks them;
 * - a push service answering 410 removes the subscription.
 * "Nothing was pushed" is proven without sleeping: after the event, `rt.idle()` waits until every
 * consumer finished, then the receiver's log is read.
 */
let rt: TestRuntime;
let admin: string;
let member: string;
let receiver: Server;
let receiverPort: number;
const received: Array<{ path: string; headers: Record<string, string | string[] | undefined>; body: Buffer }> = [];
/** device path -> status the fake push service answers */
const statusFor = new Map<string, number>();
const enc = encodeURIComponent;
const OPEN = '919811100001';
const chatOf = (n: string) => `${n}@c.us`;

interface Device {
  id: string;
  ecdh: ECDH;
  auth: Buffer;
  endpoint: string;
}

function newDevice(id: string): Device {
  const ecdh = createECDH('prime256v1');
  ecdh.generateKeys();
  return { id, ecdh, auth: randomBytes(16), endpoint: `http://127.0.0.1:${receiverPort}/push/${id}` };
}

const subscription = (d: Device) => ({ endpoint: d.endpoint, expirationTime: null, keys: { p256dh: d.ecdh.getPublicKey().toString('base64url'), auth: d.auth.toString('base64url') } });

/** RFC 8291 §3.4 + RFC 8188: decrypt one aes128gcm push body with the user agent's keys. Test code. */
function decrypt(d: Device, body: Buffer): string {
  const salt = body.subarray(0, 16);
  const rs = body.readUInt32BE(16);
  const idlen = body[20]!;
  const asPublic = body.subarray(21, 21 + idlen);
  const ciphertext = body.subarray(21 + idlen);
  expect(idlen).toBe(65);
  expect(ciphertext.length).toBeLessThanOrEqual(rs);
  const hmac = (key: Buffer, data: Buffer) => createHmac('sha256', key).update(data).digest();
  const ecdhSecret = d.ecdh.computeSecret(asPublic);
  const prkKey = hmac(d.auth, ecdhSecret);
  const keyInfo = Buffer.concat([Buffer.from('WebPush: info\0'), d.ecdh.getPublicKey(), asPublic]);
  const ikm = hmac(prkKey, Buffer.concat([keyInfo, Buffer.from([1])]));
  const prk = hmac(salt, ikm);
  const cek = hmac(prk, Buffer.from('Content-Encoding: aes128gcm\0\x01')).subarray(0, 16);
  const nonce = hmac(prk, Buffer.from('Content-Encoding: nonce\0\x01')).subarray(0, 12);
  const decipher = createDecipheriv('aes-128-gcm', cek, nonce);
  decipher.setAuthTag(ciphertext.subarray(ciphertext.length - 16));
  const padded = Buffer.concat([decipher.update(ciphertext.subarray(0, ciphertext.length - 16)), decipher.final()]);
  // the last record: content, then the delimiter 0x02, then zero padding
  let end = padded.length - 1;
  while (end >= 0 && padded[end] === 0) end--;
  expect(padded[end]).toBe(2);
  return padded.subarray(0, end).toString('utf8');
}

const pushesTo = (d: Device) => received.filter((r) => r.path === `/push/${d.id}`);
const payloadsOf = (d: Device): PushPayload[] => pushesTo(d).map((r) => JSON.parse(decrypt(d, r.body)) as PushPayload);

async function subscribe(token: string, email: string, d: Device, deviceType: 'desktop' | 'mobile' = 'desktop') {
  return rt.orgCall<{ device?: { device_id: string }; error?: { details: unknown } }>(token, 'POST', '/notifications/subscribe', { email, subscription: subscription(d), device_id: d.id, device_type: deviceType });
}

async function customerWrites(from: string, body: string, name = 'Customer'): Promise<void> {
  expect((await rt.postWebhook(inboundText(rt.phone, from, body, { name }))).status).toBe(200);
  await rt.idle();
}

const savePrefs = (token: string, prefs: unknown) => rt.api(token, '/api/me/preferences', { method: 'PUT', json: prefs });

beforeAll(async () => {
  receiverPort = await freePort();
  receiver = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const path = req.url ?? '';
      received.push({ path, headers: req.headers, body: Buffer.concat(chunks) });
      res.statusCode = statusFor.get(path) ?? 201;
      res.end();
    });
  });
  await new Promise<void>((r) => receiver.listen(receiverPort, '127.0.0.1', r));
  // the receiver is on loopback http: allowed for this runtime only (never by default)
  process.env.PUSH_ALLOW_LOOPBACK_HTTP = '1';
  rt = await startTestRuntime();
  [admin, member] = await Promise.all([rt.signIn(rt.adminEmail), rt.signIn(rt.memberEmail)]);
  await customerWrites(OPEN, 'hello there', 'Priya');
}, 120_000);
afterAll(async () => {
  delete process.env.PUSH_ALLOW_LOOPBACK_HTTP;
  await rt?.cleanup();
  await new Promise((r) => receiver?.close(r));
});
beforeEach(() => {
  received.length = 0;
});

describe('web-push encryption and VAPID (RFC 8291 aes128gcm, RFC 8292)', () => {
  it('a test push is encrypted to the subscription keys and signed with the deployment VAPID key', async () => {
    // Arrange
    const d = newDevice('dev-test-1');
    expect((await subscribe(member, rt.memberEmail, d)).status).toBe(201);
    const { public_key } = await rt.orgJson<{ public_key: string }>(member, '/notifications/vapid-public-key');
    // Act
    const r = await rt.orgCall<{ sent: number }>(member, 'POST', '/notifications/test', { device_id: d.id });
    // Assert
    expect(r.body.sent).toBe(1);
    const [req] = pushesTo(d);
    expect(req!.headers['content-encoding']).toBe('aes128gcm');
    expect(Number(req!.headers.ttl)).toBeGreaterThan(0);
    const payload = JSON.parse(decrypt(d, req!.body)) as PushPayload;
    expect(payload).toMatchObject({ kind: 'test', title: 'Chorus', body: 'Notifications are working on this device.', org_id: rt.orgId });
    // Authorization: vapid t=<JWT ES256>, k=<public key>
    const m = /^vapid t=([^,]+), k=(.+)$/.exec(String(req!.headers.authorization));
    expect(m?.[2]).toBe(public_key);
    const jwt = m![1]!;
    expect(decodeProtectedHeader(jwt).alg).toBe('ES256');
    expect(decodeJwt(jwt).aud).toBe(`http://127.0.0.1:${receiverPort}`);
    const raw = Buffer.from(public_key, 'base64url');
    const key = await importJWK({ kty: 'EC', crv: 'P-256', x: raw.subarray(1, 33).toString('base64url'), y: raw.subarray(33, 65).toString('base64url') }, 'ES256');
    await expect(jwtVerify(jwt, key)).resolves.toBeTruthy();
  });
});

describe('subscribe / unsubscribe (spec §7)', () => {
  it('refuses a device id that is not the endpoint last segment, another member email, and an endpoint that is not a push service', async () => {
    const d = newDevice('dev-bad-1');
    const wrongId = await rt.orgCall<{ error: { details: unknown } }>(member, 'POST', '/notifications/subscribe', { email: rt.memberEmail, subscription: subscription(d), device_id: 'other', device_type: 'desktop' });
    expect(wrongId.status).toBe(400);
    expect(wrongId.body.error.details).toContainEqual({ field: 'device_id', reason: 'must be the last path segment of subscription.endpoint' });
    const otherEmail = await subscribe(member, rt.adminEmail, d);
    expect(otherEmail.status).toBe(400);
    const evil = { ...subscription(d), endpoint: 'https://169.254.169.254/latest/dev-x' };
    const ssrf = await rt.orgCall<{ error: { details: unknown } }>(member, 'POST', '/notifications/subscribe', { email: rt.memberEmail, subscription: evil, device_id: 'dev-x', device_type: 'desktop' });
    expect(ssrf.status).toBe(400);
    expect(ssrf.body.error.details).toContainEqual({ field: 'subscription.endpoint', reason: 'must be a browser push service' });
    const badType = await rt.orgCall(member, 'POST', '/notifications/subscribe', { email: rt.memberEmail, subscription: subscription(d), device_id: d.id, device_type: 'tablet' });
    expect(badType.status).toBe(400);
  });

  it('one row per device: the same device for another member replaces the first one, and unsubscribe-all-for-device removes it', async () => {
    const d = newDevice('dev-shared-1');
    await subscribe(member, rt.memberEmail, d);
    await subscribe(member, rt.memberEmail, d);
    await subscribe(admin, rt.adminEmail, d);
    const rows = (await db().entities.pushSubscription.query.byDevice({ org_id: rt.orgId, device_id: d.id }).go()).data;
    expect(rows.map((r) => r.email)).toEqual([rt.adminEmail]);
    const gone = await rt.orgCall<{ removed: number }>(member, 'POST', '/notifications/unsubscribe-all-for-device', { device_id: d.id });
    expect(gone.body.removed).toBe(1);
    expect((await db().entities.pushSubscription.query.byDevice({ org_id: rt.orgId, device_id: d.id }).go()).data).toEqual([]);
  });

  it('unsubscribe removes only the caller row of that device', async () => {
    const d = newDevice('dev-unsub-1');
    await subscribe(member, rt.memberEmail, d, 'mobile');
    const r = await rt.orgCall<{ removed: number }>(member, 'POST', '/notifications/unsubscribe', { email: rt.memberEmail, device_id: d.id, device_type: 'mobile' });
    expect(r.body.removed).toBe(1);
    expect((await db().entities.pushSubscription.get({ org_id: rt.orgId, email: rt.memberEmail, device_id: d.id }).go()).data).toBeNull();
  });
});

describe('pushes for events (the web-push consumer)', () => {
  let d: Device;
  beforeAll(async () => {
    d = newDevice('dev-member-main');
    expect((await subscribe(member, rt.memberEmail, d)).status).toBe(201);
    expect((await rt.orgCall(admin, 'POST', '/chats/assign', { chat_ids: [chatOf(OPEN)], assigned_to: rt.memberEmail })).status).toBe(200);
    await rt.idle();
  });

  it('a customer message in a chat assigned to me is pushed, and the payload opens that chat', async () => {
    received.length = 0;
    await customerWrites(OPEN, 'Is my order shipped?', 'Priya');
    const p = await eventually(async () => payloadsOf(d).find((x) => x.kind === 'new_message'), 10_000, 'the new message push');
    expect(p).toMatchObject({ kind: 'new_message', title: 'Priya', body: 'Is my order shipped?', url: `/chats/${enc(chatOf(OPEN))}`, chat_id: chatOf(OPEN) });
  });

  it('nothing for a muted chat', async () => {
    await rt.orgCall(admin, 'POST', '/chats/mute', { chat_ids: [chatOf(OPEN)], is_muted: true });
    await rt.idle();
    received.length = 0;
    await customerWrites(OPEN, 'muted words', 'Priya');
    expect(payloadsOf(d).filter((x) => x.kind === 'new_message')).toEqual([]);
    await rt.orgCall(admin, 'POST', '/chats/mute', { chat_ids: [chatOf(OPEN)], is_muted: false });
    await rt.idle();
  });

  it('nothing when the device switch is off, or in quiet hours; again when both are lifted', async () => {
    await savePrefs(member, { notifications: { enable_notifications: false } });
    received.length = 0;
    await customerWrites(OPEN, 'while switched off', 'Priya');
    expect(pushesTo(d)).toEqual([]);
    await savePrefs(member, { notifications: { enable_notifications: true }, push: { quiet_hours: { enabled: true, start: '00:00', end: '00:00', time_zone: 'Asia/Kolkata' } } });
    await customerWrites(OPEN, 'during quiet hours', 'Priya');
    expect(pushesTo(d)).toEqual([]);
    await savePrefs(member, { push: { quiet_hours: { enabled: false } } });
    await customerWrites(OPEN, 'back on', 'Priya');
    expect(payloadsOf(d).map((x) => x.body)).toEqual(['back on']);
  });

  it('nothing about a chat the member may not open', async () => {
    expect((await rt.orgCall(admin, 'PUT', `/chats/${enc(chatOf(OPEN))}/access`, { chat_access: { [rt.adminEmail]: true } })).status).toBe(200);
    await rt.idle();
    received.length = 0;
    await customerWrites(OPEN, 'secret words', 'Priya');
    expect(pushesTo(d)).toEqual([]);
    await rt.orgCall(admin, 'PUT', `/chats/${enc(chatOf(OPEN))}/access`, { chat_access: {} });
    await rt.idle();
  });

  it('numbers are masked for a member when the org masks them (an unnamed chat is named by its number)', async () => {
    const UNNAMED = '919811100077';
    await rt.orgCall(admin, 'PUT', '/settings/permissions', { mask_phone_numbers: true });
    forgetOrgPreferences(rt.orgId);
    await savePrefs(member, { push: { new_messages: 'assigned_and_unassigned' } });
    received.length = 0;
    try {
      await customerWrites(UNNAMED, 'call me on 919811100077', '');
      // issue 41 §5: the chat id rides sealed (as the API gives it to this member), so no byte of the payload holds the number
      const sealed = sealChatId(rt.orgId, chatOf(UNNAMED));
      const p = await eventually(async () => payloadsOf(d).find((x) => x.chat_id === sealed), 10_000, 'the unassigned chat push');
      expect(p.title).toBe('91********77');
      expect(p.body).toBe('call me on 91********77');
      expect(p.url).toBe(`/chats/${sealed}`);
      expect(JSON.stringify(p)).not.toContain(UNNAMED);
    } finally {
      await rt.orgCall(admin, 'PUT', '/settings/permissions', { mask_phone_numbers: false });
      forgetOrgPreferences(rt.orgId);
      await savePrefs(member, { push: { new_messages: 'assigned' } });
    }
  });

  it('a ticket assigned to me by someone else is pushed; one I assign myself is not', async () => {
    const ticketOf = (assignee: string | null, actor: string) =>
      pushForEvent({ name: 'ticket.created', properties: { org_id: rt.orgId, ticket: { ticket_id: 'tkt_1', subject: 'Refund for order 42', chat_id: chatOf(OPEN), assignee } }, id: `e-${Math.random()}`, actor: `user:${actor}` });
    expect((await ticketOf(rt.memberEmail, rt.memberEmail)).sent).toBe(0);
    // the member has two devices here (this one and the first test's)
    expect((await ticketOf(rt.memberEmail, rt.adminEmail)).sent).toBe(2);
    expect(payloadsOf(d).at(-1)).toMatchObject({ kind: 'ticket_assigned', body: 'Refund for order 42', url: '/tickets?ticket=tkt_1' });
  });

  it('a mention in a private note is pushed to the mentioned member (through notification.created)', async () => {
    received.length = 0;
    const r = await rt.orgCall(admin, 'POST', `/chats/${enc(chatOf(OPEN))}/notes`, { body: 'please call back @member', mentions: [rt.memberEmail] });
    expect(r.status).toBe(201);
    await rt.idle();
    const p = await eventually(async () => payloadsOf(d).find((x) => x.kind === 'mention'), 10_000, 'the mention push');
    expect(p).toMatchObject({ kind: 'mention', url: `/chats/${enc(chatOf(OPEN))}` });
    expect(p.body).toContain('please call back');
  });

  it('a task reminder is pushed to the assignee, and not when reminders are switched off', async () => {
    const reminder = () =>
      pushForEvent({ name: 'task.reminder_due', properties: { org_id: rt.orgId, task: { task_id: 'tsk_1', title: 'Call Priya about the refund', assignee: rt.memberEmail, created_by: rt.adminEmail, associated_object_metadata: { id: chatOf(OPEN), type: 'chat', object: { chat_id: chatOf(OPEN) } } }, remind_at: Date.now() }, id: `e-${Math.random()}`, actor: 'system' });
    received.length = 0;
    expect((await reminder()).sent).toBeGreaterThan(0);
    expect(payloadsOf(d).at(-1)).toMatchObject({ kind: 'task_reminder', title: 'Task reminder', body: 'Call Priya about the refund', url: `/chats/${enc(chatOf(OPEN))}` });
    await savePrefs(member, { push: { task_reminders: false } });
    expect((await reminder()).sent).toBe(0);
    await savePrefs(member, { push: { task_reminders: true } });
  });

  it('a push service answering 410 removes the subscription', async () => {
    const gone = newDevice('dev-gone-1');
    await subscribe(member, rt.memberEmail, gone);
    statusFor.set(`/push/${gone.id}`, 410);
    const r = await rt.orgCall<{ sent: number; removed: number }>(member, 'POST', '/notifications/test', { device_id: gone.id });
    expect(r.body).toEqual({ sent: 0, removed: 1 });
    expect((await db().entities.pushSubscription.get({ org_id: rt.orgId, email: rt.memberEmail, device_id: gone.id }).go()).data).toBeNull();
  });
});
