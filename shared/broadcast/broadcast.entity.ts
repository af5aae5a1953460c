import { Entity } from 'electrodb';
import { BROADCAST_STATUSES, RECIPIENT_STATES, SKIP_REASONS } from './broadcast.schemas.ts';

/**
 * A broadcast job (issue 16 part B): keyed by org, `broadcast_id` = 'bc_' + ULID (so the org's
 * list is newest last in key order). Its recipients are BroadcastRecipient rows; the counters here
 * are kept on write, in the same transaction as the recipient's state change, so they are exact
 * however often a step is retried. `step` is the engine chain's step number: a step goes on only
 * while `step` still equals its message's `seq` (a resume starts a new chain at step + 1, and the
 * old chain stops at its next check).
 * Times are epoch **ms**; `expires_at` is the table's TTL, epoch **seconds** (180 days).
 */
export const BroadcastEntity = new Entity({
  model: { entity: 'broadcast', version: '1', service: 'chorus' },
  attributes: {
    org_id: { type: 'string', required: true },
    broadcast_id: { type: 'string', required: true },
    name: { type: 'string', required: true },
    status: { type: BROADCAST_STATUSES, required: true },
    /** { body?, template?: { name, language, values } } (broadcast.schemas.ts BroadcastContent) */
    content: { type: 'any', required: true },
    audience_kind: { type: ['chats', 'filter', 'csv', 'contacts'] as const, required: true },
    pace_ms: { type: 'number', required: true },
    /** { start, end } 'HH:MM' in the org's time zone, or null */
    quiet_hours: { type: 'any' },
    opt_out_keyword: { type: 'string', required: true },
    send_at: { type: 'number' },
    created_by: { type: 'string', required: true },
    created_at: { type: 'number', required: true },
    started_at: { type: 'number' },
    finished_at: { type: 'number' },
    waiting_until: { type: 'number' },
    /** why the engine paused it (issue 42): the month's credits ran out, or they read 0 because the subscription or trial ended; absent when a person paused it */
    pause_reason: { type: ['out_of_credits', 'subscription_ended', 'trial_ended'] as const },
    step: { type: 'number', required: true, default: 0 },
    total: { type: 'number', required: true, default: 0 },
    sent_count: { type: 'number', required: true, default: 0 },
    failed_count: { type: 'number', required: true, default: 0 },
    delivered_count: { type: 'number', required: true, default: 0 },
    read_count: { type: 'number', required: true, default: 0 },
    replied_count: { type: 'number', required: true, default: 0 },
    skipped_opt_out: { type: 'number', required: true, default: 0 },
    skipped_no_template: { type: 'number', required: true, default: 0 },
    skipped_other: { type: 'number', required: true, default: 0 },
    /** audience parts (BroadcastAudience) the create stored; the engine's first step turns them into recipient rows. Absent: the rows were stored with the job */
    audience_parts: { type: 'number' },
    /** epoch ms when the audience parts became recipient rows (nothing is claimed before) */
    prepared_at: { type: 'number' },
    /** the step turning parts into rows holds this lease (epoch ms until) with its token; another step waits until it is done or stale */
    prepare_lease: { type: 'number' },
    prepare_token: { type: 'string' },
    expires_at: { type: 'number', required: true },
  },
  indexes: {
    // a broadcast by id; the org's broadcasts newest first (reverse order)
    byId: { pk: { field: 'pk', composite: ['org_id'] }, sk: { field: 'sk', composite: ['broadcast_id'] } },
  },
});

/**
 * One recipient of a broadcast. `rid` is its position zero-padded (broadcast.rules.ts recipientId).
 * State machine: pending -> sending (a conditional write claims it, and fixes the message's
 * `msg_unique_id` / `msg_timestamp` before anything is sent) -> sent | failed; or skipped when
 * stored. The byState index is sparse per state, so "the next page of pending recipients" is one
 * Query. `ack`: the sent message's ack (1 sent, 2 delivered, 3 read, -1 failed).
 * Times epoch **ms**; `expires_at` TTL epoch **seconds**.
 */
