import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestRuntime, type TestRuntime } from '../factories/runtime.ts';
import { eventually } from '../factories/wait.ts';
import { inboundText, newWamid } from '../../shared/whatsapp/cloud/payloads.ts';
import { db } from '../../shared/db/service.ts';
import { clearContactsPropertyPage } from '../../shared/contact/contact-properties.ts';
import type { Chat } from '../../shared/chat/chat.schemas.ts';
import type { ContactDetail, ContactView } from '../../shared/contact/contact.schemas.ts';
import type { PropertyDef } from '../../shared/property/property.schemas.ts';
import type { BulkJob } from '../../shared/bulk/bulk-job.schemas.ts';

/**
 * Definition changes and stored values (issue 15 item 4) over HTTP on the local runtime:
 * - relabelling a dropdown option by its id keeps every value (chats and contacts), starts no job;
 * - removing an option clears it from the chats AND the contacts holding it (found through link /
 *   facet rows), in the background job, with progress; others keep their values;
 * - deleting a definition clears its value on every contact carrying it (`pset#` facet rows), page
 *   by page; the migration writes those rows for contacts stored before them.
 */
let rt: TestRuntime;
let admin: string;
const enc = encodeURIComponent;
const WA = ['15557770001', '15557770002', '15557770003'];
let tier: PropertyDef;
let city: PropertyDef;
const optionId = (def: PropertyDef, label: string) => Object.entries(def.property_value).find(([, l]) => l === label)![0];
const chatProps = async (wa: string) => (await rt.orgCall<{ chat: Chat }>(admin, 'GET', `/chats/${enc(`${wa}@c.us`)}`)).body.chat.custom_properties ?? {};
const contactProps = async (wa: string) => (await rt.orgCall<ContactDetail>(admin, 'GET', `/contacts/${wa}`)).body.contact.custom_properties;
const setContact = (wa: string, values: Record<string, string>) => rt.orgCall<{ contact: ContactView }>(admin, 'PATCH', `/contacts/${wa}`, { custom_properties: values });
const facetIds = async (facet: string) => (await db().entities.contactFacet.query.byFacet({ org_id: rt.orgId, facet }).go({ pages: 'all' })).data.map((f) => f.contact_id).sort();
const jobDone = async (id: string) => {
  await rt.idle();
  return eventually(async () => {
    const j = (await rt.orgCall<{ job: BulkJob }>(admin, 'GET', `/chats/bulk-jobs/${id}`)).body.job;
    return j.status === 'done' && j;
  }, 30_000, 'the definition job');
};

beforeAll(async () => {
  rt = await startTestRuntime();
  admin = await rt.signIn(rt.adminEmail);
  const t0 = Math.floor(Date.now() / 1000) - 600;
  for (const [i, wa] of WA.entries()) await rt.postWebhook(inboundText(rt.phone, wa, `Hello ${i}`, { name: `Person ${i}`, id: newWamid(), timestampS: t0 + i }));
  await rt.idle();
  tier = (await rt.orgCall<{ property: PropertyDef }>(admin, 'POST', '/properties', { property_name: 'Tier', property_value_type: 'dropdown', options: ['Gold', 'Silver'] })).body.property;
  city = (await rt.orgCall<{ property: PropertyDef }>(admin, 'POST', '/properties', { property_name: 'City', property_value_type: 'text' })).body.property;
}, 120_000);
afterAll(async () => rt?.cleanup());

