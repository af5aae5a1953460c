import { linkWaWebNumber } from '../factories/wa-web.ts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestRuntime, type TestRuntime } from '../factories/runtime.ts';
import { eventually } from '../factories/wait.ts';
import { db } from '../../shared/db/service.ts';
import { createWaWebSession, getWaWebSession } from '../../shared/whatsapp/web/sessions.ts';
import { acquireLease, listSessions } from '../../shared/whatsapp/web/lease.ts';
import { SessionWorker } from '../../shared/whatsapp/web/session-worker.ts';
import { useDynamoAuthState, type AuthCipher } from '../../shared/whatsapp/web/auth-state.ts';
import { WaWebStandIn } from '../../scripts/local/wa-web-standin.ts';
import type { Message } from '../../shared/message/message.schemas.ts';
import type { PhoneList, PhoneView, WaWebSessionView } from '../../shared/phone/phone.schemas.ts';
import { seedDemo } from '../../scripts/local/seed.ts';
import { createHash } from 'node:crypto';
import sharp from 'sharp';
import { DOWNLOAD_FAILED } from '../../shared/whatsapp/web/media-web.ts';
import { MEDIA_WORDS } from '../../shared/media/media.rules.ts';

/**
 * The WhatsApp Web connector end to end on the local runtime: a 'wa_web' number held by the
 * in-process session worker over the WhatsApp Web stand-in (scripts/local/wa-web-standin.ts).
 * Inbound Baileys events reach the same storing pipeline as Cloud webhooks; a member's send, edit,
 * delete and reaction go through the outbound consumer and the wa-web-commands queue to the stand-in
 * in Baileys' shapes, and the acks come back to the message. Then the lease: two workers never hold
 * one number; a stopped or silent worker's numbers move to the other. And the DynamoDB auth state.
 */
let rt: TestRuntime;
let admin: string;
const PHONE = 'waweb_it_1';
const OWN = '15550009999';
const CUSTOMER = '919812345678';
const JID = `${CUSTOMER}@s.whatsapp.net`;
const CHAT = `${CUSTOMER}@c.us`;
const enc = encodeURIComponent;
const TS = () => Math.floor(Date.now() / 1000);

type Json = Record<string, unknown>;
const call = async <T = Json>(method: string, path: string, json?: unknown): Promise<{ status: number; body: T }> => {
  const r = await rt.api(admin, `/api/orgs/${rt.orgId}${path}`, { method, json });
  return { status: r.status, body: (await r.json()) as T };
};
const messages = async () => (await call<{ messages: Message[] }>('GET', `/chats/${enc(CHAT)}/messages`)).body.messages;
const byWaId = async (id: string) => (await messages()).find((m) => m.message_id === id);
const inject = async (event: string, data: unknown) => {
  rt.waWeb.inject(PHONE, { event, data } as never);
  await rt.waWebWorker.idle();
  await rt.idle();
};

beforeAll(async () => {
  rt = await startTestRuntime();
  admin = await rt.signIn(rt.adminEmail);
  await linkWaWebNumber(rt, PHONE, OWN);
}, 120_000);

afterAll(async () => {
  await rt?.cleanup();
});

