/** A ticket's audit log (GET /tickets/{id}/audit, cursor paged), with spec §8's words for its states. */
import { useEffect, useRef } from 'react';
import { usePagedLog } from '../../../lib/usePagedLog.ts';
import type { TicketAuditEntry, TicketLabel } from '#shared/ticket/ticket.schemas.ts';
import { api } from '../../../lib/api.ts';
import { useSession } from '../../../app/session.tsx';
import { useTickets } from '../hooks/useTickets.tsx';
import { exactTime } from '../../../lib/format.ts';
import { STATUS_LABELS, priorityLabel, relTime, shortDate } from '../api/tickets.ts';

const str = (v: unknown): string => (v === null || v === undefined ? '' : String(v));

function describe(e: TicketAuditEntry, labels: Map<string, TicketLabel>): string {
  const o = e.old ?? {};
  const n = e.new ?? {};
  switch (e.action) {
    case 'TICKET_CREATED':
      return 'created the ticket';
    case 'SUBJECT_CHANGED':
      return `renamed it to “${str(n.subject)}”`;
    case 'STATUS_CHANGED': {
      const from = STATUS_LABELS[o.status as keyof typeof STATUS_LABELS] ?? str(o.status);
      const to = STATUS_LABELS[n.status as keyof typeof STATUS_LABELS] ?? str(n.status);
      return from ? `changed status from ${from} to ${to}` : `set status to ${to}`;
    }
    case 'PRIORITY_CHANGED':
      return `changed priority${o.priority ? ` from ${priorityLabel(Number(o.priority))}` : ''} to ${priorityLabel(Number(n.priority))}`;
    case 'ASSIGNEE_CHANGED':
      return n.assignee ? `assigned it to ${str(n.assignee)}` : `unassigned it${o.assignee ? ` from ${str(o.assignee)}` : ''}`;
    case 'DUE_DATE_CHANGED':
      return typeof n.due_date === 'number' ? `set the due date to ${shortDate(n.due_date)}` : 'removed the due date';
    case 'LABELS_CHANGED': {
      const names = (Array.isArray(n.labels) ? n.labels : []).map((id) => labels.get(String(id))?.name ?? 'a deleted label');
      return names.length ? `set labels: ${names.join(', ')}` : 'removed all labels';
    }
    case 'MESSAGE_ATTACHED':
      return 'attached a message';
    case 'MESSAGE_DETACHED':
      return 'detached a message';
    case 'FIRST_RESPONSE':
      return 'first reply to the customer was sent';
    default:
      return String(e.action).toLowerCase().replace(/_/g, ' ');
  }
}

export function AuditLog({ ticketId, version }: { ticketId: string | null; /** bumps when the ticket changed */ version: number }) {
  const { org } = useSession();
  const { labelsById } = useTickets();
  const { items: entries, cursor, state, more, reload: load, loadMore } = usePagedLog<TicketAuditEntry>(
    ticketId,
    (c) => api.ticketAudit(org.org_id, ticketId!, c),
    (e) => e.audit_id,
  );
  const first = useRef(true);
  useEffect(() => {
    if (first.current) {
      first.current = false;
      return;
    }
    const t = setTimeout(() => load(true), 400);
    return () => clearTimeout(t);
  }, [version, load]);


  if (!ticketId) return <p className="muted small">Select a ticket to view audit logs</p>;
  if (state === 'loading') return <p className="muted small" role="status">Loading logs...</p>;
  if (state === 'error')
    return (
      <p className="inline-state" role="alert">
        Failed to fetch audit logs{' '}
        <button type="button" className="link-btn" onClick={() => load(false)}>
          Retry
        </button>
      </p>
    );
  if (entries.length === 0) return <p className="muted small">No audit logs found</p>;
  return (
    <>
      <ol className="audit-list" data-testid="ticket-audit">
        {entries.map((e) => (
          <li key={e.audit_id} className="audit-entry" data-action={e.action}>
            <span>
              <strong>{e.by === 'system' ? 'Chorus' : e.by}</strong> {describe(e, labelsById)}
            </span>
            <time className="muted small" dateTime={new Date(e.at).toISOString()} title={exactTime(e.at)}>
              {relTime(e.at)}
            </time>
          </li>
        ))}
      </ol>
      {cursor && (
        <button type="button" className="link-btn small" onClick={loadMore} disabled={more === 'loading'}>
          {more === 'loading' ? 'Loading logs...' : more === 'error' ? 'Failed to fetch audit logs — retry' : 'Older entries'}
        </button>
      )}
    </>
  );
}
