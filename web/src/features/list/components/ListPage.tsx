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
import type { Chat } from '#shared/chat/chat.schemas.ts';
import type { BulkAction, CreateBulkJobRequest } from '#shared/bulk/bulk-job.schemas.ts';
import { mustMask } from '#shared/chat/chat-access.rules.ts';
import { errorMessage } from '../../../lib/api.ts';
import { chatDisplayName, customerNumber, IDENTITY_TEXT, isGroupChat } from '../../../lib/format.ts';
import { useInbox } from '../../../app/inbox.tsx';
import { useSession } from '../../../app/session.tsx';
import { useToast } from '../../../app/toast.tsx';
import { MenuButton } from '../../../app/shell/MenuButton.tsx';
import { useMembers } from '../../../lib/members.ts';
import { reloadChatCounts, useChatCounts, useChatLabels } from '../../chats/index.ts';
import { listApi } from '../api/listApi.ts';
import { matchingCount, NO_FILTER, toJobFilter, type ListFilter } from '../api/filters.ts';
import { useListChats } from '../hooks/useListChats.ts';
import { useBulkJob } from '../hooks/useBulkJob.ts';
import { JobPanel } from './JobPanel.tsx';
import { ListFilterBar } from './ListFilterBar.tsx';
import { ListBulkBar } from './ListBulkBar.tsx';
import { ListTable, type Selection } from './ListTable.tsx';
import './list.css';

const CONFIRM_VERB: Partial<Record<BulkAction, string>> = { close: 'Close', reopen: 'Reopen', archive: 'Archive', unarchive: 'Unarchive', mute: 'Mute', unmute: 'Unmute' };
const NONE: Selection = { all: false, ids: new Set() };

export function ListPage() {
  const { org, user } = useSession();
  const { subscribe } = useInbox();
  const toast = useToast();
  const orgId = org.org_id;
  const viewer = useMemo(() => ({ email: user.email, role: org.role }), [user.email, org.role]);
  const masked = mustMask(!!org.mask_phone_numbers, viewer);

  const [filter, setFilter] = useState<ListFilter>(NO_FILTER);
  // the folder counts and labels are the inbox's queries (one cache entry each, shared with /chats)
  const counts = useChatCounts(orgId);
  const labels = useChatLabels(orgId);
  const members = useMembers(orgId);
  const [selection, setSelection] = useState<Selection>(NONE);
  const [confirm, setConfirm] = useState<{ action: BulkAction; verb: string; title: string } | null>(null);
  const [exporting, setExporting] = useState(false);

  // ---- data ----------------------------------------------------------------------------
  const refreshCounts = useCallback(() => reloadChatCounts(orgId), [orgId]);

  const { rows, loadMore, patch, reload: reloadRows, dismissError } = useListChats(orgId, filter);
  useEffect(() => setSelection(NONE), [orgId, filter]);
  const reload = useCallback(() => {
    setSelection(NONE);
    reloadRows();
  }, [reloadRows]);

  // chat snapshots pushed over the socket replace the rows they match (batched: a bulk job sends hundreds)
  const pendingChats = useRef(new Map<string, Chat>());
  const flushTimer = useRef<ReturnType<typeof setTimeout> | null>(null);
  useEffect(
    () =>
      subscribe((e) => {
        if (e.kind !== 'chat') return;
        pendingChats.current.set(e.chat.chat_id, e.chat);
        flushTimer.current ??= setTimeout(() => {
          flushTimer.current = null;
          const updates = pendingChats.current;
          pendingChats.current = new Map();
          patch(updates);
        }, 250);
      }),
    [subscribe, patch],
  );
  useEffect(() => () => void (flushTimer.current && clearTimeout(flushTimer.current)), []);

  // a finished job changed the chats: reload the list and the counts
  const onFinished = useCallback(() => {
    reload();
    refreshCounts();
  }, [reload, refreshCounts]);
  const { job, running, starting, undoing, start: startJob, undo, dismiss } = useBulkJob(orgId, onFinished);

  // ---- selection -------------------------------------------------------------------------
  const selectable = useMemo(() => rows.chats.filter((c) => c.has_access !== false), [rows.chats]);
  const n = matchingCount(filter, counts);
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
    if (await startJob(action, params, selection.all ? { filter: toJobFilter(filter) } : { chat_ids: [...selection.ids] })) setSelection(NONE);
  };
  const ask = (action: BulkAction) => {
    const what = selection.all ? (n !== null ? `${n.toLocaleString('en-US')} chat${n === 1 ? '' : 's'}` : 'all matching chats') : `${selection.ids.size} chat${selection.ids.size === 1 ? '' : 's'}`;
    setConfirm({ action, verb: CONFIRM_VERB[action] ?? action, title: `${CONFIRM_VERB[action] ?? action} ${what}?` });
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
  const numberOf = useCallback(
    (c: Pick<Chat, 'chat_id' | 'chat_type' | 'identity'>): string => {
      if (isGroupChat(c)) return 'Group';
      // issue 41: a customer WhatsApp has not shared the number of
      return customerNumber(c, masked) ?? IDENTITY_TEXT.numberNotShared;
    },
    [masked],
  );
  const nameOf = useCallback(
    (c: Chat): string => (c.has_access === false ? 'A chat you cannot open' : chatDisplayName(c, masked)),
    [masked],
  );
  const byId = useMemo(() => new Map(rows.chats.map((c) => [c.chat_id, c])), [rows.chats]);
  const failureName = useCallback((chatId: string) => {
    const c = byId.get(chatId);
    return c ? nameOf(c) : chatDisplayName({ chat_id: chatId }, masked);
  }, [byId, nameOf, masked]);

  const set = (patch: Partial<ListFilter>) => setFilter((f) => ({ ...f, ...patch }));
  const busy = starting || running;

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

      <ListFilterBar filter={filter} set={set} counts={counts} labels={labels} />
      {someSelected && (
        <ListBulkBar
          selectedText={selection.all ? (n !== null ? `All ${n.toLocaleString('en-US')} selected` : 'All matching selected') : `${selectedCount} selected`}
          confirm={confirm}
          setConfirm={setConfirm}
          start={(a, p) => void start(a, p)}
          ask={ask}
          onClear={() => setSelection(NONE)}
          busy={busy}
          members={members}
          labels={labels}
          folder={filter.state}
        />
      )}

      {job && (
        <JobPanel
          job={job}
          viewer={viewer}
          nameOf={failureName}
          undoing={undoing}
          onUndo={undo}
          onDismiss={dismiss}
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

      <ListTable
        rows={rows}
        loadMore={loadMore}
        reload={reload}
        dismissError={dismissError}
        filter={filter}
        setFilter={setFilter}
        n={n}
        selection={selection}
        allLoadedSelected={allLoadedSelected}
        selectable={selectable}
        toggle={toggle}
        toggleAllLoaded={toggleAllLoaded}
        labels={labels}
        members={members}
        nameOf={nameOf}
        numberOf={numberOf}
      />
    </div>
  );
}
