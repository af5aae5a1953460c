import { Entity } from 'electrodb';

/**
 * A scheduled message (issue 16 item 6): text and/or a template sent into one chat as the member who
 * scheduled it, once or on a recurrence (shared/schedule/recurrence.rules.ts) in the org's time
 * zone. Fired through the scheduler port (one wake-up per next occurrence, queue
 * `scheduled-messages`). Key reads only: an org's (admins) or a member's own (gsi1), newest first.
 * Timestamps epoch ms.
 */
export const ScheduledMessageEntity = new Entity({
  model: { entity: 'scheduled_message', version: '1', service: 'chorus' },
  attributes: {
    org_id: { type: 'string', required: true },
    /** ULID of the creation time */
    schedule_id: { type: 'string', required: true },
    chat_id: { type: 'string', required: true },
    /** the chat's name when scheduled (lists) */
    chat_name: { type: 'string' },
    /** member email: sent as this member; members see their own */
    created_by: { type: 'string', required: true },
    /** text to send while the 24-hour window is open (or on WhatsApp Web) */
    body: { type: 'string' },
    /** `{ name, language, values }`: sent when the window is closed (or always, when there is no body) */
    template: { type: 'any' },
    /** Recurrence (recurrence.rules.ts) */
    recurrence: { type: 'any', required: true },
    status: { type: ['active', 'paused', 'done'] as const, required: true, default: 'active' },
    /** epoch ms of the next occurrence; absent when done */
    next_at: { type: 'number' },
    /** occurrences used so far (sent, failed or skipped) */
    occurrences: { type: 'number', required: true, default: 0 },
    /** `{ at, outcome: 'sent' | 'failed' | 'skipped', reason?, unique_id? }` */
    last_run: { type: 'any' },
    created_at: { type: 'number', required: true, default: () => Date.now(), readOnly: true },
    updated_at: { type: 'number', required: true, default: () => Date.now(), watch: '*', set: () => Date.now() },
  },
  indexes: {
    byOrg: { pk: { field: 'pk', composite: ['org_id'] }, sk: { field: 'sk', composite: ['schedule_id'] } },
    byCreator: { index: 'gsi1', pk: { field: 'gsi1pk', composite: ['org_id', 'created_by'] }, sk: { field: 'gsi1sk', composite: ['schedule_id'] } },
  },
});