describe('dropdown options by id', () => {
  it('relabelling an option keeps every chat and contact value; an unknown option id is a 400', async () => {
    const gold = optionId(tier, 'Gold');
    const silver = optionId(tier, 'Silver');
    expect((await rt.orgCall(admin, 'PUT', `/chats/${enc(`${WA[0]}@c.us`)}/properties`, { custom_properties: { [tier.property_id]: silver } })).status).toBe(200);
    expect((await setContact(WA[0]!, { [tier.property_id]: silver })).status).toBe(200);
    expect((await setContact(WA[1]!, { [tier.property_id]: gold })).status).toBe(200);

    const r = await rt.orgCall<{ property: PropertyDef; jobs: BulkJob[] }>(admin, 'PATCH', `/properties/${tier.property_id}`, {
      property_name: 'Tier',
      property_value_type: 'dropdown',
      options: [{ option_id: gold, label: 'Gold' }, { option_id: silver, label: 'Platinum' }, 'Bronze'],
    });
    expect(r.status).toBe(200);
    expect(r.body.jobs).toEqual([]);
    expect(r.body.property.property_value[silver]).toBe('Platinum');
    expect(Object.values(r.body.property.property_value).sort()).toEqual(['Bronze', 'Gold', 'Platinum']);
    tier = r.body.property;
    expect((await chatProps(WA[0]!))[tier.property_id]).toBe(silver);
    expect((await contactProps(WA[0]!))[tier.property_id]).toBe(silver);
    // still found by the option (now labelled Platinum)
    const byValue = await rt.orgCall<{ contacts: ContactView[] }>(admin, 'GET', `/contacts?property_id=${tier.property_id}&property_value=${silver}`);
    expect(byValue.body.contacts.map((c) => c.contact_id)).toEqual([WA[0]]);

    const bad = await rt.orgCall<{ error: { details: Array<{ field: string; reason: string }> } }>(admin, 'PATCH', `/properties/${tier.property_id}`, {
      property_name: 'Tier',
      property_value_type: 'dropdown',
      options: [{ option_id: gold, label: 'Gold' }, { option_id: 'opt_nope', label: 'X' }],
    });
    expect(bad.status).toBe(400);
    expect(bad.body.error.details).toEqual([{ field: 'options.1.option_id', reason: 'is not an option of this property' }]);
  });

  it('options come back in the order the admin gave them, after a relabel and a reorder too', async () => {
    const labels = (d: PropertyDef) => Object.values(d.property_value);
    const listed = async () => (await rt.orgCall<{ properties: PropertyDef[] }>(admin, 'GET', '/properties')).body.properties.find((p) => p.property_id === tier.property_id)!;
    expect(labels(tier)).toEqual(['Gold', 'Platinum', 'Bronze']);
    expect(labels(await listed())).toEqual(['Gold', 'Platinum', 'Bronze']);
    const ids = Object.keys(tier.property_value);
    const r = await rt.orgCall<{ property: PropertyDef; jobs: BulkJob[] }>(admin, 'PATCH', `/properties/${tier.property_id}`, {
      property_name: 'Tier',
      property_value_type: 'dropdown',
      options: [{ option_id: ids[2], label: 'Bronze' }, { option_id: ids[0], label: 'Gold' }, { option_id: ids[1], label: 'Platinum' }],
    });
    expect(r.body.jobs).toEqual([]);
    expect(Object.keys(r.body.property.property_value)).toEqual([ids[2], ids[0], ids[1]]);
    expect(labels(await listed())).toEqual(['Bronze', 'Gold', 'Platinum']);
    tier = r.body.property;
  });

  it('removing an option clears it from the chats and the contacts holding it, in the background', async () => {
    const gold = optionId(tier, 'Gold');
    const platinum = optionId(tier, 'Platinum');
    expect(await facetIds(`prop#${tier.property_id}#${platinum.toLowerCase()}`)).toEqual([WA[0]]);
    const r = await rt.orgCall<{ property: PropertyDef; jobs: BulkJob[] }>(admin, 'PATCH', `/properties/${tier.property_id}`, { property_name: 'Tier', property_value_type: 'dropdown', options: [{ option_id: gold, label: 'Gold' }, 'Bronze'] });
    expect(r.status).toBe(200);
    expect(r.body.jobs).toHaveLength(1);
    const j = await jobDone(r.body.jobs[0]!.job_id);
    // one chat and one contact held the option
    expect(j).toMatchObject({ total: 2, processed: 2, succeeded: 2, failed_count: 0 });
    expect((await chatProps(WA[0]!))[tier.property_id]).toBeUndefined();
    expect((await contactProps(WA[0]!))[tier.property_id]).toBeUndefined();
    expect((await contactProps(WA[1]!))[tier.property_id]).toBe(gold);
    expect(await facetIds(`prop#${tier.property_id}#${platinum.toLowerCase()}`)).toEqual([]);
    expect(await facetIds(`pset#${tier.property_id}`)).toEqual([WA[1]]);
    // the facet copies followed: the property filter reads them
    const byValue = await rt.orgCall<{ contacts: ContactView[] }>(admin, 'GET', `/contacts?property_id=${tier.property_id}&property_value=${gold}`);
    expect(byValue.body.contacts.map((c) => [c.contact_id, c.custom_properties[tier.property_id]])).toEqual([[WA[1], gold]]);
  });
});

