import { Entity } from 'electrodb';

/**
 * A validly signed webhook body (or one update inside it) that could not be used, kept with the
 * reason so an admin can see it later (/logs). Never a 500, never silently dropped.
 */
export const WebhookRejectionEntity = new Entity({
  model: { entity: 'webhook_rejection', version: '1', service: 'chorus' },
  attributes: {
    rejection_id: { type: 'string', required: true },
    /** the org when it could be resolved, else "unknown" */
    org_id: { type: 'string', required: true, default: 'unknown' },
    source: { type: 'string', required: true, default: 'whatsapp_cloud' },
    reason: { type: 'string', required: true },
    raw_body: { type: 'string', required: true },
    /** epoch ms */
    received_at: { type: 'number', required: true, padding: { length: 15, char: '0' } },
    expires_at: { type: 'number' },
  },
  indexes: {
    // rejections of an org (or "unknown"), newest first
    byOrg: {
      pk: { field: 'pk', composite: ['org_id'] },
      sk: { field: 'sk', composite: ['received_at', 'rejection_id'] },
    },
  },
});
