import { Entity } from 'electrodb';

/**
 * One audit-log row (issue 19; spec §2 /logs): who changed what in assignments, labels, settings,
 * team and phones. Written by the audit consumer from domain events, idempotently: `audit_id` is
 * the 15-digit time (epoch ms) + the event id, so a repeated event overwrites its own row.
 * TTL 90 days (`expires_at`, epoch s).
 * Access (ACCESS_PATTERNS.md 63-65): an org's rows newest first (table; time range = between on
 * the sort key); by area (gsi1); by actor (gsi2).
 */
export const AuditEntryEntity = new Entity({
  model: { entity: 'audit_entry', version: '1', service: 'chorus' },
  attributes: {
    org_id: { type: 'string', required: true },
    audit_id: { type: 'string', required: true },
    /** epoch ms */
    at: { type: 'number', required: true },
    /** member email, or 'system' */
    actor: { type: 'string', required: true },
    area: { type: 'string', required: true },
    action: { type: 'string', required: true },
    target: { type: 'string', required: true },
    summary: { type: 'string', required: true },
    details: { type: 'any' },
    event_id: { type: 'string', required: true },
    /** DynamoDB TTL, epoch s */
    expires_at: { type: 'number', required: true },
  },
  indexes: {
    byOrg: { pk: { field: 'pk', composite: ['org_id'] }, sk: { field: 'sk', composite: ['audit_id'] } },
    byArea: { index: 'gsi1', pk: { field: 'gsi1pk', composite: ['org_id', 'area'] }, sk: { field: 'gsi1sk', composite: ['audit_id'] } },
    byActor: { index: 'gsi2', pk: { field: 'gsi2pk', composite: ['org_id', 'actor'] }, sk: { field: 'gsi2sk', composite: ['audit_id'] } },
  },
});
