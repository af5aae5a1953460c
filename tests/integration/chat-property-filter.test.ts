import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestRuntime, type TestRuntime } from '../factories/runtime.ts';
import { inboundText } from '../../shared/whatsapp/cloud/payloads.ts';
import { db } from '../../shared/db/service.ts';
import type { Chat } from '../../shared/chat/chat.schemas.ts';
import type { PropertyDef } from '../../shared/property/property.schemas.ts';
import type { BulkJob } from '../../shared/bulk/bulk-job.schemas.ts';
import { eventually } from '../factories/wait.ts';

/**
 * The chat-list filter by custom property value (issue 15 item 4) over HTTP on the local runtime:
 * ChatPropertyLink rows kept in the chat's transaction (set, change, clear, folder moves), paging
 * with limit=1, combined with assignee / unread, a member who may not see a chat never gets it,
 * cursors of another filter refused, 400s with field and reason, and the backfill migration.
 */
let rt: TestRuntime;
let admin: string;
let member: string;
const enc = encodeURIComponent;
const wa = (n: number) => `1555777${String(n).padStart(4, '0')}`;
const chatOf = (n: number) => `${wa(n)}@c.us`;
let tier: PropertyDef;
let city: PropertyDef;

type Res<T> = { status: number; body: T };
const call = async <T = Record<string, unknown>>(token: string, method: string, path: string, json?: unknown): Promise<Res<T>> => {
  const r = await rt.api(token, `/api/orgs/${rt.orgId}${path}`, { method, json });
  return { status: r.status, body: (await r.json()) as T };
};
const list = async (token: string, q: string) => call<{ chats: Chat[]; cursor: string | null }>(token, 'GET', `/chats?${q}`);
/** every page of a filter with limit=1 */
const paged = async (token: string, q: string): Promise<string[]> => {
  const out: string[] = [];
  let cursor: string | null = null;
  for (let i = 0; i < 50; i++) {
    const r = await list(token, `${q}&limit=1${cursor ? `&cursor=${enc(cursor)}` : ''}`);
    expect(r.status, q).toBe(200);
    out.push(...r.body.chats.map((c) => c.chat_id));
    cursor = r.body.cursor;
    if (!cursor) break;
  }
  return out;
};
const setProps = (token: string, n: number, values: Record<string, string>) => call<{ chat: Chat }>(token, 'PUT', `/chats/${enc(chatOf(n))}/properties`, { custom_properties: values });
const optionId = (def: PropertyDef, label: string) => Object.entries(def.property_value).find(([, l]) => l === label)![0];

beforeAll(async () => {
  rt = await startTestRuntime();
  [admin, member] = await Promise.all([rt.signIn(rt.adminEmail), rt.signIn(rt.memberEmail)]);
  // six chats, oldest first (1 .. 6): the list is newest first
  for (let n = 1; n <= 6; n++) {
    await rt.postWebhook(inboundText(rt.phone, wa(n), `Hello ${n}`));
    await rt.idle();
  }
  tier = (await call<{ property: PropertyDef }>(admin, 'POST', '/properties', { property_name: 'Tier', property_value_type: 'dropdown', options: ['Gold', 'Silver'] })).body.property;
  city = (await call<{ property: PropertyDef }>(admin, 'POST', '/properties', { property_name: 'City', property_value_type: 'text' })).body.property;
});
afterAll(async () => rt?.cleanup());

