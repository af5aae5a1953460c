/**
 * /list's table: a head row with 'select all loaded', then the matching chats virtualized
 * (TanStack Virtual; 48 px rows, 68 px on phones): name (or 'A chat you cannot open'), number as
 * served (masked for members when the org masks numbers), assignee, labels, folder, last message
 * time. Scrolling near the end loads the next page.
 */
import { useEffect, useMemo, useRef } from 'react';
import { useVirtualizer } from '@tanstack/react-virtual';
import type { Chat, ChatLabel } from '#shared/chat/chat.schemas.ts';
import type { InboxState } from '#shared/chat/chat-state.rules.ts';
import type { OrgMember } from '../../../lib/api.ts';
import { exactTime, listTime } from '../../../lib/format.ts';
import { ListSkeleton, LoadError } from '../../../components/ui/ListStates.tsx';
import { useSession } from '../../../app/session.tsx';
import { PHONE_QUERY, useMediaQuery } from '../../../lib/useMediaQuery.ts';
import { memberLabel } from '../../tasks/index.ts';
import { activeFilters, NO_FILTER, type ListFilter } from '../api/filters.ts';
import type { ListRows } from '../hooks/useListChats.ts';

const STATE_NAMES: Record<InboxState, string> = { open: 'Open', closed: 'Closed', snoozed: 'Snoozed', archived: 'Archived' };

export type Selection = { all: true } | { all: false; ids: Set<string> };

export interface ListTableProps {
  rows: ListRows;
  loadMore: () => void;
  reload: () => void;
  dismissError: () => void;
  filter: ListFilter;
  setFilter: (f: ListFilter) => void;
  n: number | null;
  selection: Selection;
  allLoadedSelected: boolean;
  selectable: Chat[];
  toggle: (chatId: string) => void;
  toggleAllLoaded: () => void;
  labels: ChatLabel[];
  members: OrgMember[];
  nameOf: (c: Chat) => string;
  numberOf: (c: Pick<Chat, 'chat_id' | 'chat_type' | 'identity'>) => string;
}