describe('a wa_web number on the local runtime', () => {
  it('links at once on the stand-in: the session row is open, held by the runtime worker, with its own jid', async () => {
    const s = await getWaWebSession(PHONE);
    expect(s).toMatchObject({ state: 'open', owner: rt.waWebWorker.id, me_jid: `${OWN}:1@s.whatsapp.net` });
    expect(s!.qr).toBeUndefined();
    expect(rt.waWebWorker.holds()).toContain(PHONE);
  });

  it('an inbound text (messages.upsert) is stored through the Cloud pipeline: chat, sender, quote; a redelivery is not stored twice', async () => {
    const upsert = { type: 'notify', messages: [{ key: { remoteJid: JID, fromMe: false, id: 'IN-1' }, message: { conversation: 'Where is my parcel?' }, messageTimestamp: TS(), pushName: 'Meera' }] };
    await inject('messages.upsert', upsert);
    await inject('messages.upsert', upsert);
    const all = (await messages()).filter((m) => m.message_id === 'IN-1');
    expect(all).toHaveLength(1);
    expect(all[0]).toMatchObject({ body: 'Where is my parcel?', from_me: false, sender_phone: CUSTOMER, author: 'Meera', message_type: 'text', phone_id: PHONE });
    const chat = (await call<{ chat: Json }>('GET', `/chats/${enc(CHAT)}`)).body.chat;
    expect(chat).toMatchObject({ chat_id: CHAT, chat_name: 'Meera' });
  });

  it("a member's send goes to the worker (not the Graph API) as Baileys { text } and the stand-in's acks come back to the message", async () => {
    const graphBefore = rt.graph.sent.length;
    const res = await call<{ message: Message }>('POST', `/chats/${enc(CHAT)}/messages`, { body: 'It left the warehouse today.' });
    expect(res.status).toBeLessThan(300);
    const sent = await eventually(async () => rt.waWeb.sent.find((s) => (s.content as { text?: string }).text === 'It left the warehouse today.'), 15_000, 'the stand-in to receive the send');
    expect(sent).toMatchObject({ phone_id: PHONE, jid: JID, content: { text: 'It left the warehouse today.' } });
    const stored = await eventually(async () => {
      await rt.idle();
      const m = await byWaId(sent.key.id!);
      return m && m.ack >= 2 ? m : undefined;
    }, 15_000, 'the delivery ack on the message');
    expect(stored).toMatchObject({ unique_id: res.body.message.unique_id, from_me: true, ack: 2 });
    expect(rt.graph.sent.length).toBe(graphBefore);
  });

  it('editing our sent message sends { text, edit: key } and the result settles the edit; deleting sends { delete: key }', async () => {
    const ours = (await messages()).find((m) => m.from_me && m.body === 'It left the warehouse today.')!;
    const edit = await call('PATCH', `/chats/${enc(CHAT)}/messages/${ours.unique_id}`, { body: 'It left the warehouse this morning.' });
    expect(edit.status).toBeLessThan(300);
    const editCall = await eventually(async () => rt.waWeb.sent.find((s) => 'edit' in s.content), 15_000, 'the edit to reach the stand-in');
    expect(editCall.content).toEqual({ text: 'It left the warehouse this morning.', edit: { remoteJid: JID, fromMe: true, id: ours.message_id } });
    await eventually(async () => {
      await rt.idle();
      return ((await byWaId(ours.message_id!)) as Json | undefined)?.edit_status === 'sent';
    }, 15_000, 'edit_status sent');

    const del = await call('DELETE', `/chats/${enc(CHAT)}/messages/${ours.unique_id}`);
    expect(del.status).toBeLessThan(300);
    const delCall = await eventually(async () => rt.waWeb.sent.find((s) => 'delete' in s.content), 15_000, 'the delete to reach the stand-in');
    expect(delCall.content).toEqual({ delete: { remoteJid: JID, fromMe: true, id: ours.message_id } });
    const deleted = await eventually(async () => {
      await rt.idle();
      const m = (await byWaId(ours.message_id!)) as Json | undefined;
      return m?.is_deleted === true && m.delete_status === 'sent' ? m : undefined;
    }, 15_000, 'the delete confirmed');
    expect(deleted.body).toBe('It left the warehouse this morning.'); // kept for the team's audit
  });

  it('reacting to the inbound message sends { react: { text, key } } through the worker and marks our reaction sent', async () => {
    const inbound = (await byWaId('IN-1'))!;
    const res = await call('POST', `/chats/${enc(CHAT)}/messages/${inbound.unique_id}/reaction`, { reaction: '👍' });
    expect(res.status).toBe(202);
    const r = await eventually(async () => rt.waWeb.sent.find((s) => 'react' in s.content), 15_000, 'the reaction to reach the stand-in');
    expect(r.content).toEqual({ react: { text: '👍', key: { remoteJid: JID, fromMe: false, id: 'IN-1' } } });
    await eventually(async () => {
      await rt.idle();
      const m = await byWaId('IN-1');
      return ((m?.reactions as Record<string, { ack?: number }> | undefined)?.[OWN]?.ack ?? 0) >= 1;
    }, 15_000, 'our reaction acked');
  });

  it("the customer's edit (editedMessage) and delete for everyone (REVOKE stub) reach the message", async () => {
    await inject('messages.upsert', { type: 'notify', messages: [{ key: { remoteJid: JID, fromMe: false, id: 'IN-2' }, message: { conversation: 'Order #123' }, messageTimestamp: TS() }] });
    await inject('messages.update', [{ key: { remoteJid: JID, fromMe: false, id: 'IN-2' }, update: { message: { editedMessage: { message: { conversation: 'Order #124' } } }, messageTimestamp: TS() } }]);
    const edited = (await byWaId('IN-2')) as Json | undefined;
    expect(edited).toMatchObject({ body: 'Order #124' });
    expect(edited?.edited_at).toBeTruthy();

    await inject('messages.update', [{ key: { remoteJid: JID, fromMe: false, id: 'IN-2' }, update: { message: null, messageStubType: 1 } }]);
    const gone = (await byWaId('IN-2')) as Json | undefined;
    expect(gone).toMatchObject({ is_deleted: true });
  });

  it("the customer's reaction (messages.reaction) lands on our message; a message sent from the phone itself is stored as ours", async () => {
    const ours = (await messages()).find((m) => m.from_me && m.message_id)!;
    await inject('messages.reaction', [{ key: { remoteJid: JID, fromMe: true, id: ours.message_id }, reaction: { key: { remoteJid: JID, fromMe: false, id: 'RX-1' }, text: '❤️', senderTimestampMs: Date.now() } }]);
    const reacted = await byWaId(ours.message_id!);
    expect((reacted?.reactions as Record<string, { reaction: string }>)[CUSTOMER]?.reaction).toBe('❤️');

    await inject('messages.upsert', { type: 'append', messages: [{ key: { remoteJid: JID, fromMe: true, id: 'PHONE-1' }, message: { conversation: 'Typed on the phone' }, messageTimestamp: TS() }] });
    expect(await byWaId('PHONE-1')).toMatchObject({ from_me: true, body: 'Typed on the phone', sender_phone: OWN });
  });

  it('a received image is downloaded through the session, checked (sha256, sniffed type) and kept with its thumbnail; a missing file or a wrong checksum is a failed file with the reason', async () => {
    const png = await sharp({ create: { width: 240, height: 160, channels: 3, background: '#3a7' } }).png().toBuffer();
    const sha = createHash('sha256').update(png).digest();
    rt.waWeb.media.set('IMG-1', png);
    rt.waWeb.media.set('IMG-2', png);
    const image = (id: string, fileSha256: Buffer) => ({ key: { remoteJid: JID, fromMe: false, id }, message: { imageMessage: { mimetype: 'image/png', caption: 'the box', fileSha256, fileLength: png.length, mediaKey: Buffer.from('k') } }, messageTimestamp: TS() });
    await inject('messages.upsert', { type: 'notify', messages: [image('IMG-1', sha), image('IMG-2', Buffer.alloc(32, 1)), { key: { remoteJid: JID, fromMe: false, id: 'DOC-1' }, message: { documentMessage: { mimetype: 'application/pdf', fileName: 'bill.pdf' } }, messageTimestamp: TS() }] });
    const ok = (await byWaId('IMG-1'))!;
    expect(ok).toMatchObject({ message_type: 'image', body: 'the box' });
    expect(ok.media).toMatchObject({ status: 'stored', mimetype: 'image/png', size: png.length });
    const stored = ok.media as { path: string; thumbnail?: string };
    expect((await rt.blobs.get(stored.path))?.bytes.byteLength).toBe(png.length);
    expect(stored.thumbnail).toBeTruthy();
    const url = await call<{ url: string }>('GET', `/chats/${enc(CHAT)}/messages/${ok.unique_id}/media`);
    expect(url.status).toBe(200);
    expect((await byWaId('IMG-2'))!.media).toMatchObject({ status: 'failed', error: MEDIA_WORDS.checksum });
    expect((await byWaId('DOC-1'))!.media).toMatchObject({ status: 'failed', error: DOWNLOAD_FAILED });
  });

  it('a send whose socket call fails is retried by the queue and recorded once', async () => {
    rt.waWeb.failNext(PHONE, new Error('stream errored'));
    const res = await call<{ message: Message }>('POST', `/chats/${enc(CHAT)}/messages`, { body: 'second try works' });
    // the first attempt fails (retryable), the queue redelivers, the second reaches the stand-in
    const sent = await eventually(async () => rt.waWeb.sent.find((s) => (s.content as { text?: string }).text === 'second try works'), 15_000, 'the retried send');
    await eventually(async () => {
      await rt.idle();
      return (await messages()).find((m) => m.unique_id === res.body.message.unique_id)?.message_id === sent.key.id;
    }, 15_000, 'the retried send recorded');
  });
});

