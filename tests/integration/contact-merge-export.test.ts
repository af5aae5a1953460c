import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestRuntime, type TestRuntime } from '../factories/runtime.ts';
import { inboundText, newWamid } from '../../shared/whatsapp/cloud/payloads.ts';
import { db } from '../../shared/db/service.ts';
import type { ContactDetail, ContactView } from '../../shared/contact/contact.schemas.ts';

/**
 * Merge and unmerge of contacts over HTTP (issue 15 item 2): one customer writing from two phones
 * becomes one contact (numbers, labels, chats combined; the survivor's properties win, the other's
 * fill blanks; notes joined), shows as one in the list and in search (by the other's name and
 * number too), GET of the other id answers with the survivor; unmerge gives both back; an audit
 * row on both contacts for each.
 */
let rt: TestRuntime;
let admin: string;
let TIER = '';
let CITY = '';
const A = '5511988880001';
const B = '5511977770002';
const T0 = Math.floor(Date.now() / 1000) - 7200;

const list = async (query = '') => (await rt.orgCall<{ contacts: ContactView[] }>(admin, 'GET', `/contacts${query}`)).body.contacts.map((c) => c.contact_id);

beforeAll(async () => {
  rt = await startTestRuntime();
  admin = await rt.signIn(rt.adminEmail);
  await rt.postWebhook(inboundText(rt.phone, A, 'Oi, sou a Ana', { name: 'Ana Souza', id: newWamid(), timestampS: T0 }));
  await rt.postWebhook(inboundText(rt.phone, B, 'Ana aqui, do trabalho', { name: 'Ana Trabalho', id: newWamid(), timestampS: T0 + 60 }));
  await rt.idle();
  TIER = (await rt.orgCall<{ property: { property_id: string } }>(admin, 'POST', '/properties', { property_name: 'Tier', property_value_type: 'text' })).body.property.property_id;
  CITY = (await rt.orgCall<{ property: { property_id: string } }>(admin, 'POST', '/properties', { property_name: 'City', property_value_type: 'text' })).body.property.property_id;
  expect((await rt.orgCall(admin, 'PATCH', `/contacts/${A}`, { label_ids: ['lbl_vip'], custom_properties: { [TIER]: 'Gold' }, notes: 'Prefers calls' })).status).toBe(200);
  expect((await rt.orgCall(admin, 'PATCH', `/contacts/${B}`, { label_ids: ['lbl_b2b'], custom_properties: { [TIER]: 'Silver', [CITY]: 'Recife' }, notes: 'Invoices to Acme' })).status).toBe(200);
}, 120_000);
afterAll(async () => rt?.cleanup());

const audits = async (id: string) => (await db().entities.contactAudit.query.byContact({ org_id: rt.orgId, contact_id: id }).go()).data.map((r) => `${r.action}:${r.other_contact_id}`);

describe('merge', () => {
  it('combines the two by the documented rules and writes an audit row on each', async () => {
    const r = await rt.orgCall<{ contact: ContactView }>(admin, 'POST', `/contacts/${A}/merge`, { other_contact_id: B });
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    expect(r.body.contact).toMatchObject({
      contact_id: A,
      display_name: 'Ana Souza',
      numbers: [A, B],
      label_ids: ['lbl_vip', 'lbl_b2b'],
      custom_properties: { [TIER]: 'Gold', [CITY]: 'Recife' },
      notes: 'Prefers calls\n\nMerged from Ana Trabalho:\nInvoices to Acme',
      merged_ids: [B],
      last_seen_at: (T0 + 60) * 1000,
    });
    expect(await audits(A)).toEqual([`merge:${B}`]);
    expect(await audits(B)).toEqual([`merged_into:${A}`]);
  });

  it('shows as one in the list, in search by either name or number and in the label filter of the other', async () => {
    expect(await list()).toEqual([A]);
    expect(await list('?q=trabalho')).toEqual([A]);
    expect(await list(`?q=${B.slice(0, 8)}`)).toEqual([A]);
    expect(await list('?label_id=lbl_b2b')).toEqual([A]);
    expect(await list(`?property_id=${CITY}&property_value=recife`)).toEqual([A]);
  });

  it('answers GET of the other id with the survivor, with the chats of both numbers', async () => {
    const d = (await rt.orgCall<ContactDetail>(admin, 'GET', `/contacts/${B}`)).body;
    expect(d.contact.contact_id).toBe(A);
    expect(d.chats.map((c) => c.chat_id).sort()).toEqual([`${A}@c.us`, `${B}@c.us`].sort());
    const m = (await rt.orgCall<{ merged: ContactView[]; audit: Array<{ action: string }> }>(admin, 'GET', `/contacts/${A}/merges`)).body;
    expect(m.merged.map((c) => [c.contact_id, c.display_name])).toEqual([[B, 'Ana Trabalho']]);
    expect(m.audit.map((a) => a.action)).toEqual(['merge']);
  });

  it('refuses merging a contact into itself, an already merged one, and a missing one', async () => {
    const self = await rt.orgCall<{ error: { details: unknown } }>(admin, 'POST', `/contacts/${A}/merge`, { other_contact_id: A });
    expect(self.status).toBe(400);
    expect(self.body.error.details).toEqual([{ field: 'other_contact_id', reason: 'is this contact' }]);
    const again = await rt.orgCall<{ error: { details: unknown } }>(admin, 'POST', `/contacts/${A}/merge`, { other_contact_id: B });
    expect(again.body.error.details).toEqual([{ field: 'other_contact_id', reason: 'is already merged into another contact' }]);
    expect((await rt.orgCall(admin, 'POST', `/contacts/${A}/merge`, { other_contact_id: '15550000000' })).status).toBe(404);
    expect((await rt.orgCall(admin, 'POST', `/contacts/${A}/merge`, {})).status).toBe(400);
  });

  it('a new message from the other number creates no contact and keeps the survivor fresh', async () => {
    const at = T0 + 3600;
    await rt.postWebhook(inboundText(rt.phone, B, 'Mais uma coisa', { name: 'Ana Trabalho', id: newWamid(), timestampS: at }));
    await rt.idle();
    expect(await list()).toEqual([A]);
    expect((await rt.orgCall<ContactDetail>(admin, 'GET', `/contacts/${A}`)).body.contact.last_seen_at).toBe(at * 1000);
  });
});