export const BroadcastRecipientEntity = new Entity({
  model: { entity: 'broadcastRecipient', version: '1', service: 'chorus' },
  attributes: {
    org_id: { type: 'string', required: true },
    broadcast_id: { type: 'string', required: true },
    rid: { type: 'string', required: true },
    state: { type: RECIPIENT_STATES, required: true },
    chat_id: { type: 'string' },
    phone_id: { type: 'string' },
    connection_type: { type: ['wa_cloud', 'wa_web'] as const },
    name: { type: 'string' },
    phone: { type: 'string' },
    /** CSV variables */
    vars: { type: 'any' },
    /** 'template': this recipient gets the broadcast's template (template content, or the fallback outside the 24-hour window); absent: the text */
    via: { type: ['text', 'template'] as const },
    skip_reason: { type: SKIP_REASONS },
    msg_unique_id: { type: 'string' },
    msg_timestamp: { type: 'number' },
    claimed_at: { type: 'number' },
    sent_at: { type: 'number' },
    ack: { type: 'number' },
    error: { type: 'string' },
    replied_at: { type: 'number' },
    expires_at: { type: 'number', required: true },
  },
  indexes: {
    // recipients of a broadcast in order (the log, the CSV export)
    byBroadcast: { pk: { field: 'pk', composite: ['org_id', 'broadcast_id'] }, sk: { field: 'sk', composite: ['rid'] } },
    // recipients of a broadcast in one state, in order (the engine's next pending page; the log's filters)
    byState: { index: 'gsi1', pk: { field: 'gsi1pk', composite: ['org_id', 'broadcast_id', 'state'] }, sk: { field: 'gsi1sk', composite: ['rid'] } },
  },
});

/**
 * A part of a broadcast's resolved audience (issue 16): up to ~300 KB of recipient rows (without
 * their org, broadcast and TTL) stored by the create request in a few writes, turned into
 * BroadcastRecipient rows by the engine's first step, then deleted. `part` counts from 0.
 * `expires_at` TTL epoch **seconds** (the broadcast's).
 */
export const BroadcastAudienceEntity = new Entity({
  model: { entity: 'broadcastAudience', version: '1', service: 'chorus' },
  attributes: {
    org_id: { type: 'string', required: true },
    broadcast_id: { type: 'string', required: true },
    part: { type: 'number', required: true },
    rows: { type: 'any', required: true },
    expires_at: { type: 'number', required: true },
  },
  indexes: {
    // the parts of a broadcast (rows carry their rid: order does not matter)
    byBroadcast: { pk: { field: 'pk', composite: ['org_id', 'broadcast_id'] }, sk: { field: 'sk', composite: ['part'] } },
  },
});

/** Credits used by an org in a month ('YYYY-MM', UTC): one atomic ADD per recipient sent (spec §9). */
export const BroadcastUsageEntity = new Entity({
  model: { entity: 'broadcastUsage', version: '1', service: 'chorus' },
  attributes: {
    org_id: { type: 'string', required: true },
    month: { type: 'string', required: true },
    used: { type: 'number', required: true, default: 0 },
    expires_at: { type: 'number' },
  },
  indexes: {
    // the org's usage of a month
    byMonth: { pk: { field: 'pk', composite: ['org_id'] }, sk: { field: 'sk', composite: ['month'] } },
  },
});

/**
 * A broadcast's message, by its unique_id (status webhooks -> the recipient's ack), and the chat's
 * latest broadcast (a customer reply -> replied). Written when the recipient is sent.
 * `kind` 'msg' keys by unique_id, 'chat' by chat_id. `expires_at` TTL epoch **seconds** (30 days).
 */
export const BroadcastRefEntity = new Entity({
  model: { entity: 'broadcastRef', version: '1', service: 'chorus' },
  attributes: {
    org_id: { type: 'string', required: true },
    kind: { type: ['msg', 'chat'] as const, required: true },
    ref: { type: 'string', required: true },
    broadcast_id: { type: 'string', required: true },
    rid: { type: 'string', required: true },
    sent_at: { type: 'number', required: true },
    expires_at: { type: 'number', required: true },
  },
  indexes: {
    // a message's or a chat's broadcast
    byRef: { pk: { field: 'pk', composite: ['org_id', 'kind', 'ref'] }, sk: { field: 'sk', composite: [] } },
  },
});

/** A rate-limit signal of a number (130429 / 131056 seen by the outbound consumer): the engine backs off. `at` epoch ms. */
export const BroadcastPhoneLimitEntity = new Entity({
  model: { entity: 'broadcastPhoneLimit', version: '1', service: 'chorus' },
  attributes: {
    org_id: { type: 'string', required: true },
    phone_id: { type: 'string', required: true },
    at: { type: 'number', required: true },
    code: { type: 'number', required: true },
    expires_at: { type: 'number', required: true },
  },
  indexes: {
    // the last rate-limit error of a number
    byPhone: { pk: { field: 'pk', composite: ['org_id', 'phone_id'] }, sk: { field: 'sk', composite: [] } },
  },
});