describe('linking a WhatsApp Web number from /settings/phones', () => {
  let member: string;
  let outsider: string;
  beforeAll(async () => {
    const email = 'outsider@waweb.chorus';
    const sub = await rt.createUser(email, rt.password);
    await seedDemo({ orgName: 'Other Co', admin: { email, sub, name: 'Outsider' }, member: { email: 'm2@waweb.chorus', sub: 'x', name: 'M2' }, phone: { phone_number_id: '777000555', display_phone_number: '15557770000' } });
    [member, outsider] = await Promise.all([rt.signIn(rt.memberEmail), rt.signIn(email)]);
  });
  const as = async <T = Json>(token: string, method: string, path: string, json?: unknown) => {
    const r = await rt.api(token, `/api/orgs/${rt.orgId}${path}`, { method, json });
    return { status: r.status, body: (await r.json()) as T };
  };

  it('refuses members (403) and malformed numbers (400 with the field)', async () => {
    expect((await as(member, 'POST', '/phones/wa-web', { phone: '+91 98111 22233' })).status).toBe(403);
    const bad = await as<{ error: { details: Array<{ field: string }> } }>(admin, 'POST', '/phones/wa-web', { phone: '12ab' });
    expect(bad.status).toBe(400);
    expect(bad.body.error.details[0]!.field).toBe('phone');
  });

  it('an admin adds the number: the worker starts it, the QR is readable by admins only, scanning opens it and the phone becomes ready; a logout and a relink', async () => {
    rt.waWeb.autoScan = false;
    const added = await as<{ phone: PhoneView }>(admin, 'POST', '/phones/wa-web', { phone: '+91 98111 22233' });
    expect(added.status).toBe(201);
    expect(added.body.phone).toMatchObject({ org_phone: '919811122233', connection_type: 'wa_web', is_ready: false, session_state: 'linking' });
    const id = added.body.phone.phone_id;
    expect((await as(admin, 'POST', '/phones/wa-web', { phone: '919811122233' })).status).toBe(409);

    await rt.waWebWorker.tick();
    const qr = await eventually(async () => {
      const s = (await as<{ session: WaWebSessionView }>(admin, 'GET', `/phones/${id}/wa-web-session`)).body.session;
      return s.state === 'qr' ? s : undefined;
    }, 10_000, 'the QR');
    expect(qr.qr).toMatch(/^2@chorus-local-standin,/);
    expect((await as(member, 'GET', `/phones/${id}/wa-web-session`)).status).toBe(403);
    expect((await rt.api(outsider, `/api/orgs/${rt.orgId}/phones/${id}/wa-web-session`)).status).toBe(404); // another org's admin: not a member here
    const outsiderOrg = (await (await rt.api(outsider, '/api/me')).json()) as { orgs?: Array<{ org_id: string }> };
    const otherOrgId = outsiderOrg.orgs?.find((o) => o.org_id !== rt.orgId)?.org_id;
    if (otherOrgId) expect((await rt.api(outsider, `/api/orgs/${otherOrgId}/phones/${id}/wa-web-session`)).status).toBe(404);

    rt.waWeb.scan(id);
    await eventually(async () => (await as<{ session: WaWebSessionView }>(admin, 'GET', `/phones/${id}/wa-web-session`)).body.session.state === 'open', 10_000, 'the session open');
    const list = (await as<PhoneList>(admin, 'GET', '/phones')).body;
    expect(list.phones.find((p) => p.phone_id === id)).toMatchObject({ is_ready: true, session_state: 'open', connection_type: 'wa_web' });
    expect(list.phones.find((p) => p.phone_id === id)!.first_connected_at).toBeGreaterThan(0);

    rt.waWeb.logOut(id);
    await eventually(async () => (await getWaWebSession(id))?.state === 'logged_out', 10_000, 'logged out');
    expect(await getWaWebSession(id)).toMatchObject({ wanted: false });
    // the state is stored first, then the worker lets the socket and the lease go
    await eventually(async () => !rt.waWebWorker.holds().includes(id), 10_000, 'the worker to let the number go');
    expect((await as<PhoneList>(admin, 'GET', '/phones')).body.phones.find((p) => p.phone_id === id)).toMatchObject({ is_ready: false, session_state: 'logged_out' });

    rt.waWeb.autoScan = true;
    const relinked = await as<{ session: WaWebSessionView }>(admin, 'POST', `/phones/${id}/wa-web-session/relink`, {});
    expect(relinked.body.session.state).toBe('linking');
    await rt.waWebWorker.tick();
    await eventually(async () => (await getWaWebSession(id))?.state === 'open', 10_000, 'open again');

    // another session takes the number over (440): the worker lets it go instead of fighting in a loop
    rt.waWeb.replace(id);
    await eventually(async () => (await getWaWebSession(id))?.wanted === false, 10_000, 'the replaced session given up');
    expect(await getWaWebSession(id)).toMatchObject({ state: 'closed', state_detail: 'connection replaced by another session (440)' });
    await eventually(async () => !rt.waWebWorker.holds().includes(id), 10_000, 'the worker to let the number go');
    await rt.waWebWorker.tick();
    expect(rt.waWebWorker.holds()).not.toContain(id);
  });
});

