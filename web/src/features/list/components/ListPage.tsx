/**
 * /list (spec §2 List; issue 4 part 11): bulk actions on many chats at once.
 * - A filter bar with the chat list's filters (folder, unread, mine / unassigned, label, phone,
 *   type) over a virtualized table of the matching chats (name, number as served — masked for
 *   members when the org masks numbers —, assignee, labels, folder, last message time).
 * - Checkboxes per row and for the loaded rows; once every loaded row is ticked, 'Select all N
 *   matching this filter' (N from GET /chats/counts when one filter is set, else 'all matching').
 * - The action bar (Assign, Label, Unlabel, Close / Reopen, Archive / Unarchive, Mute) starts a
 *   bulk job; its progress bar follows `bulk_job.updated` over the socket, or GET every 2 s while
 *   the socket is down; then the summary with the failed chats and Undo (assign, label, unlabel).
 *   Actions that cannot be undone here ask first.
 * - Export CSV downloads the chats of the current filter.
 */
import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { useVirtualizer } from '@tanstack/react-virtual';
import type { Chat, ChatLabel } from '#shared/chat/chat.schemas.ts';
import type { FolderCounts, InboxState } from '#shared/chat/chat-state.rules.ts';
import type { BulkAction, BulkJob, CreateBulkJobRequest } from '#shared/bulk/bulk-job.schemas.ts';
import { isFinished } from '#shared/bulk/bulk-job.rules.ts';
import { maskPhone, mustMask } from '#shared/chat/chat-access.rules.ts';
import { errorMessage } from '../../../lib/api.ts';
import { chatNumber, exactTime, formatPhone, isGroupChat, listTime } from '../../../lib/format.ts';
import { memberLabel } from '../../tasks/index.ts';
import { useInbox } from '../../../app/inbox.tsx';
import { useSession } from '../../../app/session.tsx';
import { useToast } from '../../../app/toast.tsx';
import { MenuButton } from '../../../app/shell/MenuButton.tsx';
import { PHONE_QUERY, useMediaQuery } from '../../../lib/useMediaQuery.ts';
import { ListSkeleton, LoadError } from '../../../components/ui/ListStates.tsx';
import { listApi } from '../api/listApi.ts';
import { activeFilters, FOLDERS, matchingCount, NO_FILTER, toJobFilter, type ListFilter } from '../api/filters.ts';
import { ActionMenu } from './ActionMenu.tsx';
import { JobPanel } from './JobPanel.tsx';
import { useListChats } from '../hooks/useListChats.ts';
import { useMembers } from '../../../lib/members.ts';
import './list.css';

const POLL_MS = 2000;
const STATE_NAMES: Record<InboxState, string> = { open: 'Open', closed: 'Closed', snoozed: 'Snoozed', archived: 'Archived' };
/** Actions that Undo does not cover ask first, with this verb. */
const CONFIRM_VERB: Partial<Record<BulkAction, string>> = { close: 'Close', reopen: 'Reopen', archive: 'Archive', unarchive: 'Unarchive', mute: 'Mute', unmute: 'Unmute' };

type Selection = { all: true } | { all: false; ids: Set<string> };
const NONE: Selection = { all: false, ids: new Set() };

/** The later of two snapshots of one job (events and polls may arrive out of order). */
function newer(a: BulkJob | undefined, b: BulkJob): BulkJob {
  if (!a || a.job_id !== b.job_id) return b;
  if (isFinished(a) !== isFinished(b)) return isFinished(b) ? b : a;
  return b.processed >= a.processed ? { ...b, undone_by_job: b.undone_by_job ?? a.undone_by_job } : a;
}