describe('chat list filtered by a custom property value', () => {
  it('finds the chats with the value, newest first, page by page, and follows changes and clears', async () => {
    const gold = optionId(tier, 'Gold');
    for (const n of [1, 3, 4, 6]) expect((await setProps(admin, n, { [tier.property_id]: gold })).status).toBe(200);
    await setProps(admin, 2, { [tier.property_id]: optionId(tier, 'Silver'), [city.property_id]: 'Pune' });
    await setProps(admin, 5, { [city.property_id]: 'pune ' });
    const q = `state=open&property_id=${tier.property_id}&property_value=${gold}`;
    expect(await paged(admin, q)).toEqual([chatOf(6), chatOf(4), chatOf(3), chatOf(1)]);
    // text matches whatever the case (and trimmed)
    expect(await paged(admin, `state=open&property_id=${city.property_id}&property_value=PUNE`)).toEqual([chatOf(5), chatOf(2)]);
    // a changed value moves the chat, a cleared one removes it
    await setProps(admin, 4, { [tier.property_id]: optionId(tier, 'Silver') });
    await setProps(admin, 6, { [tier.property_id]: '' });
    expect(await paged(admin, q)).toEqual([chatOf(3), chatOf(1)]);
    expect(await paged(admin, `state=open&property_id=${tier.property_id}&property_value=${optionId(tier, 'Silver')}`)).toEqual([chatOf(4), chatOf(2)]);
    const links = await db().entities.chatPropertyLink.query.byValue({ org_id: rt.orgId, property_id: tier.property_id, value_key: gold.toLowerCase(), inbox_state: 'open' }).go({ pages: 'all' });
    expect(links.data.map((l) => l.chat_id).sort()).toEqual([chatOf(1), chatOf(3)]);
  });

  it('moves with the chat: a new message reorders, closing moves it to the closed folder; combines with assignee and unread as one index', async () => {
    const gold = optionId(tier, 'Gold');
    const q = `property_id=${tier.property_id}&property_value=${gold}`;
    await rt.postWebhook(inboundText(rt.phone, wa(1), 'again'));
    await rt.idle();
    expect(await paged(admin, `state=open&${q}`)).toEqual([chatOf(1), chatOf(3)]);
    expect((await call(admin, 'POST', '/chats/close', { chat_ids: [chatOf(3)], is_closed: true })).status).toBe(200);
    expect(await paged(admin, `state=open&${q}`)).toEqual([chatOf(1)]);
    expect(await paged(admin, `state=closed&${q}`)).toEqual([chatOf(3)]);
    await call(admin, 'POST', '/chats/close', { chat_ids: [chatOf(3)], is_closed: false });
    await call(admin, 'POST', '/chats/assign', { chat_ids: [chatOf(3)], assigned_to: rt.memberEmail });
    expect(await paged(member, `state=open&${q}&assignee=me`)).toEqual([chatOf(3)]);
    expect(await paged(member, `state=open&${q}&assignee=none`)).toEqual([chatOf(1)]);
    await call(admin, 'POST', `/chats/${enc(chatOf(1))}/read`);
    expect(await paged(admin, `state=open&${q}&unread=false`)).toEqual([chatOf(1)]);
    expect(await paged(admin, `state=open&${q}&unread=true`)).not.toContain(chatOf(1));
  });

  it('a member who may not see a chat never gets it (not even as a no-access row)', async () => {
    const q = `state=open&property_id=${city.property_id}&property_value=pune`;
    expect(await paged(member, q)).toEqual([chatOf(5), chatOf(2)]);
    expect((await call(admin, 'PUT', `/chats/${enc(chatOf(5))}/access`, { chat_access: { [rt.adminEmail]: true } })).status).toBe(200);
    expect(await paged(member, q)).toEqual([chatOf(2)]);
    const first = await list(member, `${q}&limit=1`);
    expect(first.body.chats.map((c) => c.chat_id)).toEqual([chatOf(2)]);
    expect(await paged(admin, q)).toEqual([chatOf(5), chatOf(2)]);
    await call(admin, 'PUT', `/chats/${enc(chatOf(5))}/access`, { chat_access: {} });
  });

  it('refuses a cursor of another filter or value, and bad parameters with the field and reason', async () => {
    const gold = optionId(tier, 'Gold');
    const silver = optionId(tier, 'Silver');
    const page = await list(admin, `state=open&property_id=${tier.property_id}&property_value=${silver}&limit=1`);
    expect(page.body.cursor).toBeTruthy();
    for (const q of [`property_id=${tier.property_id}&property_value=${gold}`, `property_id=${city.property_id}&property_value=pune`, 'assignee=none']) {
      const r = await call<{ error: { details: Array<{ field: string }> } }>(admin, 'GET', `/chats?state=open&${q}&limit=1&cursor=${enc(page.body.cursor!)}`);
      expect(r.status, q).toBe(400);
      expect(r.body.error.details[0].field).toBe('query.cursor');
    }
    const bad: Array<[string, string, string]> = [
      [`property_id=${tier.property_id}`, 'query.property_value', 'is required with property_id'],
      ['property_value=x', 'query.property_id', 'is required with property_value'],
      ['property_id=prp_nope&property_value=x', 'query.property_id', 'is not a property of this workspace'],
      [`property_id=${tier.property_id}&property_value=opt_nope`, 'query.property_value', 'must be one of the dropdown’s options'],
    ];
    for (const [q, field, reason] of bad) {
      const r = await call<{ error: { details: Array<{ field: string; reason: string }> } }>(member, 'GET', `/chats?${q}`);
      expect(r.status, q).toBe(400);
      expect(r.body.error.details[0]).toMatchObject({ field, reason });
    }
  });

  it('chats that carried values before the link rows existed are found after the migration', async () => {
    const { DeleteCommand } = await import('@aws-sdk/lib-dynamodb');
    const { documentClient } = await import('../../shared/db/client.ts');
    const { runMigrations, MIGRATIONS } = await import('../../shared/db/migrations.ts');
    const TableName = process.env.TABLE_NAME!;
    const m = MIGRATIONS.find((x) => x.id === '2026-11-26-chat-property-links')!;
    const q = `state=open&property_id=${city.property_id}&property_value=pune`;
    // as an older version stored them: values on the chats, no link rows
    const links = await db().entities.chatPropertyLink.query.byValue({ org_id: rt.orgId, property_id: city.property_id, value_key: 'pune', inbox_state: 'open' }).go({ pages: 'all' });
    expect(links.data.length).toBe(2);
    await db().entities.chatPropertyLink.delete(links.data).go();
    expect(await paged(admin, q)).toEqual([]);
    await documentClient().send(new DeleteCommand({ TableName, Key: { pk: 'migration', sk: m.id } }));
    expect(await runMigrations()).toContain(m.id);
    expect(await paged(admin, q)).toEqual([chatOf(5), chatOf(2)]);
  });
});

