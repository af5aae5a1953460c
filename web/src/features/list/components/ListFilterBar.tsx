/** /list's filter bar: folder chips with their counts, Unread, Mine, Unassigned, label, number (several numbers only), type, custom property value. */
import type { ChatLabel } from '#shared/chat/chat.schemas.ts';
import type { FolderCounts, InboxState } from '#shared/chat/chat-state.rules.ts';
import { useSession } from '../../../app/session.tsx';
import { formatPhone } from '../../../lib/format.ts';
import { FOLDERS, type ListFilter } from '../api/filters.ts';
import { PropertyFilter } from '../../chats/index.ts';

export interface ListFilterBarProps {
  filter: ListFilter;
  set: (patch: Partial<ListFilter>) => void;
  counts: Record<InboxState, FolderCounts> | null;
  labels: ChatLabel[];
}

export function ListFilterBar({ filter, set, counts, labels }: ListFilterBarProps) {
  const { org } = useSession();
  const folder = filter.state;
  return (
    <div className="list-filters" role="group" aria-label="Filters">
      <div className="list-chips" role="radiogroup" aria-label="Folder">
        {FOLDERS.map((f) => (
          <button key={f.value} type="button" role="radio" aria-checked={folder === f.value} className={`list-chip ${folder === f.value ? 'active' : ''}`} data-testid={`list-folder-${f.value}`} onClick={() => set({ state: f.value })}>
            {f.label}
            {counts && <span className="list-chip-count">{counts[f.value].total.toLocaleString('en-US')}</span>}
          </button>
        ))}
      </div>
      <div className="list-chips">
        <button type="button" aria-pressed={filter.unread} className={`list-chip ${filter.unread ? 'active' : ''}`} data-testid="list-filter-unread" onClick={() => set({ unread: !filter.unread })}>
          Unread
        </button>
        <button type="button" aria-pressed={filter.assignee === 'me'} className={`list-chip ${filter.assignee === 'me' ? 'active' : ''}`} data-testid="list-filter-mine" onClick={() => set({ assignee: filter.assignee === 'me' ? '' : 'me' })}>
          Mine
        </button>
        <button type="button" aria-pressed={filter.assignee === 'none'} className={`list-chip ${filter.assignee === 'none' ? 'active' : ''}`} data-testid="list-filter-unassigned" onClick={() => set({ assignee: filter.assignee === 'none' ? '' : 'none' })}>
          Unassigned
        </button>
        <select className="list-select" aria-label="Label" value={filter.label_id} data-testid="list-filter-label" onChange={(e) => set({ label_id: e.target.value })}>
          <option value="">Any label</option>
          {labels.map((l) => (
            <option key={l.label_id} value={l.label_id}>
              {l.name}
            </option>
          ))}
        </select>
        {org.phones.length > 1 && (
          <select className="list-select" aria-label="Number" value={filter.phone} data-testid="list-filter-phone" onChange={(e) => set({ phone: e.target.value })}>
            <option value="">Any number</option>
            {org.phones.map((p) => (
              <option key={p.phone_id} value={p.org_phone}>
                {formatPhone(p.org_phone)}
              </option>
            ))}
          </select>
        )}
        <select className="list-select" aria-label="Type" value={filter.type} data-testid="list-filter-type" onChange={(e) => set({ type: e.target.value as ListFilter['type'] })}>
          <option value="">Chats and groups</option>
          <option value="user">Chats</option>
          <option value="group">Groups</option>
        </select>
        <PropertyFilter orgId={org.org_id} propertyId={filter.property_id || undefined} value={filter.property_value || undefined} onChange={(id, v) => set({ property_id: id ?? '', property_value: v ?? '' })} variant="list" testId="list-filter-prop" />
      </div>
    </div>
  );
}