describe('leases: one worker per number', () => {
  const phones = ['waweb_lease_1', 'waweb_lease_2', 'waweb_lease_3', 'waweb_lease_4', 'waweb_lease_5'];

  beforeAll(async () => {
    await rt.waWebWorker.stop(); // the runtime's own worker steps aside: only the two below compete
    for (const p of phones) await createWaWebSession({ org_id: rt.orgId, phone_id: p, org_phone: `1555000${p.slice(-1)}000` });
  });

  it('ten contenders race for one free number: exactly one wins', async () => {
    await createWaWebSession({ org_id: rt.orgId, phone_id: 'waweb_race', org_phone: '15550007777' });
    const now = Date.now();
    const wins = await Promise.all(Array.from({ length: 10 }, (_, i) => acquireLease('waweb_race', `contender-${i}`, now, 30_000)));
    expect(wins.filter(Boolean)).toHaveLength(1);
    const owner = (await getWaWebSession('waweb_race'))!.owner;
    expect(owner).toBe(`contender-${wins.indexOf(true)}`);
    await db().entities.waWebSession.patch({ phone_id: 'waweb_race' }).set({ wanted: false }).go();
  });

  it('two workers ticking at once split the numbers without overlap; a stopped worker hands its numbers over; a silent one loses them when the lease expires', async () => {
    const standIn = new WaWebStandIn();
    let skew = 0;
    const a = new SessionWorker({ id: 'worker-a', connect: standIn.factory, leaseMs: 5_000, heartbeatMs: 60_000, maxSessions: 3 });
    const b = new SessionWorker({ id: 'worker-b', connect: standIn.factory, leaseMs: 5_000, heartbeatMs: 60_000, maxSessions: 10, now: () => Date.now() + skew });
    const all = [PHONE, ...phones].sort(); // the runtime worker's number is free again too
    await a.tick(); // a takes its 3 first, then both tick at once: b races a for the rest while a renews
    await Promise.all([a.tick(), b.tick()]);
    const held = (w: SessionWorker) => w.holds().filter((p) => all.includes(p));
    expect(held(a)).toHaveLength(3);
    expect([...held(a), ...held(b)].sort()).toEqual(all);
    expect(held(a).filter((p) => held(b).includes(p))).toEqual([]);
    expect(held(a).length).toBeLessThanOrEqual(3);
    const rows = (await listSessions()).filter((r) => all.includes(r.phone_id));
    for (const r of rows) expect(held(r.owner === 'worker-a' ? a : b)).toContain(r.phone_id);

    // a silent worker: a stops heartbeating; once its leases expire b takes them, and a's next heartbeat drops them
    const fromA = held(a);
    expect(fromA.length).toBeGreaterThan(0);
    await b.tick();
    expect(held(b).filter((p) => fromA.includes(p))).toEqual([]); // still a's: its lease is live
    skew = 6_000;
    await b.tick();
    expect(held(b).sort()).toEqual(all);
    await a.tick();
    expect(held(a)).toEqual([]);

    // a stopped worker gives its numbers back at once
    skew = 0;
    await b.stop();
    expect((await listSessions()).filter((r) => all.includes(r.phone_id) && r.owner)).toEqual([]);
    await a.tick();
    expect(a.holds()).toHaveLength(3); // its maximum, from the numbers now free (the runtime worker's too)
    await a.stop();
  });

  it('with no worker holding the number, the last attempt of a send marks the message failed with the reason', async () => {
    const res = await call<{ message: Message }>('POST', `/chats/${enc(CHAT)}/messages`, { body: 'nobody holds this number' });
    const lone = new SessionWorker({ id: 'worker-c', connect: new WaWebStandIn().factory, maxSessions: 0 + 1 });
    const cmd = { kind: 'send' as const, org_id: rt.orgId, phone_id: PHONE, chat_id: CHAT, unique_id: res.body.message.unique_id };
    expect(await lone.handleCommand(cmd, 1, 10)).toBe('not_owner');
    expect(await lone.handleCommand(cmd, 10, 10)).toBe('done');
    const m = (await messages()).find((x) => x.unique_id === res.body.message.unique_id)!;
    expect(m.ack).toBe(-1);
    expect((m.delivery_error as { reason: string }).reason).toBe('This WhatsApp Web number is not connected. Link it again on Settings → Phones.');
  });
});