export function ListPage() {
  const { org, user } = useSession();
  const inbox = useInbox();
  const toast = useToast();
  const phone = useMediaQuery(PHONE_QUERY);
  const orgId = org.org_id;
  const viewer = useMemo(() => ({ email: user.email, role: org.role }), [user.email, org.role]);
  const masked = mustMask(!!org.mask_phone_numbers, viewer);

  const [filter, setFilter] = useState<ListFilter>(NO_FILTER);
  const [counts, setCounts] = useState<Record<InboxState, FolderCounts> | null>(null);
  const [labels, setLabels] = useState<ChatLabel[]>([]);
  const members = useMembers(orgId);
  const [selection, setSelection] = useState<Selection>(NONE);
  const [job, setJob] = useState<BulkJob | null>(null);
  const [confirm, setConfirm] = useState<{ action: BulkAction; verb: string; title: string } | null>(null);
  const [starting, setStarting] = useState(false);
  const [undoing, setUndoing] = useState(false);
  const [exporting, setExporting] = useState(false);

  // ---- data ----------------------------------------------------------------------------
  const refreshCounts = useCallback(() => {
    listApi.counts(orgId).then(setCounts, () => setCounts(null));
  }, [orgId]);
  useEffect(() => {
    refreshCounts();
    listApi.labels(orgId).then(setLabels, (e) => console.warn('labels', errorMessage(e)));
  }, [orgId, refreshCounts]);

  const { rows, loadMore, patch, reload: reloadRows, dismissError } = useListChats(orgId, filter);
  useEffect(() => setSelection(NONE), [orgId, filter]);
  const reload = useCallback(() => {
    setSelection(NONE);
    reloadRows();
  }, [reloadRows]);

  // chat snapshots pushed over the socket replace the rows they match (batched: a bulk job sends hundreds)
  const pendingChats = useRef(new Map<string, Chat>());
  const flushTimer = useRef<ReturnType<typeof setTimeout> | null>(null);
  // job snapshots seen over the socket, also before the POST that started the job has answered
  const seenJobs = useRef(new Map<string, BulkJob>());
  const { subscribe, socketState } = inbox;
  useEffect(
    () =>
      subscribe((e) => {
        if (e.kind === 'bulk_job') {
          seenJobs.current.set(e.job.job_id, newer(seenJobs.current.get(e.job.job_id), e.job));
          setJob((cur) => (cur && cur.job_id === e.job.job_id ? newer(cur, e.job) : cur));
        } else if (e.kind === 'chat') {
          pendingChats.current.set(e.chat.chat_id, e.chat);
          flushTimer.current ??= setTimeout(() => {
            flushTimer.current = null;
            const updates = pendingChats.current;
            pendingChats.current = new Map();
            patch(updates);
          }, 250);
        }
      }),
    [subscribe, patch],
  );
  useEffect(() => () => void (flushTimer.current && clearTimeout(flushTimer.current)), []);

  // polling fallback: only while the job runs and the socket is down
  const running = !!job && !isFinished(job);
  const socketDown = socketState !== 'open';
  const jobId = job?.job_id;
  useEffect(() => {
    if (!running || !socketDown || !jobId) return;
    const t = setInterval(() => {
      listApi.job(orgId, jobId).then(
        (j) => setJob((cur) => (cur && cur.job_id === j.job_id ? newer(cur, j) : cur)),
        (e) => console.warn('bulk job poll', errorMessage(e)),
      );
    }, POLL_MS);
    return () => clearInterval(t);
  }, [running, socketDown, jobId, orgId]);

  // a finished job changed the chats: reload the list and the counts
  const finishedId = job && isFinished(job) ? job.job_id : null;
  useEffect(() => {
    if (!finishedId) return;
    reload();
    refreshCounts();
  }, [finishedId, refreshCounts, reload]);

  // ---- selection -------------------------------------------------------------------------
  const selectable = useMemo(() => rows.chats.filter((c) => c.has_access !== false), [rows.chats]);
  const n = matchingCount(filter, counts);
  const selectedIds = selection.all ? null : selection.ids;
  const selectedCount = selection.all ? n : selection.ids.size;
  const allLoadedSelected = !selection.all && selectable.length > 0 && selectable.every((c) => selection.ids.has(c.chat_id));
  const someSelected = selection.all || selection.ids.size > 0;
  const moreThanLoaded = rows.cursor !== null || (n !== null && n > selectable.length);

  const toggle = (chatId: string) =>
    setSelection((s) => {
      const ids = new Set(s.all ? selectable.map((c) => c.chat_id) : s.ids);
      if (ids.has(chatId)) ids.delete(chatId);
      else ids.add(chatId);
      return { all: false, ids };
    });
  const toggleAllLoaded = () => setSelection(someSelected ? NONE : { all: false, ids: new Set(selectable.map((c) => c.chat_id)) });

  // ---- actions ---------------------------------------------------------------------------
  const start = async (action: BulkAction, params: CreateBulkJobRequest['params'] = {}) => {
    if (!someSelected || starting) return;
    setConfirm(null);
    setStarting(true);
    try {
      const input: CreateBulkJobRequest = selection.all ? { action, params, filter: toJobFilter(filter) } : { action, params, chat_ids: [...selection.ids] };
      const started = await listApi.startJob(orgId, input);
      setJob(newer(started, seenJobs.current.get(started.job_id) ?? started));
      setSelection(NONE);
    } catch (e) {
      toast.show(errorMessage(e), 'error');
    } finally {
      setStarting(false);
    }
  };
  const ask = (action: BulkAction) => {
    const what = selection.all ? (n !== null ? `${n.toLocaleString('en-US')} chat${n === 1 ? '' : 's'}` : 'all matching chats') : `${selection.ids.size} chat${selection.ids.size === 1 ? '' : 's'}`;
    setConfirm({ action, verb: CONFIRM_VERB[action] ?? action, title: `${CONFIRM_VERB[action] ?? action} ${what}?` });
  };
  const undo = async () => {
    if (!job || undoing) return;
    setUndoing(true);
    try {
      const u = await listApi.undo(orgId, job.job_id);
      setJob(newer(u, seenJobs.current.get(u.job_id) ?? u));
    } catch (e) {
      toast.show(errorMessage(e), 'error');
    } finally {
      setUndoing(false);
    }
  };
  const exportCsv = async () => {
    if (exporting) return;
    setExporting(true);
    try {
      await listApi.exportCsv(orgId, filter);
    } catch (e) {
      toast.show(errorMessage(e), 'error');
    } finally {
      setExporting(false);
    }
  };

  // ---- display helpers -------------------------------------------------------------------
  const labelById = useMemo(() => new Map(labels.map((l) => [l.label_id, l])), [labels]);
  const numberOf = useCallback(
    (c: Pick<Chat, 'chat_id' | 'chat_type'>): string => {
      if (isGroupChat(c)) return 'Group';
      const num = chatNumber(c.chat_id);
      return formatPhone(masked ? maskPhone(num) : num);
    },
    [masked],
  );
  const nameOf = useCallback(
    (c: Chat): string => (c.has_access === false ? 'A chat you cannot open' : c.chat_name?.trim() || (isGroupChat(c) ? 'Group chat' : numberOf(c))),
    [numberOf],
  );
  const byId = useMemo(() => new Map(rows.chats.map((c) => [c.chat_id, c])), [rows.chats]);
  const failureName = useCallback((chatId: string) => {
    const c = byId.get(chatId);
    return c ? nameOf(c) : numberOf({ chat_id: chatId, chat_type: chatId.endsWith('@g.us') ? 'group' : 'user' });
  }, [byId, nameOf, numberOf]);

  const set = (patch: Partial<ListFilter>) => setFilter((f) => ({ ...f, ...patch }));
  const busy = starting || running;
  const folder = filter.state;

  // ---- virtual rows ----------------------------------------------------------------------
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
    <div className="page list-page" data-testid="list-page">
      <header className="page-header">
        <MenuButton />
        <h1>List</h1>
        <span className="muted small list-count" data-testid="list-count">
          {n !== null ? `${n.toLocaleString('en-US')} chat${n === 1 ? '' : 's'}` : rows.status === 'ready' ? `${rows.chats.length}${rows.cursor ? '+' : ''} chats` : ''}
        </span>
        <button type="button" className="btn list-export" onClick={exportCsv} disabled={exporting} aria-label="Export CSV" aria-busy={exporting} title="Download the chats of this filter as CSV" data-testid="list-export">
          <span aria-hidden="true">⤓</span>
          <span className="list-export-text">{exporting ? 'Exporting…' : 'Export CSV'}</span>
        </button>
      </header>

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
        </div>
      </div>

      {someSelected && (
        <div className="bulk-bar" role="toolbar" aria-label="Bulk actions" data-testid="bulk-bar">
          <span className="bulk-selected" data-testid="bulk-selected">
            {selection.all ? (n !== null ? `All ${n.toLocaleString('en-US')} selected` : 'All matching selected') : `${selectedCount} selected`}
          </span>
          {confirm ? (
            <span className="bulk-confirm" role="alertdialog" aria-label={confirm.title} data-testid="bulk-confirm">
              <span>{confirm.title}</span>
              <button type="button" className="btn btn-primary bulk-btn" autoFocus onClick={() => start(confirm.action)} data-testid="bulk-confirm-yes">
                {confirm.verb}
              </button>
              <button type="button" className="btn bulk-btn" onClick={() => setConfirm(null)}>
                Cancel
              </button>
            </span>
          ) : (
            <span className="bulk-actions">
              <ActionMenu
                label="Assign"
                testId="bulk-assign"
                disabled={busy}
                searchable={members.length > 8}
                choices={[{ key: '', label: 'Unassigned' }, ...members.map((m) => ({ key: m.email, label: memberLabel(m.email, members, user.email), hint: m.member_name ? m.email : undefined }))]}
                onPick={(email) => start('assign', { assigned_to: email || null })}
              />
              <ActionMenu label="Label" testId="bulk-label" disabled={busy || labels.length === 0} searchable={labels.length > 8} choices={labels.map((l) => ({ key: l.label_id, label: l.name, color: l.color }))} onPick={(id) => start('label', { label_ids: [id] })} />
              <ActionMenu label="Unlabel" testId="bulk-unlabel" disabled={busy || labels.length === 0} searchable={labels.length > 8} choices={labels.map((l) => ({ key: l.label_id, label: l.name, color: l.color }))} onPick={(id) => start('unlabel', { label_ids: [id] })} />
              {folder === 'closed' ? (
                <button type="button" className="btn bulk-btn" disabled={busy} onClick={() => ask('reopen')} data-testid="bulk-reopen">
                  Reopen
                </button>
              ) : (
                <button type="button" className="btn bulk-btn" disabled={busy} onClick={() => ask('close')} data-testid="bulk-close">
                  Close
                </button>
              )}
              {folder === 'archived' ? (
                <button type="button" className="btn bulk-btn" disabled={busy} onClick={() => ask('unarchive')} data-testid="bulk-unarchive">
                  Unarchive
                </button>
              ) : (
                <button type="button" className="btn bulk-btn" disabled={busy} onClick={() => ask('archive')} data-testid="bulk-archive">
                  Archive
                </button>
              )}
              <ActionMenu
                label="Mute"
                testId="bulk-mute"
                disabled={busy}
                choices={[
                  { key: 'mute', label: 'Mute' },
                  { key: 'unmute', label: 'Unmute' },
                ]}
                onPick={(k) => ask(k as BulkAction)}
              />
              <button type="button" className="link-btn small" onClick={() => setSelection(NONE)} data-testid="bulk-clear">
                Clear
              </button>
            </span>
          )}
        </div>
      )}

      {job && (
        <JobPanel
          job={job}
          viewer={viewer}
          nameOf={failureName}
          undoing={undoing}
          onUndo={undo}
          onDismiss={() => setJob(null)}
        />
      )}

      {(allLoadedSelected && moreThanLoaded) || selection.all ? (
        <div className="list-select-all" data-testid="list-select-all-banner">
          {selection.all ? (
            <>
              <span>{n !== null ? `All ${n.toLocaleString('en-US')} chats matching this filter are selected.` : 'All chats matching this filter are selected.'}</span>
              <button type="button" className="link-btn" onClick={() => setSelection(NONE)}>
                Clear selection
              </button>
            </>
          ) : (
            <>
              <span>All {selectable.length} loaded chats are selected.</span>
              <button type="button" className="link-btn" onClick={() => setSelection({ all: true })} data-testid="list-select-all">
                {n !== null ? `Select all ${n.toLocaleString('en-US')} matching this filter` : 'Select all matching this filter'}
              </button>
            </>
          )}
        </div>
      ) : null}

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
    </div>
  );
}