export function ListTable({ rows, loadMore, reload, dismissError, filter, setFilter, n, selection, allLoadedSelected, selectable, toggle, toggleAllLoaded, labels, members, nameOf, numberOf }: ListTableProps) {
  const { user } = useSession();
  const phone = useMediaQuery(PHONE_QUERY);
  const labelById = useMemo(() => new Map(labels.map((l) => [l.label_id, l])), [labels]);
  const selectedIds = selection.all ? null : selection.ids;
  const scrollRef = useRef<HTMLDivElement>(null);
  const rowHeight = phone ? 68 : 48;
  const virtualizer = useVirtualizer({
    count: rows.chats.length,
    getScrollElement: () => scrollRef.current,
    estimateSize: () => rowHeight,
    overscan: 12,
    getItemKey: (i) => rows.chats[i]?.chat_id ?? i,
  });
  useEffect(() => virtualizer.measure(), [rowHeight, virtualizer]);
  const items = virtualizer.getVirtualItems();
  const last = items.length ? items[items.length - 1].index : -1;
  useEffect(() => {
    if (last >= rows.chats.length - 10) loadMore();
  }, [last, rows.chats.length, loadMore]);

  return (
    <div className="list-table" role="table" aria-label="Chats" aria-rowcount={n ?? undefined}>
      <div className="list-row list-head" role="row">
        <span role="columnheader" className="list-check">
          <input
            type="checkbox"
            aria-label="Select all loaded chats"
            data-testid="list-check-all"
            checked={selection.all || allLoadedSelected}
            ref={(el) => {
              if (el) el.indeterminate = !selection.all && !allLoadedSelected && selection.ids.size > 0;
            }}
            disabled={selectable.length === 0}
            onChange={toggleAllLoaded}
          />
        </span>
        <span role="columnheader">Name</span>
        <span role="columnheader" className="list-col-wide">
          Number
        </span>
        <span role="columnheader" className="list-col-wide">
          Assignee
        </span>
        <span role="columnheader" className="list-col-wide">
          Labels
        </span>
        <span role="columnheader" className="list-col-wide">
          Folder
        </span>
        <span role="columnheader" className="list-col-wide list-time">
          Last message
        </span>
      </div>
      <div className="list-scroll" ref={scrollRef} data-testid="list-rows">
        {rows.status === 'loading' && <ListSkeleton rows={10} label="Loading chats" />}
        {rows.status === 'error' && <LoadError what="chats" error={rows.error} onRetry={reload} />}
        {rows.status === 'ready' && rows.chats.length === 0 && (
          <div className="state-box empty" data-testid="list-empty">
            <p>No chats match these filters.</p>
            {(activeFilters(filter) > 0 || filter.state !== 'open') && (
              <button type="button" className="btn" onClick={() => setFilter(NO_FILTER)}>
                Clear filters
              </button>
            )}
          </div>
        )}
        {rows.chats.length > 0 && (
          <div style={{ height: virtualizer.getTotalSize(), position: 'relative' }} role="rowgroup">
            {items.map((v) => {
              const c = rows.chats[v.index];
              const locked = c.has_access === false;
              const checked = selection.all ? !locked : !!selectedIds?.has(c.chat_id);
              const chatLabels = (c.label_ids ?? []).map((id) => labelById.get(id)).filter((l): l is ChatLabel => !!l);
              const assignee = c.assigned_to ? memberLabel(c.assigned_to, members, user.email) : '—';
              const state = STATE_NAMES[(c.inbox_state ?? 'open') as InboxState];
              return (
                <div
                  key={v.key}
                  role="row"
                  className={`list-row ${checked ? 'selected' : ''} ${locked ? 'locked' : ''}`}
                  data-testid="list-row"
                  data-chat-id={c.chat_id}
                  style={{ position: 'absolute', top: 0, left: 0, right: 0, height: rowHeight, transform: `translateY(${v.start}px)` }}
                >
                  <span role="cell" className="list-check">
                    <input type="checkbox" aria-label={`Select ${nameOf(c)}`} checked={checked} disabled={locked} onChange={() => toggle(c.chat_id)} data-testid="list-row-check" />
                  </span>
                  <span role="cell" className="list-name">
                    <span className="list-name-text">{nameOf(c)}</span>
                    <span className="list-sub">
                      {[numberOf(c), assignee !== '—' ? assignee : null, state, listTime(c.latest_message_timestamp)].filter(Boolean).join(' · ')}
                    </span>
                    {chatLabels.length > 0 && (
                      <span className="list-sub list-sub-labels">
                        {chatLabels.map((l) => (
                          <span key={l.label_id} className="list-label">
                            <span className="list-dot" style={{ background: l.color }} aria-hidden="true" />
                            {l.name}
                          </span>
                        ))}
                      </span>
                    )}
                  </span>
                  <span role="cell" className="list-col-wide list-muted">
                    {numberOf(c)}
                  </span>
                  <span role="cell" className="list-col-wide list-ellipsis">
                    {assignee}
                  </span>
                  <span role="cell" className="list-col-wide list-labels" data-testid="list-row-labels">
                    {chatLabels.map((l) => (
                      <span key={l.label_id} className="list-label" title={l.name}>
                        <span className="list-dot" style={{ background: l.color }} aria-hidden="true" />
                        {l.name}
                      </span>
                    ))}
                  </span>
                  <span role="cell" className="list-col-wide list-muted">
                    {state}
                    {c.is_muted ? ' · Muted' : ''}
                  </span>
                  <span role="cell" className="list-col-wide list-muted list-time" title={exactTime(c.latest_message_timestamp)}>
                    {listTime(c.latest_message_timestamp)}
                  </span>
                </div>
              );
            })}
          </div>
        )}
        {rows.loadingMore && <p className="muted small list-more">Loading more chats…</p>}
        {rows.status === 'ready' && rows.error && rows.chats.length > 0 && (
          <p className="list-more">
            <span className="form-error small" role="alert">
              Could not load more: {rows.error}
            </span>{' '}
            <button type="button" className="link-btn small" onClick={dismissError}>
              Try again
            </button>
          </p>
        )}
      </div>
    </div>
  );
}
