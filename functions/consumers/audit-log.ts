import { sqsHandler } from '../lib/sqs.ts';
import { parseEventRecord } from '../lib/records.ts';
import { labelNamesOf, writeAuditRows } from '../../shared/audit/audit.ts';
import { auditOfChatUpdate, auditOfTicketUpdate, touchesLabels } from '../../shared/audit/audit.rules.ts';

/**
 * audit-log consumer (issue 19; spec §2 /logs): one audit row per admin action (assignments,
 * labels, chat access and ticket changes made by people), kept 90 days, labels named as they are
 * when the row is written. Admin routes write their own rows through their `audit` kind
 * (functions/routes.ts, functions/lib/http.ts). Idempotent: a row's key is built from the event id.
 */
export const handler = sqsHandler('audit-log', async (record) => {
  const ev = parseEventRecord(record, 'audit-log');
  const { metadata } = ev.detail;
  const at = Date.parse(metadata.occurred_at) || Date.now();
  switch (ev['detail-type']) {
    case 'chat.updated': {
      const p = ev.detail.properties;
      const names = touchesLabels(p.changes) ? await labelNamesOf(p.org_id) : undefined;
      return writeAuditRows(p.org_id, metadata.id, metadata.actor, at, auditOfChatUpdate(metadata.actor, p.chat as Record<string, unknown>, p.changes, names));
    }
    case 'ticket.updated':
    case 'ticket.closed': {
      const p = ev.detail.properties;
      const names = touchesLabels(p.changes) ? await labelNamesOf(p.org_id) : undefined;
      return writeAuditRows(p.org_id, metadata.id, metadata.actor, at, auditOfTicketUpdate(metadata.actor, p.ticket as Record<string, unknown>, p.changes, names));
    }
  }
});
