import { Entity } from 'electrodb';

/**
 * A customer known to the org (issue 15): one per WhatsApp identity. `contact_id` is the WhatsApp id
 * (wa_id, digits; for a WhatsApp Web chat known only by its LID, the LID digits) or, for a contact
 * typed in or imported, the E.164 digits of its number. Written on the customer's first message
 * (shared/inbox/ingest.ts, in the message's transaction) and by the /contacts use cases
 * (shared/contact/contact.ts). Times are epoch **ms**.
 */
export const ContactEntity = new Entity({
  model: { entity: 'contact', version: '1', service: 'chorus' },
  attributes: {
    org_id: { type: 'string', required: true },
    contact_id: { type: 'string', required: true },
    /** WhatsApp profile name as last seen in a webhook */
    contact_name: { type: 'string' },
    /** the name a member gave the contact (shown instead of the profile name) */
    edited_name: { type: 'string' },
    /** primary number, E.164 digits without '+' */
    phone: { type: 'string' },
    /** every number of the contact (digits), the primary first */
    numbers: { type: 'list', items: { type: 'string' } },
    /** issue 41: business-scoped user ids (BSUIDs) seen for this person, the current one last */
    user_ids: { type: 'list', items: { type: 'string' } },
    /** issue 41: WhatsApp username, as Meta last sent it */
    username: { type: 'string' },
    /** WhatsApp Web LIDs (digits) seen for this person */
    lids: { type: 'list', items: { type: 'string' } },
    /** org chat labels (label_id) */
    label_ids: { type: 'list', items: { type: 'string' } },
    /** property_id -> value (string; numbers and dates as their text form), spec §3 custom_properties */
    custom_properties: { type: 'any' },
    notes: { type: 'string' },
    /** email of the member who last edited it (name, labels, properties, notes) */
    updated_by: { type: 'string' },
    /** phone_ids of the org numbers this person wrote to */
    phone_ids: { type: 'list', items: { type: 'string' } },
    /** index key: the shown name lower-cased (edited, else profile, else '~' + number so unnamed sort last) */
    name_key: { type: 'string' },
    /** epoch ms of the customer's latest message (kept to within LAST_SEEN_STEP_MS) */
    last_seen_at: { type: 'number', padding: { length: 15, char: '0' } },
    /** 'whatsapp' (first message), 'manual', 'import', 'backfill' */
    source: { type: 'string' },
    /** the CSV import that created it (undo) */
    import_job_id: { type: 'string' },
    /** set when merged into another contact: that contact's id (hidden from lists and search) */
    merged_into: { type: 'string' },
    /** contact_ids merged into this one */
    merged_ids: { type: 'list', items: { type: 'string' } },
    /** epoch ms */
    created_at: { type: 'number', default: () => Date.now(), padding: { length: 15, char: '0' } },
    updated_at: { type: 'number', watch: '*', set: () => Date.now() },
  },
  indexes: {
    // contact by wa_id; number search (begins_with on the digits)
    byOrg: { pk: { field: 'pk', composite: ['org_id'] }, sk: { field: 'sk', composite: ['contact_id'] } },
    // contacts of an org by name (sort; written when the name changes)
    byName: { index: 'gsi1', pk: { field: 'gsi1pk', composite: ['org_id'] }, sk: { field: 'gsi1sk', composite: ['name_key', 'contact_id'] } },
    // contacts of an org by last seen (sort; last-seen range = between)
    byLastSeen: { index: 'gsi2', pk: { field: 'gsi2pk', composite: ['org_id'] }, sk: { field: 'gsi2sk', composite: ['last_seen_at', 'contact_id'] } },
    // contacts of an org by creation (sort)
    byCreated: { index: 'gsi3', pk: { field: 'gsi3pk', composite: ['org_id'] }, sk: { field: 'gsi3sk', composite: ['created_at', 'contact_id'] } },
  },
});

/**
 * One row per (facet, contact): the filters and the word search of /contacts as key lookups
 * (issue 15; no Scan). `facet` is `label#<label_id>`, `phone#<phone_id>`, `prop#<property_id>#<value>`,
 * `pset#<property_id>` (any value set: the definition jobs, shared/contact/contact-properties.ts)
 * (sk = contact_id) or `tok` (sk = `<word>#<contact_id>`: words of the name and of text property
 * values, lower-cased, for prefix search). Kept by shared/contact/contact.ts `syncFacets`.
 */
export const ContactFacetEntity = new Entity({
  model: { entity: 'contact_facet', version: '1', service: 'chorus' },
  attributes: {
    org_id: { type: 'string', required: true },
    facet: { type: 'string', required: true },
    key: { type: 'string', required: true },
    contact_id: { type: 'string', required: true },
    /**
     * A copy of the contact's row (shared/contact/contact.ts `facetCopy`: names, numbers, labels,
     * properties, last seen, merged state…) so a label / property / number filter page or a word
     * search answers from the facet Query alone, with no BatchGet of the contacts (issue 15 bench).
     * Rewritten on every facet row whenever the contact changes (`syncFacets`); rows written before
     * it existed have none and are read through the contact (fallback).
     */
    c: { type: 'any' },
  },
  indexes: {
    // contacts of a facet (label, number, property value), or word-prefix search on `tok`
    byFacet: { pk: { field: 'pk', composite: ['org_id', 'facet'] }, sk: { field: 'sk', composite: ['key'] } },
  },
});

/** Audit rows of contact merges and unmerges (newest first per contact). */
export const ContactAuditEntity = new Entity({
  model: { entity: 'contact_audit', version: '1', service: 'chorus' },
  attributes: {
    org_id: { type: 'string', required: true },
    contact_id: { type: 'string', required: true },
    /** ULID */
    audit_id: { type: 'string', required: true },
    action: { type: 'string', required: true },
    actor: { type: 'string', required: true },
    other_contact_id: { type: 'string' },
    /** merge rows of the survivor: its fields before and after the merge (shared/contact/merge.rules.ts MergeFields), for unmerge */
    snapshot: { type: 'any' },
    /** epoch ms */
    at: { type: 'number', required: true },
  },
  indexes: {
    byContact: { pk: { field: 'pk', composite: ['org_id', 'contact_id'] }, sk: { field: 'sk', composite: ['audit_id'] } },
  },
});
