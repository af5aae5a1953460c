import { describe, expect, it } from 'vitest';
import { facetRowsOf, newContactRow } from './contact-rows.ts';

describe('contact row builders (import and bench:contacts)', () => {
  it('fills the defaults, derives name_key, drops undefined fields', () => {
    const r = newContactRow({ org_id: 'o', contact_id: '919812345678', edited_name: 'Ravi K', notes: undefined, source: 'import' }, 1000);
    expect(r).toEqual({ org_id: 'o', contact_id: '919812345678', edited_name: 'Ravi K', source: 'import', phone: '919812345678', numbers: ['919812345678'], label_ids: [], phone_ids: [], custom_properties: {}, last_seen_at: 0, created_at: 1000, name_key: 'ravi k' });
    expect(newContactRow({ org_id: 'o', contact_id: '1555' }, 1).name_key).toBe('~1555');
  });
  it('one facet row per facet, each with the contact copy (no import job id)', () => {
    const r = newContactRow({ org_id: 'o', contact_id: '1555', contact_name: 'Ana', custom_properties: { prp_t: 'Gold' }, import_job_id: 'cimp_1' }, 1);
    const rows = facetRowsOf(r);
    expect(rows.map((f) => `${f.facet}|${f.key}`).sort()).toEqual(['prop#prp_t#gold|1555', 'pset#prp_t|1555', 'tok|ana#1555', 'tok|gold#1555']);
    expect(rows.every((f) => f.org_id === 'o' && f.contact_id === '1555' && f.c.contact_name === 'Ana' && !('import_job_id' in f.c))).toBe(true);
  });
});