describe('/list bulk actions set_property and clear_property (bulk job machinery)', () => {
  const runJob = async (token: string, input: unknown) => {
    const r = await call<{ job: BulkJob }>(token, 'POST', '/chats/bulk-jobs', input);
    expect(r.status, JSON.stringify(r.body)).toBe(202);
    await rt.idle();
    return eventually(async () => {
      const j = (await call<{ job: BulkJob }>(token, 'GET', `/chats/bulk-jobs/${r.body.job.job_id}`)).body.job;
      return j.status === 'done' && j;
    }, 30_000, 'the bulk job');
  };

  it('sets a value on every chat of a filter and clears it on chosen chats; the filter follows', async () => {
    const gold = optionId(tier, 'Gold');
    const q = `state=open&property_id=${tier.property_id}&property_value=${gold}`;
    const before = await paged(admin, q);
    const set = await runJob(admin, { action: 'set_property', params: { property_id: tier.property_id, property_value: gold }, filter: { property_id: city.property_id, property_value: 'pune' } });
    expect(set).toMatchObject({ action: 'set_property', total: 2, processed: 2, succeeded: 2, failed_count: 0, params: { property_id: tier.property_id, property_value: gold } });
    const after = await paged(admin, q);
    expect(new Set(after)).toEqual(new Set([...before, chatOf(5), chatOf(2)]));
    const cleared = await runJob(admin, { action: 'clear_property', params: { property_id: tier.property_id }, chat_ids: before });
    expect(cleared).toMatchObject({ succeeded: before.length, failed_count: 0 });
    expect(await paged(admin, q)).toEqual([chatOf(5), chatOf(2)]);
    expect((await call<{ chat: Chat }>(admin, 'GET', `/chats/${enc(before[0]!)}`)).body.chat.custom_properties?.[tier.property_id]).toBeUndefined();
  });

  it('checks each chat with the guard (a member gets a failure for a chat they may not see) and refuses bad params with the field', async () => {
    await call(admin, 'PUT', `/chats/${enc(chatOf(5))}/access`, { chat_access: { [rt.adminEmail]: true } });
    const j = await runJob(member, { action: 'set_property', params: { property_id: city.property_id, property_value: 'Mumbai' }, chat_ids: [chatOf(5), chatOf(2)] });
    expect(j).toMatchObject({ succeeded: 1, failed_count: 1, failures: [{ chat_id: chatOf(5), reason: 'You do not have access to this chat' }] });
    expect(await paged(admin, `state=open&property_id=${city.property_id}&property_value=mumbai`)).toEqual([chatOf(2)]);
    await call(admin, 'PUT', `/chats/${enc(chatOf(5))}/access`, { chat_access: {} });
    const bad: Array<[unknown, string]> = [
      [{ action: 'set_property', params: { property_id: tier.property_id }, chat_ids: [chatOf(1)] }, 'params.property_value'],
      [{ action: 'clear_property', params: {}, chat_ids: [chatOf(1)] }, 'params.property_id'],
      [{ action: 'set_property', params: { property_id: 'prp_nope', property_value: 'x' }, chat_ids: [chatOf(1)] }, 'params.property_id'],
      [{ action: 'set_property', params: { property_id: tier.property_id, property_value: 'opt_nope' }, chat_ids: [chatOf(1)] }, 'params.property_value'],
    ];
    for (const [input, field] of bad) {
      const r = await call<{ error: { details: Array<{ field: string }> } }>(admin, 'POST', '/chats/bulk-jobs', input);
      expect(r.status, JSON.stringify(input)).toBe(400);
      expect(r.body.error.details.map((d) => d.field)).toContain(field);
    }
  });
});