describe('unmerge', () => {
  it('gives both back (what was changed since the merge stays), with an audit row on each', async () => {
    // a label added to the merged contact after the merge stays on the survivor
    await rt.orgCall(admin, 'PATCH', `/contacts/${A}`, { label_ids: ['lbl_vip', 'lbl_b2b', 'lbl_new'] });
    const r = await rt.orgCall<{ contact: ContactView; restored: ContactView }>(admin, 'POST', `/contacts/${A}/unmerge`, { other_contact_id: B });
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    expect(r.body.contact).toMatchObject({ numbers: [A], label_ids: ['lbl_vip', 'lbl_new'], custom_properties: { [TIER]: 'Gold' }, notes: 'Prefers calls', merged_ids: [] });
    expect(r.body.restored).toMatchObject({ contact_id: B, label_ids: ['lbl_b2b'], custom_properties: { [TIER]: 'Silver', [CITY]: 'Recife' }, notes: 'Invoices to Acme' });
    expect((await list()).sort()).toEqual([A, B].sort());
    expect(await list('?q=trabalho')).toEqual([B]);
    expect(await list('?label_id=lbl_b2b')).toEqual([B]);
    expect(await list(`?property_id=${CITY}&property_value=recife`)).toEqual([B]);
    expect((await rt.orgCall<ContactDetail>(admin, 'GET', `/contacts/${B}`)).body.contact.contact_id).toBe(B);
    expect((await audits(A)).sort()).toEqual([`merge:${B}`, `unmerge:${B}`].sort());
    expect((await audits(B)).sort()).toEqual([`merged_into:${A}`, `unmerged_from:${A}`].sort());
    const again = await rt.orgCall<{ error: { details: unknown } }>(admin, 'POST', `/contacts/${A}/unmerge`, { other_contact_id: B });
    expect(again.body.error.details).toEqual([{ field: 'other_contact_id', reason: 'was not merged into this contact' }]);
  });
});

describe('CSV export', () => {
  it('exports the filtered set, one column per property, formula cells defused; a bad filter is a 400', async () => {
    await rt.orgCall(admin, 'PATCH', `/contacts/${B}`, { name: '=HYPERLINK("http://evil")', notes: '+1 call me' });
    const res = await rt.api(admin, `/api/orgs/${rt.orgId}/contacts/export.csv?label_id=lbl_b2b`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/text\/csv/);
    const lines = (await res.text()).trim().split('\r\n');
    expect(lines[0]).toBe('phone,name,whatsapp_name,numbers,labels,notes,last_seen_at,created_at,City,Tier');
    expect(lines).toHaveLength(2);
    expect(lines[1]).toContain(`+${B}`);
    expect(lines[1]).toContain(`"'=HYPERLINK(""http://evil"")"`);
    expect(lines[1]).toContain("'+1 call me");
    expect(lines[1]).toContain('Recife,Silver');
    // the whole book; a bad filter is a 400 with the field
    const all = (await (await rt.api(admin, `/api/orgs/${rt.orgId}/contacts/export.csv`)).text()).trim().split('\r\n');
    expect(all).toHaveLength(3);
    const bad = await rt.api(admin, `/api/orgs/${rt.orgId}/contacts/export.csv?sort=nope`);
    expect(bad.status).toBe(400);
  });
});
