import { sqsHandler } from '../lib/sqs.ts';
import { parseEventRecord } from '../lib/records.ts';
import { writeAuditRows } from '../../shared/audit/audit.ts';
import { auditOfChatUpdate, auditOfTicketUpdate } from '../../shared/audit/audit.rules.ts';

/**
 * audit-log consumer (issue 19; spec §2 /logs): one audit row per admin action (assignments,
 * labels, chat access and ticket changes made by people), kept 90 days. Label, settings, team and
 * phone changes are written by their handlers (shared/audit/audit.ts recordAdminAction). Idempotent: a row's key is built from the event id.
 */
export const handler = sqsHandler('audit-log', async (record) => {
  const ev = parseEventRecord(record, 'audit-log');
  const { metadata } = ev.detail;
  const at = Date.parse(metadata.occurred_at) || Date.now();
  switch (ev['detail-type']) {
    case 'chat.updated': {
      const p = ev.detail.properties;
      return writeAuditRows(p.org_id, metadata.id, metadata.actor, at, auditOfChatUpdate(metadata.actor, p.chat as Record<string, unknown>, p.changes));
    }
    case 'ticket.updated':
    case 'ticket.closed': {
      const p = ev.detail.properties;
      return writeAuditRows(p.org_id, metadata.id, metadata.actor, at, auditOfTicketUpdate(metadata.actor, p.ticket as Record<string, unknown>, p.changes));
    }
  }
});