describe('a definition deleted or a dropdown option removed clears the values in the background', () => {
  const jobDone = async (id: string) => {
    await rt.idle();
    return eventually(async () => {
      const j = (await call<{ job: BulkJob }>(admin, 'GET', `/chats/bulk-jobs/${id}`)).body.job;
      return j.status === 'done' && j;
    }, 30_000, 'the definition job');
  };
  const valuesOf = async (n: number) => (await call<{ chat: Chat }>(admin, 'GET', `/chats/${enc(chatOf(n))}`)).body.chat.custom_properties ?? {};

  it('removing an option clears only that option, found through the link rows', async () => {
    const gold = optionId(tier, 'Gold');
    const silver = optionId(tier, 'Silver');
    await setProps(admin, 6, { [tier.property_id]: silver });
    const holders = (await db().entities.chatPropertyLink.query.byProperty({ org_id: rt.orgId, property_id: tier.property_id, value_key: silver.toLowerCase() }).go({ pages: 'all' })).data.map((l) => l.chat_id).sort();
    expect(holders.length).toBeGreaterThan(0);
    const goldBefore = await paged(admin, `state=open&property_id=${tier.property_id}&property_value=${gold}`);
    const r = await call<{ property: PropertyDef; jobs: BulkJob[] }>(admin, 'PATCH', `/properties/${tier.property_id}`, { property_name: 'Customer tier', property_value_type: 'dropdown', options: ['Gold', 'Platinum'] });
    expect(r.status).toBe(200);
    expect(r.body.property.property_value[gold]).toBe('Gold');
    expect(r.body.jobs).toHaveLength(1);
    expect(r.body.jobs[0]).toMatchObject({ action: 'clear_property', selection: { kind: 'property', property_id: tier.property_id } });
    const j = await jobDone(r.body.jobs[0]!.job_id);
    expect(j).toMatchObject({ total: holders.length, succeeded: holders.length, failed_count: 0 });
    for (const id of holders) expect((await call<{ chat: Chat }>(admin, 'GET', `/chats/${enc(id)}`)).body.chat.custom_properties?.[tier.property_id]).toBeUndefined();
    expect((await db().entities.chatPropertyLink.query.byProperty({ org_id: rt.orgId, property_id: tier.property_id, value_key: silver.toLowerCase() }).go({ pages: 'all' })).data).toEqual([]);
    expect(await paged(admin, `state=open&property_id=${tier.property_id}&property_value=${gold}`)).toEqual(goldBefore);
    // a rename of the definition alone starts nothing
    const rename = await call<{ jobs: BulkJob[] }>(admin, 'PATCH', `/properties/${tier.property_id}`, { property_name: 'Tier', property_value_type: 'dropdown', options: ['Gold', 'Platinum'] });
    expect(rename.body.jobs).toEqual([]);
  });

  it('deleting a definition removes its value from every chat carrying it', async () => {
    expect((await valuesOf(5))[city.property_id]).toBeTruthy();
    const r = await call<{ deleted: true; job: BulkJob }>(admin, 'DELETE', `/properties/${city.property_id}`);
    expect(r.status).toBe(200);
    const j = await jobDone(r.body.job.job_id);
    expect(j).toMatchObject({ total: 2, succeeded: 2, failed_count: 0 });
    expect((await valuesOf(5))[city.property_id]).toBeUndefined();
    expect((await valuesOf(2))[city.property_id]).toBeUndefined();
    expect((await db().entities.chatPropertyLink.query.byProperty({ org_id: rt.orgId, property_id: city.property_id }).go({ pages: 'all' })).data).toEqual([]);
    // the property is gone: filtering by it is a 400
    expect((await call(admin, 'GET', `/chats?property_id=${city.property_id}&property_value=pune`)).status).toBe(400);
  });
});
