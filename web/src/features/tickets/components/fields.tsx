/** Small ticket widgets shared by the list, the detail panel, the chat panel and the dialogs. */
import { useId, useMemo, useState } from 'react';
import type { Ticket, TicketLabel, TicketStatus } from '#shared/ticket/ticket.schemas.ts';
import { MAX_TICKET_LABELS } from '#shared/ticket/ticket.schemas.ts';
import { useSession } from '../../../app/session.tsx';
import { useTickets } from '../hooks/useTickets.tsx';
import { STATUS_LABELS, labelTextColor, priorityLabel } from '../api/tickets.ts';

export function StatusPill({ status }: { status: TicketStatus }) {
  return <span className={`status-pill status-${status}`}>{STATUS_LABELS[status] ?? status}</span>;
}

export function PriorityTag({ priority }: { priority: number }) {
  return (
    <span className={`prio prio-${priority}`} title={`Priority: ${priorityLabel(priority)}`}>
      <span className="prio-bars" aria-hidden="true">
        <i />
        <i />
        <i />
      </span>
      {priorityLabel(priority)}
    </span>
  );
}

export function LabelChip({ label }: { label: TicketLabel }) {
  return (
    <span className="ticket-label" style={{ background: label.color, color: labelTextColor(label.color) }}>
      {label.name}
    </span>
  );
}

export function TicketLabels({ ids }: { ids: string[] }) {
  const { labelsById } = useTickets();
  const labels = ids.map((id) => labelsById.get(id)).filter((l): l is TicketLabel => !!l);
  if (labels.length === 0) return null;
  return (
    <span className="ticket-labels">
      {labels.map((l) => (
        <LabelChip key={l.label_id} label={l} />
      ))}
    </span>
  );
}

/** Emails the assignee picker suggests: me, plus anyone seen as an assignee. (There is no members endpoint yet.) */
export function useKnownAssignees(tickets: Array<Pick<Ticket, 'assignee' | 'created_by'>> = []): string[] {
  const { user } = useSession();
  return useMemo(() => {
    const s = new Set<string>([user.email]);
    for (const t of tickets) {
      if (t.assignee) s.add(t.assignee);
      if (t.created_by && t.created_by.includes('@')) s.add(t.created_by);
    }
    return [...s].sort();
  }, [user.email, tickets]);
}

/**
 * Assignee picker: a member email typed (with suggestions), 'Me' and 'Unassigned' shortcuts.
 * Commits on Enter / blur / shortcut; '' means unassigned.
 */
export function AssigneeInput({
  value,
  onCommit,
  suggestions,
  disabled,
  label = 'Assignee',
  testId,
}: {
  value: string | null;
  onCommit: (email: string | null) => void;
  suggestions: string[];
  disabled?: boolean;
  label?: string;
  testId?: string;
}) {
  const { user } = useSession();
  const [draft, setDraft] = useState<string | null>(null);
  const listId = useId();
  const shown = draft ?? value ?? '';
  const commit = (raw: string) => {
    setDraft(null);
    const v = raw.trim().toLowerCase();
    const next = v === '' ? null : v;
    if (next !== (value ?? null)) onCommit(next);
  };
  return (
    <div className="assignee-input">
      <input
        type="email"
        list={listId}
        value={shown}
        placeholder="Unassigned (type a member email)"
        aria-label={label}
        data-testid={testId}
        disabled={disabled}
        onChange={(e) => setDraft(e.target.value)}
        onBlur={() => draft !== null && commit(draft)}
        onKeyDown={(e) => {
          if (e.key === 'Enter') {
            e.preventDefault();
            commit(shown);
          }
        }}
      />
      <datalist id={listId}>
        {suggestions.map((s) => (
          <option key={s} value={s} />
        ))}
      </datalist>
      <div className="assignee-shortcuts">
        <button type="button" className="chip-btn" disabled={disabled || value === user.email} onClick={() => commit(user.email)}>
          Me
        </button>
        <button type="button" className="chip-btn" disabled={disabled || !value} onClick={() => commit('')}>
          Unassign
        </button>
      </div>
    </div>
  );
}

/** Checkbox list of the org's ticket labels (max 10 per ticket). */
export function LabelPicker({ value, onChange, disabled }: { value: string[]; onChange: (ids: string[]) => void; disabled?: boolean }) {
  const { settings } = useTickets();
  if (settings.labels.length === 0) return <p className="muted small">No ticket labels yet. Admins add them in Settings → Tickets.</p>;
  return (
    <div className="label-picker" role="group" aria-label="Labels">
      {settings.labels.map((l) => {
        const on = value.includes(l.label_id);
        return (
          <label key={l.label_id} className={`label-option ${on ? 'on' : ''}`}>
            <input
              type="checkbox"
              checked={on}
              disabled={disabled || (!on && value.length >= MAX_TICKET_LABELS)}
              onChange={() => onChange(on ? value.filter((x) => x !== l.label_id) : [...value, l.label_id])}
            />
            <span className="label-dot" style={{ background: l.color }} aria-hidden="true" />
            {l.name}
          </label>
        );
      })}
    </div>
  );
}
