/**
 * Bulk actions on the selected tickets (status, assignee by email / me / none; at most
 * MAX_BULK_TICKETS) and the per-ticket failures of the last bulk change.
 */
import { useState } from 'react';
import type { BulkUpdateResult, Ticket, TicketStatus } from '#shared/ticket/ticket.schemas.ts';
import { MAX_BULK_TICKETS } from '#shared/ticket/ticket.schemas.ts';
import { useSession } from '../../../app/session.tsx';
import { Toolbar, ToolbarButton } from '../../../components/ui/Toolbar.tsx';
import { BulkFailures } from '../../../components/ui/BulkFailures.tsx';
import { STATUS_OPTIONS, ticketRef } from '../api/tickets.ts';
import { Options } from '../../../components/ui/Options.tsx';

export type TicketBulkChange = { status?: TicketStatus; assignee?: string | null };

export interface TicketBulkBarProps {
  checked: Set<string>;
  setChecked: (s: Set<string>) => void;
  bulkBusy: boolean;
  bulk: (change: TicketBulkChange) => void;
  suggestions: string[];
}

/** The bulk-action bar over /tickets (the kit's {@link Toolbar}): count, status, assignee, clear. */
export function TicketBulkBar({ checked, setChecked, bulkBusy, bulk, suggestions }: TicketBulkBarProps) {
  const { user } = useSession();
  const [bulkAssignee, setBulkAssignee] = useState('');
  const tooMany = checked.size > MAX_BULK_TICKETS;
  return (
    <Toolbar label="Bulk actions" className="bulk-bar" testId="bulk-bar">
      <span className="bulk-count">
        <strong>{checked.size}</strong> selected
      </span>
      <label>
        <span className="visually-hidden">Set status of the selected tickets</span>
        <select
          value=""
          disabled={bulkBusy || tooMany}
          onChange={(e) => e.target.value && bulk({ status: e.target.value as TicketStatus })}
          data-testid="bulk-status"
        >
          <option value="">Set status…</option>
          <Options options={STATUS_OPTIONS} />
        </select>
      </label>
      <form
        className="bulk-assign"
        onSubmit={(e) => {
          e.preventDefault();
          const a = bulkAssignee.trim().toLowerCase();
          bulk({ assignee: a === '' || a === 'none' ? null : a === 'me' ? user.email : a });
        }}
      >
        <input
          type="text"
          list="bulk-assignees"
          placeholder="Assign to (email, me, none)"
          aria-label="Assign the selected tickets to"
          value={bulkAssignee}
          onChange={(e) => setBulkAssignee(e.target.value)}
          disabled={bulkBusy || tooMany}
          data-testid="bulk-assignee"
        />
        <datalist id="bulk-assignees">
          {suggestions.map((s) => (
            <option key={s} value={s} />
          ))}
        </datalist>
        <ToolbarButton type="submit" className="btn small-btn" disabled={bulkBusy || tooMany} data-testid="bulk-assign-submit">
          Assign
        </ToolbarButton>
      </form>
      <ToolbarButton className="link-btn" onClick={() => setChecked(new Set())}>
        Clear selection
      </ToolbarButton>
      {tooMany && <span className="form-error small">At most {MAX_BULK_TICKETS} tickets at once.</span>}
      {bulkBusy && <span className="muted small">Updating…</span>}
    </Toolbar>
  );
}

/** Which tickets the last bulk change could not update, and why; dismissable. */
export function TicketBulkFailures({ result, byId, onDismiss }: { result: BulkUpdateResult; byId: Map<string, Ticket>; onDismiss: () => void }) {
  return (
    <BulkFailures
      failures={result.failed}
      noun="ticket"
      testId="bulk-failures"
      itemKey={(f) => f.ticket_id}
      renderItem={(f) => (
        <>
          <span className="mono">{ticketRef(f.ticket_id)}</span> {byId.get(f.ticket_id)?.subject ?? ''} — {f.reason}
        </>
      )}
      onDismiss={onDismiss}
    />
  );
}
