/**
 * The filter bar over the chat list (issue 4): folder tabs All / Snoozed / Closed / Archived and
 * the combinable filters Unread, Mine, Unassigned, Label, Phone (only when the org has more than
 * one number), Type and a custom property's value (issue 15). Each shows its count from GET /chats/counts: the counts are per single
 * filter within the folder (not of the combination). On phones both rows scroll sideways.
 */
import type { InboxState } from '#shared/chat/chat-state.rules.ts';
import type { ChatLabel } from '#shared/chat/chat.schemas.ts';
import type { ChatCounts } from '../../../lib/api.ts';
import { hasToggles, type ChatFilter } from '../api/chats.ts';
import { formatPhone } from '../../../lib/format.ts';
import { useSession } from '../../../app/session.tsx';
import { PropertyFilter } from './PropertyFilter.tsx';

export const FOLDERS: Array<{ state: InboxState; label: string }> = [
  { state: 'open', label: 'All' },
  { state: 'snoozed', label: 'Snoozed' },
  { state: 'closed', label: 'Closed' },
  { state: 'archived', label: 'Archived' },
];

const countText = (n: number | undefined): string => (n === undefined ? '' : n > 9999 ? '9999+' : String(n));

function Count({ n }: { n: number | undefined }) {
  if (n === undefined) return null;
  return <span className="filter-count">{countText(n)}</span>;
}

export function ChatFilters({
  filter,
  onChange,
  counts,
  labels,
  phones,
}: {
  filter: ChatFilter;
  onChange: (f: ChatFilter) => void;
  counts: ChatCounts | null;
  labels: ChatLabel[];
  /** the org's numbers */
  phones: string[];
}) {
  const { org } = useSession();
  const folder = counts?.[filter.state];
  const set = (change: Partial<ChatFilter>) => {
    const next: ChatFilter = { ...filter, ...change };
    for (const k of Object.keys(next) as Array<keyof ChatFilter>) if (next[k] === undefined) delete next[k];
    onChange(next);
  };
  const toggleAssignee = (value: string) => set({ assignee: filter.assignee === value ? undefined : value });
  // a label that was deleted stays choosable while it is the active filter
  const labelOptions = filter.label_id && !labels.some((l) => l.label_id === filter.label_id) ? [...labels, { label_id: filter.label_id, name: 'Deleted label', color: '#888888' }] : labels;

  return (
    <div className="chat-filters" data-testid="chat-filters">
      <div className="folder-tabs" role="tablist" aria-label="Folders">
        {FOLDERS.map((f) => {
          const active = filter.state === f.state;
          const n = counts?.[f.state]?.total;
          return (
            <button
              key={f.state}
              type="button"
              role="tab"
              aria-selected={active}
              className={`folder-tab ${active ? 'active' : ''}`}
              data-testid={`folder-${f.state}`}
              data-count={n ?? ''}
              title={n !== undefined ? `${f.label}: ${n} chat${n === 1 ? '' : 's'}` : f.label}
              onClick={() => set({ state: f.state })}
            >
              {f.label}
              <Count n={n} />
            </button>
          );
        })}
      </div>
      <div className="filter-chips" role="group" aria-label="Filters">
        <button
          type="button"
          className={`filter-chip ${filter.unread === true ? 'on' : ''}`}
          aria-pressed={filter.unread === true}
          data-testid="filter-unread"
          data-count={folder?.unread ?? ''}
          onClick={() => set({ unread: filter.unread === true ? undefined : true })}
        >
          Unread
          <Count n={folder?.unread} />
        </button>
        <button
          type="button"
          className={`filter-chip ${filter.assignee === 'me' ? 'on' : ''}`}
          aria-pressed={filter.assignee === 'me'}
          data-testid="filter-mine"
          data-count={folder?.mine ?? ''}
          title="Chats assigned to me"
          onClick={() => toggleAssignee('me')}
        >
          Mine
          <Count n={folder?.mine} />
        </button>
        <button
          type="button"
          className={`filter-chip ${filter.assignee === 'none' ? 'on' : ''}`}
          aria-pressed={filter.assignee === 'none'}
          data-testid="filter-unassigned"
          data-count={folder?.unassigned ?? ''}
          onClick={() => toggleAssignee('none')}
        >
          Unassigned
          <Count n={folder?.unassigned} />
        </button>
        {filter.assignee && filter.assignee !== 'me' && filter.assignee !== 'none' && (
          <button type="button" className="filter-chip on" aria-pressed="true" title="Remove this filter" onClick={() => set({ assignee: undefined })}>
            Assigned to {filter.assignee} ×
          </button>
        )}
        <label className={`filter-chip select-chip ${filter.label_id ? 'on' : ''}`}>
          <select value={filter.label_id ?? ''} onChange={(e) => set({ label_id: e.target.value || undefined })} data-testid="filter-label" aria-label="Label">
            <option value="">Label</option>
            {labelOptions.map((l) => (
              <option key={l.label_id} value={l.label_id}>
                {l.name}
                {folder ? ` (${countText(folder.labels[l.label_id] ?? 0)})` : ''}
              </option>
            ))}
          </select>
        </label>
        {phones.length > 1 && (
          <label className={`filter-chip select-chip ${filter.phone ? 'on' : ''}`}>
            <select value={filter.phone ?? ''} onChange={(e) => set({ phone: e.target.value || undefined })} data-testid="filter-phone" aria-label="Phone">
              <option value="">Phone</option>
              {phones.map((p) => (
                <option key={p} value={p}>
                  {formatPhone(p)}
                  {folder ? ` (${countText(folder.phones[p] ?? 0)})` : ''}
                </option>
              ))}
            </select>
          </label>
        )}
        <label className={`filter-chip select-chip ${filter.type ? 'on' : ''}`}>
          <select value={filter.type ?? ''} onChange={(e) => set({ type: (e.target.value || undefined) as ChatFilter['type'] })} data-testid="filter-type" aria-label="Type">
            <option value="">Type</option>
            <option value="user">Contacts{folder ? ` (${countText(folder.types.user ?? 0)})` : ''}</option>
            <option value="group">Groups{folder ? ` (${countText(folder.types.group ?? 0)})` : ''}</option>
          </select>
        </label>
        <PropertyFilter orgId={org.org_id} propertyId={filter.property_id} value={filter.property_value} onChange={(property_id, property_value) => set({ property_id, property_value })} variant="chip" testId="filter-prop" />
        {hasToggles(filter) && (
          <button type="button" className="filter-chip clear-chip" data-testid="filter-clear" onClick={() => onChange({ state: filter.state })}>
            Clear
          </button>
        )}
      </div>
    </div>
  );
}