describe('DynamoDB auth state (whatsapp-protocols.md §B.10, §C.1 item 4)', () => {
  it('creds and keys round-trip through BufferJSON with their bytes, encrypted at rest, one encrypt per write and one decrypt per read; null deletes', async () => {
    const counts = { enc: 0, dec: 0 };
    const key = Buffer.alloc(32, 7).toString('base64');
    const { encryptToken, decryptToken } = await import('../../shared/phone/token-crypto.ts');
    const cipher: AuthCipher = {
      encrypt: (p, aad) => (counts.enc++, encryptToken(p, key, aad)),
      decrypt: (s, aad) => (counts.dec++, decryptToken(s, key, aad)),
    };
    const first = await useDynamoAuthState('waweb_auth_1', cipher);
    await first.saveCreds();
    const session = new Uint8Array([0, 1, 2, 250, 255]);
    await first.state.keys.set({ session: { 'a.0': Buffer.from(session), 'b.0': Buffer.from([9]) }, 'pre-key': { '1': { public: Buffer.from([1, 2]), private: Buffer.from([3, 4]) } } });
    expect(counts.enc).toBe(4);
    const raw = (await db().entities.waWebAuth.get({ phone_id: 'waweb_auth_1', type: 'session', id: 'a.0' }).go()).data!;
    expect(raw.data_enc.startsWith('v1.')).toBe(true);
    expect(raw.data_enc).not.toContain('AAEC'); // no plaintext base64 of the bytes

    const again = await useDynamoAuthState('waweb_auth_1', cipher);
    expect(Buffer.from(again.state.creds.noiseKey.public).equals(Buffer.from(first.state.creds.noiseKey.public))).toBe(true);
    counts.dec = 0;
    const got = await again.state.keys.get('session', ['a.0', 'b.0', 'missing']);
    expect(counts.dec).toBe(2);
    expect(Buffer.from(got['a.0'] as Uint8Array).equals(Buffer.from(session))).toBe(true);
    expect(Object.keys(got).sort()).toEqual(['a.0', 'b.0']);
    const pre = await again.state.keys.get('pre-key', ['1']);
    expect(Buffer.from((pre['1'] as { private: Uint8Array }).private)).toEqual(Buffer.from([3, 4]));

    // concurrent sets of one key keep one whole value (the last write); null removes
    await Promise.all([again.state.keys.set({ session: { 'a.0': Buffer.from([1]) } }), again.state.keys.set({ session: { 'a.0': Buffer.from([2]) } })]);
    const last = Buffer.from((await again.state.keys.get('session', ['a.0']))['a.0'] as Uint8Array);
    expect([1, 2]).toContain(last[0]);
    await again.state.keys.set({ session: { 'a.0': null } });
    expect(await again.state.keys.get('session', ['a.0'])).toEqual({});

    // an item copied to another session does not decrypt there (bound to phone/type/id)
    await db().entities.waWebAuth.put({ phone_id: 'waweb_auth_2', type: 'session', id: 'b.0', data_enc: (await db().entities.waWebAuth.get({ phone_id: 'waweb_auth_1', type: 'session', id: 'b.0' }).go()).data!.data_enc }).go();
    const other = await useDynamoAuthState('waweb_auth_2', cipher);
    await expect(other.state.keys.get('session', ['b.0'])).rejects.toThrow();
    await again.clear();
    expect((await db().entities.waWebAuth.query.byKey({ phone_id: 'waweb_auth_1' }).go()).data).toEqual([]);
  });
});
