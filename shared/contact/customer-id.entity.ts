import { Entity } from 'electrodb';

/**
 * One row per identifier of a customer in an org (issue 41 §2): the lookup from what a webhook
 * carries to the customer's chat and contact. Identifiers are kept apart, never folded into one key:
 * - `phone`: the WhatsApp id (`wa_id`, digits);
 * - `bsuid`: Meta's business-scoped user id (`contacts[].user_id`, e.g. `BR.17730000000000000001`);
 * - `parent_bsuid`: the portfolio-level parent id (`contacts[].parent_user_id`, `BR.ENT.…`).
 * A BSUID belongs to one business portfolio (Meta, "Business-scoped user IDs"): it is stored under
 * the org (one portfolio per workspace) with the WABA it came through, never as a global key.
 * A username is not a key (a user may change it while the BSUID stays): it lives on the chat and
 * contact rows. A replaced identifier (`user_changed_user_id`, `user_changed_number`) keeps its row
 * with `replaced_by` / `replaced_at`, so a late webhook still finds the chat and the contact panel
 * shows the history. Times are epoch **ms**.
 */
export const CustomerIdEntity = new Entity({
  model: { entity: 'customer_id', version: '1', service: 'chorus' },
  attributes: {
    org_id: { type: 'string', required: true },
    /** `phone#<digits>` | `bsuid#<BSUID>` | `parent_bsuid#<id>` (customerIdKey, shared/contact/identity.rules.ts) */
    id_key: { type: 'string', required: true },
    kind: { type: ['phone', 'bsuid', 'parent_bsuid'] as const, required: true },
    value: { type: 'string', required: true },
    /** the 1:1 chat of this customer */
    chat_id: { type: 'string', required: true },
    /** the contact of this customer */
    contact_id: { type: 'string', required: true },
    /** the WABA the identifier was seen through (BSUIDs are portfolio-scoped) */
    waba_id: { type: 'string' },
    first_seen_at: { type: 'number', required: true },
    /** the identifier that replaced this one (same kind), when WhatsApp announced a change */
    replaced_by: { type: 'string' },
    replaced_at: { type: 'number' },
  },
  indexes: {
    // the chat and contact of an identifier (one GetItem; BatchGet for a webhook batch)
    byKey: { pk: { field: 'pk', composite: ['org_id'] }, sk: { field: 'sk', composite: ['id_key'] } },
    // the identifiers of a contact, with their history (the contact panel)
    byContact: { index: 'gsi1', pk: { field: 'gsi1pk', composite: ['org_id', 'contact_id'] }, sk: { field: 'gsi1sk', composite: ['id_key'] } },
  },
});