describe('deleting a definition', () => {
  it('clears the value on every contact carrying it, page by page, and on the chats', async () => {
    for (const [i, wa] of WA.entries()) expect((await setContact(wa, { [city.property_id]: i === 1 ? 'Delhi' : 'Pune' })).status).toBe(200);
    await rt.orgCall(admin, 'PUT', `/chats/${enc(`${WA[1]}@c.us`)}/properties`, { custom_properties: { [city.property_id]: 'Delhi' } });
    expect(await facetIds(`pset#${city.property_id}`)).toEqual([...WA].sort());

    // the migration writes the pset rows of contacts stored before them
    await db().entities.contactFacet.delete({ org_id: rt.orgId, facet: `pset#${city.property_id}`, key: WA[2]! }).go();
    const { DeleteCommand } = await import('@aws-sdk/lib-dynamodb');
    const { documentClient } = await import('../../shared/db/client.ts');
    const { runMigrations } = await import('../../shared/db/migrations.ts');
    const id = '2026-11-26-contact-property-set-facets';
    await documentClient().send(new DeleteCommand({ TableName: process.env.TABLE_NAME!, Key: { pk: 'migration', sk: id } }));
    expect(await runMigrations()).toEqual([id]);
    expect(await facetIds(`pset#${city.property_id}`)).toEqual([...WA].sort());

    // one page at a time (limit 1 here): each contact once, the cursor runs out
    const first = await clearContactsPropertyPage(rt.orgId, rt.adminEmail, city.property_id, undefined, null, 1);
    expect(first).toMatchObject({ processed: 1, succeeded: 1, failed: [] });
    expect(first.cursor).toBeTruthy();
    expect(await facetIds(`pset#${city.property_id}`)).toHaveLength(2);

    const r = await rt.orgCall<{ deleted: true; job: BulkJob }>(admin, 'DELETE', `/properties/${city.property_id}`);
    expect(r.status).toBe(200);
    const j = await jobDone(r.body.job.job_id);
    // the chat, then the two contacts still carrying it
    expect(j).toMatchObject({ total: 3, succeeded: 3, failed_count: 0 });
    for (const wa of WA) expect((await contactProps(wa))[city.property_id]).toBeUndefined();
    expect((await chatProps(WA[1]!))[city.property_id]).toBeUndefined();
    expect(await facetIds(`pset#${city.property_id}`)).toEqual([]);
    expect(await facetIds(`prop#${city.property_id}#pune`)).toEqual([]);
    // the words of the value left the search
    expect((await rt.orgCall<{ contacts: ContactView[] }>(admin, 'GET', '/contacts?q=delhi')).body.contacts).toEqual([]);
    // a redelivered page finds nothing left to clear
    expect(await clearContactsPropertyPage(rt.orgId, rt.adminEmail, city.property_id, undefined, null)).toMatchObject({ processed: 0, cursor: null });
  });
});
