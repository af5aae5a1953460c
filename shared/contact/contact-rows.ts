import { facetsOf, nameKey, splitFacet } from './contact.rules.ts';
import { facetCopy, type Row } from './contact.ts';

/**
 * Builders of the stored rows of a contact (issue 15), shared by the write paths that store many
 * contacts at once (the CSV import, shared/contact/import.ts) and the contacts bench
 * (scripts/bench-contacts.ts seeds with exactly these rows): one shape, whoever writes it.
 * Times epoch **ms**.
 */

/** The fields a new contact row is built from; the rest take their defaults. */
export type NewContact = Pick<Row, 'org_id' | 'contact_id'> & Partial<Omit<Row, 'org_id' | 'contact_id' | 'name_key'>>;

/**
 * A new contact's row: `phone` and `numbers` default to the contact id (E.164 / wa_id digits), the
 * lists and the property map to empty, `last_seen_at` to 0 (never seen on WhatsApp: keeps the
 * by-last-seen index key whole), `created_at` to now; `name_key` is derived (nameKey). Pure.
 */
export function newContactRow(c: NewContact, now = Date.now()): Row {
  const row: Row = {
    ...c,
    phone: c.phone ?? c.contact_id,
    numbers: c.numbers ?? [c.phone ?? c.contact_id],
    label_ids: c.label_ids ?? [],
    phone_ids: c.phone_ids ?? [],
    custom_properties: c.custom_properties ?? {},
    last_seen_at: c.last_seen_at ?? 0,
    created_at: c.created_at ?? now,
  };
  for (const k of Object.keys(row) as Array<keyof Row>) if (row[k] === undefined) delete row[k];
  row.name_key = nameKey(row);
  return row;
}

/** A ContactFacet row as stored (key, contact id, and the contact's copy `c`). */
export type FacetRow = { org_id: string; facet: string; key: string; contact_id: string; c: Row };

/** Every facet row of a contact, each with its copy (contact.rules.ts facetsOf, contact.ts facetCopy). Pure. */
export function facetRowsOf(c: Row): FacetRow[] {
  const copy = facetCopy(c);
  return facetsOf(c).map((f) => ({ org_id: c.org_id, ...splitFacet(f), contact_id: c.contact_id, c: copy }));
}
