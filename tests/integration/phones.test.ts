import { TRIAL } from '../../shared/plan/catalog.rules.ts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestRuntime, type TestRuntime } from '../factories/runtime.ts';
import { seedDemo } from '../../scripts/local/seed.ts';
import { db } from '../../shared/db/service.ts';
import { inboundText } from '../../shared/whatsapp/cloud/payloads.ts';
import { decryptToken } from '../../shared/phone/token-crypto.ts';
import type { PhoneList, PhoneView } from '../../shared/phone/phone.schemas.ts';
import { eventually } from '../factories/wait.ts';

/**
 * /settings/phones over HTTP on the local runtime (issue 3 part 8): the list with its counter
 * (spec §9), adding a Cloud API number with its token checked against the Graph stand-in and
 * stored encrypted, refusals (bad token, duplicate id, member, another org, bad input), and a
 * reply from the new phone going out with that phone's own token.
 */
let rt: TestRuntime;
let admin: string;
let member: string;
let outsider: string;
const NEW_ID = '301000000000001';
const NEW_TOKEN = 'EAAG-phones-test-token-0123456789';
const enc = encodeURIComponent;

type Err = { error: { code: string; message: string; details?: Array<{ field: string; reason: string }> } };
const call = async <T>(token: string, method: string, path: string, json?: unknown) => {
  const r = await rt.api(token, `/api/orgs/${rt.orgId}${path}`, { method, json });
  return { status: r.status, body: (await r.json()) as T };
};

beforeAll(async () => {
  rt = await startTestRuntime();
  rt.graph.addPhoneNumber(NEW_ID, { display_phone_number: '+1 555-012-3456', verified_name: 'Phones Test Co', token: NEW_TOKEN });
  const outsiderEmail = 'outsider@phones.chorus';
  const sub = await rt.createUser(outsiderEmail, rt.password);
  await seedDemo({ orgName: 'Other Co', admin: { email: outsiderEmail, sub, name: 'Outsider' }, member: { email: 'm2@phones.chorus', sub: 'x', name: 'M2' }, phone: { phone_number_id: '444000888', display_phone_number: '15554440088' } });
  [admin, member, outsider] = await Promise.all([rt.signIn(rt.adminEmail), rt.signIn(rt.memberEmail), rt.signIn(outsiderEmail)]);
});
afterAll(async () => rt?.cleanup());

describe('GET /phones', () => {
  it('any member lists the phones with the counter connected / max(count, plan limit)', async () => {
    const r = await call<PhoneList>(member, 'GET', '/phones');
    expect(r.status).toBe(200);
    expect(r.body.phones).toHaveLength(1);
    expect(r.body.phones[0]).toMatchObject({ phone_id: rt.phone.phone_number_id, org_phone: rt.phone.display_phone_number, is_ready: true });
    expect(r.body.phones[0].first_connected_at).toEqual(expect.any(Number));
    // the demo workspace is on the free trial: its phone allowance (shared/plan/catalog.rules.ts TRIAL)
    expect(r.body).toMatchObject({ connected: 1, limit: TRIAL.phones });
    expect(JSON.stringify(r.body)).not.toMatch(/token/i);
  });

  it('another org is 404', async () => {
    expect((await call<Err>(outsider, 'GET', '/phones')).status).toBe(404);
  });
});

