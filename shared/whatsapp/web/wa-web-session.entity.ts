import { Entity } from 'electrodb';

/**
 * A linked WhatsApp Web number's session (whatsapp-protocols.md §B.11): which worker holds it (the
 * lease: `owner` until `lease_until`, renewed by heartbeats, taken only with a conditional write, so
 * two workers never hold one number) and the state the admin sees (qr, open, closed, logged_out).
 * One item per wa_web phone; not org-scoped in its key because workers look numbers up by
 * phone_id alone (the org is an attribute).
 */
export const WaWebSessionEntity = new Entity({
  model: { entity: 'wa_web_session', version: '1', service: 'chorus' },
  attributes: {
    phone_id: { type: 'string', required: true },
    org_id: { type: 'string', required: true },
    /** the number's digits (known when it was added; confirmed when linked) */
    org_phone: { type: 'string', required: true },
    /** worker id holding the lease; absent = free */
    owner: { type: 'string' },
    /** epoch ms until which `owner` holds the number without another heartbeat */
    lease_until: { type: 'number' },
    /** epoch ms of the owner's last heartbeat */
    heartbeat_at: { type: 'number' },
    /** session state for the admin (§C `session` events) */
    state: { type: ['linking', 'qr', 'open', 'closed', 'logged_out', 'locked'] as const, required: true, default: 'linking' },
    state_detail: { type: 'string' },
    /** the QR string to render while linking (Baileys `connection.update` qr); cleared when open */
    qr: { type: 'string' },
    /** epoch ms */
    qr_at: { type: 'number' },
    /** the number's own jid once linked (Baileys `sock.user.id`) */
    me_jid: { type: 'string' },
    /** false = the admin removed or paused it: no worker takes it */
    wanted: { type: 'boolean', default: true },
    /** epoch ms */
    updated_at: { type: 'number', default: () => Date.now(), watch: '*', set: () => Date.now() },
  },
  indexes: {
    // a number's session (lease, state)
    byPhone: { pk: { field: 'pk', composite: ['phone_id'] }, sk: { field: 'sk', composite: [] } },
    // every wa_web session, for workers looking for numbers to hold (one small partition: a row per linked number)
    all: { index: 'gsi1', pk: { field: 'gsi1pk', composite: [] }, sk: { field: 'gsi1sk', composite: ['phone_id'] } },
  },
});

/**
 * Baileys auth state of a session (§B.10): the `creds` item (type 'creds', id '-') and the Signal
 * keys by (type, id). `data_enc` is the BufferJSON text, AES-256-GCM encrypted with the phone
 * token key (shared/phone/token-crypto.ts) and bound to phone/type/id, so a copied item does not
 * decrypt elsewhere. These are account-takeover credentials: never returned by any API.
 */
export const WaWebAuthEntity = new Entity({
  model: { entity: 'wa_web_auth', version: '1', service: 'chorus' },
  attributes: {
    phone_id: { type: 'string', required: true },
    type: { type: 'string', required: true },
    id: { type: 'string', required: true },
    data_enc: { type: 'string', required: true },
    /** epoch ms */
    updated_at: { type: 'number', default: () => Date.now(), watch: '*', set: () => Date.now() },
  },
  indexes: {
    // one key of a session; all keys of a session (logout clears them)
    byKey: { pk: { field: 'pk', composite: ['phone_id'] }, sk: { field: 'sk', composite: ['type', 'id'] } },
  },
});