describe('POST /phones', () => {
  it('refuses a member (403) and bad input (400 with field and reason)', async () => {
    const m = await call<Err>(member, 'POST', '/phones', { phone_number_id: NEW_ID, waba_id: '1', access_token: NEW_TOKEN });
    expect(m.status).toBe(403);
    expect(m.body.error.code).toBe('phone.forbidden');
    const bad = await call<Err>(admin, 'POST', '/phones', { phone_number_id: 'abc', waba_id: '1', access_token: '' });
    expect(bad.status).toBe(400);
    expect(bad.body.error.details).toEqual(
      expect.arrayContaining([expect.objectContaining({ field: 'phone_number_id' }), expect.objectContaining({ field: 'access_token', reason: 'Please enter the access token' })]),
    );
  });

  it('refuses a token Meta rejects, with the Graph error, and stores nothing', async () => {
    const r = await call<Err>(admin, 'POST', '/phones', { phone_number_id: NEW_ID, waba_id: '102290129340398', access_token: 'EAAG-wrong' });
    expect(r.status).toBe(400);
    expect(r.body.error.code).toBe('phone.token_rejected');
    expect(r.body.error.message).toContain('Invalid OAuth access token');
    expect(r.body.error.message).toContain('code 190');
    expect(r.body.error.details).toEqual([{ field: 'access_token', reason: r.body.error.message }]);
    expect((await db().entities.phone.query.byOrg({ org_id: rt.orgId }).go()).data).toHaveLength(1);
  });

  it('refuses another org (404)', async () => {
    const r = await rt.api(outsider, `/api/orgs/${rt.orgId}/phones`, { method: 'POST', json: { phone_number_id: NEW_ID, waba_id: '1', access_token: NEW_TOKEN } });
    expect(r.status).toBe(404);
  });

  it('adds a phone with a good token: stored encrypted, never returned; the counter grows', async () => {
    const r = await call<{ phone: PhoneView }>(admin, 'POST', '/phones', { phone_number_id: NEW_ID, waba_id: '102290129340398', access_token: NEW_TOKEN });
    expect(r.status).toBe(201);
    expect(r.body.phone).toMatchObject({ phone_id: NEW_ID, org_phone: '15550123456', waba_id: '102290129340398', verified_name: 'Phones Test Co', is_ready: true });
    expect(JSON.stringify(r.body)).not.toContain(NEW_TOKEN);

    const row = (await db().entities.phone.get({ org_id: rt.orgId, phone_id: NEW_ID }).go()).data!;
    expect(row.access_token_enc).toBeTruthy();
    expect(JSON.stringify(row)).not.toContain(NEW_TOKEN);
    expect(decryptToken(row.access_token_enc!, rt.env.PHONE_TOKEN_KEY, NEW_ID)).toBe(NEW_TOKEN);

    const list = await call<PhoneList>(admin, 'GET', '/phones');
    expect(list.body).toMatchObject({ connected: 2, limit: Math.max(2, TRIAL.phones) });
    expect(list.body.phones.map((p) => p.phone_id)).toEqual([rt.phone.phone_number_id, NEW_ID]);
    expect(JSON.stringify(list.body)).not.toContain(NEW_TOKEN);
  });

  it('refuses a phone_number_id that is already connected (409), here or in another org', async () => {
    const again = await call<Err>(admin, 'POST', '/phones', { phone_number_id: NEW_ID, waba_id: '1', access_token: NEW_TOKEN });
    expect(again.status).toBe(409);
    expect(again.body.error).toMatchObject({ code: 'phone.already_connected', message: 'This phone number id is already connected to this workspace.' });
    const other = await call<Err>(admin, 'POST', '/phones', { phone_number_id: '444000888', waba_id: '1', access_token: NEW_TOKEN });
    expect(other.status).toBe(409);
    expect(other.body.error.message).toBe('This phone number id is already connected to another workspace.');
  });
});

describe('sending from the new phone', () => {
  it('goes out with the phone’s own token; the demo phone keeps the global one', async () => {
    const phone = { phone_number_id: NEW_ID, display_phone_number: '15550123456' };
    await rt.postWebhook(inboundText(phone, '15557770001', 'hello new number'));
    await rt.postWebhook(inboundText(rt.phone, '15557770002', 'hello demo number'));
    await rt.idle();
    const before = rt.graph.sent.length;
    for (const chat of ['15557770001@c.us', '15557770002@c.us']) {
      const r = await rt.api(admin, `/api/orgs/${rt.orgId}/chats/${enc(chat)}/messages`, { method: 'POST', json: { body: `reply to ${chat}` } });
      expect(r.status, await r.clone().text()).toBeLessThan(300);
    }
    await rt.idle();
    await eventually(async () => rt.graph.sent.length >= before + 2, 10_000, 'both replies sent');
    const sent = rt.graph.sent.slice(before);
    expect(sent.find((s) => s.phone_number_id === NEW_ID)?.authorization).toBe(`Bearer ${NEW_TOKEN}`);
    expect(sent.find((s) => s.phone_number_id === rt.phone.phone_number_id)?.authorization).toBe(`Bearer ${rt.env.WHATSAPP_ACCESS_TOKEN}`);
  });
});
