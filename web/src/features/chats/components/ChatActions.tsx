/**
 * The open chat's workflow actions (issue 4), mounted in the thread header: Assign (member picker
 * searching name or email, Unassign), Labels (the org's labels as checkboxes), Snooze (presets and a
 * custom time), Close / Reopen, and in the "⋯" menu Close for me (only while the chat is not closed,
 * spec §4), Mute, Archive, Pin, Mark as unread, Reply from (when the chat has several org numbers),
 * Open in new tab (hidden from non-admins when numbers are masked, spec §6) and, for admins, Who can
 * see this chat. A narrow header (the details panel open, a small window) moves Labels and Snooze
 * into "⋯"; on phones every action sits there.
 *
 * Writes are optimistic: the chat changes at once (and may leave the list's folder) and is put back
 * with the API's message when the call fails; a failed label change says 'Error while updating
 * labels' (spec §8). When the API refuses a member the assignee change (member_permissions.
 * chat_assignee, spec §6) its message is shown and Assign is disabled for the rest of the session.
 * Shortcuts (focus outside text fields): A assign, L labels, S snooze, C close / reopen,
 * U mark as unread.
 */
import { useCallback, useEffect, useId, useLayoutEffect, useMemo, useRef, useState, type ReactNode } from 'react';
import { createPortal } from 'react-dom';
import { useLocation, useNavigate } from 'react-router-dom';
import type { Chat } from '#shared/chat/chat.schemas.ts';
import { totalUnread } from '#shared/chat/chat.schemas.ts';
import { canCloseForMe, inboxState, isClosed, isSnoozed } from '#shared/chat/chat-state.rules.ts';
import { mustMask } from '#shared/chat/chat-access.rules.ts';
import { matchesMember } from '#shared/task/task.rules.ts';
import { api, ApiError, errorMessage, type ChatBatchAction, type OrgMember } from '../../../lib/api.ts';
import { useMembers } from '../../../lib/members.ts';
import { Glyph, MemberAvatar, memberName } from './ChatBadges.tsx';
import { useInbox } from '../../../app/inbox.tsx';
import { useSession } from '../../../app/session.tsx';
import { useToast } from '../../../app/toast.tsx';
import { Dialog } from '../../../components/ui/Dialog.tsx';
import { Icon } from '../../../components/ui/Icon.tsx';
import { PHONE_QUERY, useMediaQuery } from '../../../lib/useMediaQuery.ts';
import { MessageMenu, type MenuItem } from '../../../components/ui/Menu.tsx';
import { SnoozeMenu, snoozeUntilText } from './SnoozeMenu.tsx';
import { formatPhone } from '../../../lib/format.ts';

/** spec §8 'Label update' */
export const LABELS_FAILED = 'Error while updating labels';
export const SHORTCUTS_HELP = 'Shortcuts: A assign, L labels, S snooze, C close or reopen, U mark as unread';

// ---- popover anchored to a header button --------------------------------------------------

function Popover({ anchor, label, onClose, children, testId }: { anchor: HTMLElement | null; label: string; onClose: (restoreFocus: boolean) => void; children: ReactNode; testId: string }) {
  const ref = useRef<HTMLDivElement>(null);
  const [pos, setPos] = useState<{ left: number; top: number } | null>(null);
  useLayoutEffect(() => {
    const el = ref.current;
    if (!el) return;
    const a = anchor?.getBoundingClientRect() ?? { right: window.innerWidth - 8, bottom: 64 };
    const w = el.offsetWidth;
    const h = el.offsetHeight;
    const left = Math.max(8, Math.min(a.right - w, window.innerWidth - w - 8));
    const top = Math.max(8, Math.min(a.bottom + 4, window.innerHeight - h - 8));
    setPos({ left, top });
  }, [anchor]);
  useEffect(() => {
    ref.current?.querySelector<HTMLElement>('input, button, select, [tabindex="0"]')?.focus();
  }, []);
  useEffect(() => {
    const onDown = (e: PointerEvent) => {
      if (ref.current && !ref.current.contains(e.target as Node) && !anchor?.contains(e.target as Node)) onClose(false);
    };
    document.addEventListener('pointerdown', onDown, true);
    return () => document.removeEventListener('pointerdown', onDown, true);
  }, [anchor, onClose]);
  return createPortal(
    <div
      ref={ref}
      className="chat-popover"
      role="dialog"
      aria-label={label}
      data-testid={testId}
      style={pos ? { left: pos.left, top: pos.top } : { visibility: 'hidden', left: 0, top: 0 }}
      onKeyDown={(e) => {
        if (e.key === 'Escape') {
          e.preventDefault();
          e.stopPropagation();
          onClose(true);
        }
      }}
    >
      {children}
    </div>,
    document.body,
  );
}

// ---- the pickers --------------------------------------------------------------------------

function AssignPicker({ value, members, me, onPick }: { value: string | null; members: OrgMember[]; me: string; onPick: (email: string | null) => void }) {
  const [q, setQ] = useState('');
  const [active, setActive] = useState(0);
  const listId = useId();
  const options = useMemo(() => {
    const out: Array<{ key: string; email: string | null; name: string; sub: string | null; online?: boolean }> = [];
    if (value && matchesMember({ email: '', member_name: 'Unassign' }, q)) out.push({ key: '__none__', email: null, name: 'Unassign', sub: null });
    for (const m of members) {
      if (!matchesMember(m, q)) continue;
      const name = m.member_name?.trim() || m.email;
      out.push({ key: m.email, email: m.email, name: m.email.toLowerCase() === me.toLowerCase() ? `${name} (me)` : name, sub: name === m.email ? null : m.email, online: m.is_online !== false });
    }
    return out;
  }, [members, q, me, value]);
  useEffect(() => setActive(0), [q]);
  return (
    <div className="assign-picker">
      <input
        type="search"
        className="pop-search"
        placeholder="Search name or email"
        aria-label="Search members by name or email"
        aria-controls={listId}
        aria-activedescendant={options[active] ? `${listId}-${active}` : undefined}
        value={q}
        onChange={(e) => setQ(e.target.value)}
        data-testid="assign-search"
        onKeyDown={(e) => {
          if (e.key === 'ArrowDown') setActive((i) => Math.min(options.length - 1, i + 1));
          else if (e.key === 'ArrowUp') setActive((i) => Math.max(0, i - 1));
          else if (e.key === 'Enter' && options[active]) onPick(options[active].email);
          else return;
          e.preventDefault();
        }}
      />
      <ul className="pop-list" role="listbox" id={listId} aria-label="Members">
        {options.length === 0 && <li className="muted small pop-empty">{members.length ? 'No member matches' : 'Loading members…'}</li>}
        {options.map((o, i) => (
          <li
            key={o.key}
            id={`${listId}-${i}`}
            role="option"
            aria-selected={o.email === value}
            className={`pop-item ${i === active ? 'active' : ''} ${o.email === value ? 'current' : ''}`}
            data-testid="assign-option"
            data-email={o.email ?? ''}
            onPointerEnter={() => setActive(i)}
            onClick={() => onPick(o.email)}
          >
            {o.email ? <MemberAvatar email={o.email} name={o.name} size={24} /> : <span className="pop-none" aria-hidden="true">–</span>}
            <span className="pop-item-main">
              <span>
                {o.name}
                {o.email && (
                  // spec §4 User status (GET /members is_online)
                  <span className={`status-dot assign-status ${o.online ? 'online' : ''}`} data-testid="assign-status" data-online={o.online} title={o.online ? 'Online' : 'Offline'}>
                    <span className="visually-hidden">{o.online ? ', online' : ', offline'}</span>
                  </span>
                )}
              </span>
              {o.sub && <span className="muted small">{o.sub}</span>}
            </span>
            {o.email === value && <span className="pop-check" aria-hidden="true">✓</span>}
          </li>
        ))}
      </ul>
    </div>
  );
}

function LabelPicker({ selected, onToggle, isAdmin }: { selected: string[]; onToggle: (labelId: string, on: boolean) => void; isAdmin: boolean }) {
  const { labels } = useInbox();
  const navigate = useNavigate();
  return (
    <div className="label-pick">
      {labels.length === 0 && <p className="muted small pop-empty">No labels yet.{isAdmin ? ' Create them in Settings › Labels.' : ' An admin can create them.'}</p>}
      <ul className="pop-list" role="list">
        {labels.map((l) => {
          const on = selected.includes(l.label_id);
          return (
            <li key={l.label_id}>
              <label className="pop-item check-item" data-testid="label-option" data-label-id={l.label_id}>
                <input type="checkbox" checked={on} onChange={(e) => onToggle(l.label_id, e.target.checked)} />
                <span className="label-dot" style={{ background: l.color }} aria-hidden="true" />
                <span className="pop-item-main">{l.name}</span>
              </label>
            </li>
          );
        })}
      </ul>
      {isAdmin && (
        <button type="button" className="link-btn small pop-footer" onClick={() => navigate('/settings/labels')}>
          Manage labels
        </button>
      )}
    </div>
  );
}

function PhonePicker({ phones, value, onPick }: { phones: string[]; value: string; onPick: (phone: string) => void }) {
  return (
    <ul className="pop-list" role="listbox" aria-label="Reply from">
      {phones.map((p) => (
        <li key={p} role="option" aria-selected={p === value} className={`pop-item ${p === value ? 'current' : ''}`} data-testid="phone-option" onClick={() => onPick(p)} tabIndex={0} onKeyDown={(e) => e.key === 'Enter' && onPick(p)}>
          <span className="pop-item-main">{formatPhone(p)}</span>
          {p === value && <span className="pop-check" aria-hidden="true">✓</span>}
        </li>
      ))}
    </ul>
  );
}

/** Admins: everyone may see the chat, or only the members ticked (admins always can, spec §6 as built). */
function AccessDialog({ chat, members, onClose, onSave }: { chat: Chat; members: OrgMember[]; onClose: () => void; onSave: (access: Record<string, boolean>) => Promise<string | null> }) {
  const current = chat.chat_access ?? {};
  const restricted0 = Object.keys(current).length > 0;
  const [restricted, setRestricted] = useState(restricted0);
  const [ticked, setTicked] = useState<Set<string>>(() => new Set(Object.entries(current).flatMap(([e, v]) => (v ? [e.toLowerCase()] : []))));
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const save = async () => {
    setBusy(true);
    setError(null);
    const access: Record<string, boolean> = {};
    if (restricted) for (const m of members) if (m.role !== 'admin') access[m.email.toLowerCase()] = ticked.has(m.email.toLowerCase());
    if (restricted && !Object.values(access).some(Boolean) && Object.keys(access).length === 0) {
      setBusy(false);
      return setError('There are no members besides admins to choose.');
    }
    const err = await onSave(access);
    setBusy(false);
    if (err) setError(err);
    else onClose();
  };
  return (
    <Dialog title="Who can see this chat" onClose={onClose} testId="chat-access-dialog">
      <div className="dialog-body form-grid">
        <fieldset className="ticket-choices">
          <legend>Access</legend>
          <label className={`ticket-choice ${!restricted ? 'on' : ''}`}>
            <input type="radio" name="access" checked={!restricted} onChange={() => setRestricted(false)} data-testid="access-everyone" />
            <span className="ticket-choice-main">
              <span className="ticket-choice-subject">Everyone in the workspace</span>
            </span>
          </label>
          <label className={`ticket-choice ${restricted ? 'on' : ''}`}>
            <input type="radio" name="access" checked={restricted} onChange={() => setRestricted(true)} data-testid="access-some" />
            <span className="ticket-choice-main">
              <span className="ticket-choice-subject">Only the members ticked below</span>
              <span className="ticket-choice-meta">Admins can always see every chat. Others see it dimmed: ‘You do not have access to this chat’.</span>
            </span>
          </label>
        </fieldset>
        {restricted && (
          <ul className="access-members" aria-label="Members">
            {members.map((m) => {
              const email = m.email.toLowerCase();
              const admin = m.role === 'admin';
              return (
                <li key={email}>
                  <label className="check-item">
                    <input
                      type="checkbox"
                      checked={admin || ticked.has(email)}
                      disabled={admin}
                      data-testid="access-member"
                      data-email={email}
                      onChange={(e) =>
                        setTicked((prev) => {
                          const next = new Set(prev);
                          if (e.target.checked) next.add(email);
                          else next.delete(email);
                          return next;
                        })
                      }
                    />
                    <MemberAvatar email={email} name={m.member_name?.trim() || email} size={24} />
                    <span>
                      {m.member_name?.trim() || email} {admin && <span className="muted small">(admin)</span>}
                    </span>
                  </label>
                </li>
              );
            })}
          </ul>
        )}
        {error && (
          <p className="form-error" role="alert">
            {error}
          </p>
        )}
        <div className="dialog-actions">
          <button type="button" className="btn" onClick={onClose}>
            Cancel
          </button>
          <button type="button" className="btn btn-primary" disabled={busy} onClick={() => void save()} data-testid="access-save">
            {busy ? 'Saving…' : 'Save'}
          </button>
        </div>
      </div>
    </Dialog>
  );
}

// ---- the header actions ---------------------------------------------------------------------

type Pop = 'assign' | 'labels' | 'snooze' | 'phone' | null;
/**
 * Thread header widths (px) below which: the assignee's name is left out of its button; Labels and
 * Snooze move into "⋯"; every action is in "⋯" (as on phones).
 */
const NAMES_BELOW = 720;
const NARROW_BELOW = 560;
const COMPACT_BELOW = 420;

const isTyping = (t: EventTarget | null): boolean =>
  t instanceof HTMLElement && (t.isContentEditable || ['INPUT', 'TEXTAREA', 'SELECT'].includes(t.tagName));

/** A chat with some fields changed and its folder recomputed (for optimistic updates). */
const changed = (c: Chat, patch: Partial<Chat>, now = Date.now()): Chat => {
  const next = { ...c, ...patch };
  return { ...next, inbox_state: inboxState(next, now) };
};

export function ChatActions({ chatId }: { chatId: string }) {
  const inbox = useInbox();
  const { org, user } = useSession();
  const toast = useToast();
  const navigate = useNavigate();
  const location = useLocation();
  const phoneScreen = useMediaQuery(PHONE_QUERY);
  const members = useMembers(org.org_id);
  const chat = inbox.chats.find((c) => c.chat_id === chatId) ?? null;
  const chatRef = useRef(chat);
  chatRef.current = chat;
  const shown = !!chat && chat.has_access !== false;
  // the header's width decides how much fits: all buttons, buttons without the assignee's name, or just "⋯"
  const rootRef = useRef<HTMLDivElement>(null);
  const [headerWidth, setHeaderWidth] = useState(1000);
  useLayoutEffect(() => {
    const header = rootRef.current?.parentElement;
    if (!header || typeof ResizeObserver === 'undefined') return;
    const ro = new ResizeObserver(() => setHeaderWidth(header.clientWidth));
    ro.observe(header);
    setHeaderWidth(header.clientWidth);
    return () => ro.disconnect();
  }, [shown]);
  const phone = phoneScreen || headerWidth < COMPACT_BELOW;
  /** the buttons shown in the header (the rest are in "⋯") */
  const inHeader = { assign: !phone, close: !phone, labels: !phone && headerWidth >= NARROW_BELOW, snooze: !phone && headerWidth >= NARROW_BELOW };
  const [pop, setPop] = useState<Pop>(null);
  const [menuAt, setMenuAt] = useState<{ x: number; y: number } | null>(null);
  const [accessOpen, setAccessOpen] = useState(false);
  const [assignRefused, setAssignRefused] = useState<string | null>(null);
  const refs = {
    assign: useRef<HTMLButtonElement>(null),
    labels: useRef<HTMLButtonElement>(null),
    snooze: useRef<HTMLButtonElement>(null),
    more: useRef<HTMLButtonElement>(null),
  };
  const isAdmin = org.role === 'admin';
  const masked = mustMask(!!org.mask_phone_numbers, { email: user.email, role: org.role });
  const { upsertChat } = inbox;

  /** Apply `patch` at once, make the call, and put the chat back with the error when it fails. */
  const write = useCallback(
    async (action: ChatBatchAction, input: Record<string, unknown>, patch: Partial<Chat> | null, failText?: string): Promise<boolean> => {
      const before = chatRef.current;
      if (!before) return false;
      if (patch) upsertChat(changed(before, patch));
      try {
        const r = await api.chatBatch(org.org_id, action, { chat_ids: [chatId], ...input });
        if (r.failed.length) throw new Error(r.failed[0].reason);
        for (const c of r.chats) upsertChat(c);
        return true;
      } catch (e) {
        if (patch) upsertChat(before);
        if (action === 'assign' && e instanceof ApiError && e.status === 403) setAssignRefused(e.message);
        toast.show(failText ?? errorMessage(e), 'error');
        return false;
      }
    },
    [org.org_id, chatId, upsertChat, toast],
  );

  // a chat a teammate marked unread is read again when it is opened here
  const readOnce = useRef(false);
  useEffect(() => {
    if (readOnce.current || !chat?.marked_unread || totalUnread(chat) > 0 || chat.has_access === false) return;
    readOnce.current = true;
    api
      .markRead(org.org_id, chatId)
      .then(upsertChat)
      .catch((e) => console.warn('mark read failed', errorMessage(e)));
  }, [chat, org.org_id, chatId, upsertChat]);

  const now = Date.now();
  const closed = chat ? isClosed(chat) : false;
  const snoozedUntil = chat && isSnoozed(chat, now) ? (chat.snooze_metadata?.snooze_until ?? null) : null;
  const closedForMe = chat?.closed_for_me_at != null;
  const phones = chat?.chat_org_phones?.length ? chat.chat_org_phones : [];

  const toggleClose = useCallback(() => {
    const c = chatRef.current;
    if (!c) return;
    const close = !isClosed(c);
    void write('close', { is_closed: close, type: 'all' }, close ? { closed_at: Math.max(Date.now(), c.latest_message_timestamp + 1), closed_by: user.email } : { closed_at: null, closed_by: null });
  }, [write, user.email]);

  const markUnread = useCallback(async () => {
    const c = chatRef.current;
    if (!c) return;
    upsertChat({ ...c, marked_unread: true });
    try {
      upsertChat(await api.markChatUnread(org.org_id, chatId));
      // leave the chat so opening it does not read it straight away
      navigate({ pathname: '/chats', search: location.search });
    } catch (e) {
      upsertChat(c);
      toast.show(errorMessage(e), 'error');
    }
  }, [org.org_id, chatId, upsertChat, navigate, location.search, toast]);

  const open = useCallback(
    (which: Exclude<Pop, null>) => {
      if (which === 'assign' && assignRefused) {
        toast.show(assignRefused, 'error');
        return;
      }
      setMenuAt(null);
      setPop((p) => (p === which ? null : which));
    },
    [assignRefused, toast],
  );

  // keyboard shortcuts while the thread is open (not while typing, not inside a dialog)
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if (e.defaultPrevented || e.altKey || e.ctrlKey || e.metaKey || e.repeat) return;
      if (isTyping(e.target) || document.querySelector('dialog[open]')) return;
      // menus, pickers and the chat list keep their own keys
      if (e.target instanceof Element && e.target.closest('[role="menu"], [role="dialog"], [role="listbox"]')) return;
      if (!chatRef.current || chatRef.current.has_access === false) return;
      const key = e.key.toLowerCase();
      if (key === 'a') open('assign');
      else if (key === 'l') open('labels');
      else if (key === 's') open('snooze');
      else if (key === 'c') toggleClose();
      else if (key === 'u') void markUnread();
      else return;
      e.preventDefault();
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [open, toggleClose, markUnread]);

  const closePop = useCallback(
    (restore: boolean) => {
      const which = pop;
      setPop(null);
      if (restore && which) requestAnimationFrame(() => (which === 'phone' || !inHeader[which] ? refs.more : refs[which]).current?.focus());
    },
    // refs are stable; inHeader follows these
    [pop, inHeader.assign, inHeader.labels],
  );

  if (!chat || chat.has_access === false) return null;

  const assignee = chat.assigned_to ?? null;
  const assigneeName = assignee ? memberName(assignee, members) : null;
  const labelIds = chat.label_ids ?? [];

  const pickAssignee = (email: string | null) => {
    setPop(null);
    if ((email ?? null) === (assignee ?? null)) return;
    void write('assign', { assigned_to: email }, { assigned_to: email });
  };
  const toggleLabel = (labelId: string, on: boolean) => {
    const next = on ? [...labelIds, labelId] : labelIds.filter((l) => l !== labelId);
    void write('labels', on ? { add: [labelId] } : { remove: [labelId] }, { label_ids: next }, LABELS_FAILED);
  };
  const pickSnooze = (until: number | null) => {
    setPop(null);
    void write('snooze', { snooze_until: until }, { snooze_metadata: until === null ? null : { snooze_until: until, snoozed_by: user.email, snoozed_at: Date.now() } });
  };
  const pickPhone = async (p: string) => {
    setPop(null);
    if (p === chat.org_phone) return;
    const before = chat;
    upsertChat({ ...chat, org_phone: p });
    try {
      upsertChat(await api.setActivePhone(org.org_id, chatId, p));
    } catch (e) {
      upsertChat(before);
      toast.show(errorMessage(e), 'error');
    }
  };
  const saveAccess = async (access: Record<string, boolean>): Promise<string | null> => {
    try {
      upsertChat(await api.setChatAccess(org.org_id, chatId, access));
      toast.show(Object.keys(access).length ? 'Only the chosen members can see this chat now' : 'Everyone can see this chat now', 'success');
      return null;
    } catch (e) {
      return errorMessage(e);
    }
  };

  const items: MenuItem[] = [];
  if (!inHeader.assign) items.push({ id: 'assign', label: assigneeName ? `Assigned to ${assigneeName}…` : 'Assign…', testId: 'chat-action-assign', onSelect: () => open('assign') });
  if (!inHeader.labels) items.push({ id: 'labels', label: 'Labels…', testId: 'chat-action-labels', onSelect: () => open('labels') });
  if (!inHeader.snooze) items.push({ id: 'snooze', label: snoozedUntil ? `Snoozed ${snoozeUntilText(snoozedUntil)}…` : 'Snooze…', testId: 'chat-action-snooze', onSelect: () => open('snooze') });
  if (!inHeader.close) items.push({ id: 'close', label: closed ? 'Reopen' : 'Close', testId: 'chat-action-close', onSelect: toggleClose });
  if (canCloseForMe(chat)) {
    items.push(
      closedForMe
        ? { id: 'close-me', label: 'Reopen for me', testId: 'chat-action-close-me', onSelect: () => void write('close', { is_closed: false, type: 'me' }, { closed_for_me_at: null }) }
        : { id: 'close-me', label: 'Close for me', testId: 'chat-action-close-me', onSelect: () => void write('close', { is_closed: true, type: 'me' }, { closed_for_me_at: Date.now() }) },
    );
  }
  items.push(
    { id: 'mute', label: chat.is_muted ? 'Unmute' : 'Mute', testId: 'chat-action-mute', onSelect: () => void write('mute', { is_muted: !chat.is_muted }, { is_muted: !chat.is_muted }) },
    { id: 'archive', label: chat.is_archived ? 'Unarchive' : 'Archive', testId: 'chat-action-archive', onSelect: () => void write('archive', { is_archived: !chat.is_archived }, { is_archived: !chat.is_archived }) },
    { id: 'pin', label: chat.is_pinned ? 'Unpin' : 'Pin', testId: 'chat-action-pin', onSelect: () => void write('pin', { is_pinned: !chat.is_pinned }, { is_pinned: !chat.is_pinned }) },
    { id: 'unread', label: 'Mark as unread', testId: 'chat-action-unread', onSelect: () => void markUnread() },
  );
  if (phones.length > 1) items.push({ id: 'phone', label: `Reply from ${formatPhone(chat.org_phone)}…`, testId: 'chat-action-phone', onSelect: () => open('phone') });
  if (!masked) items.push({ id: 'new-tab', label: 'Open in new tab', testId: 'chat-action-new-tab', onSelect: () => window.open(`/chats/${encodeURIComponent(chatId)}`, '_blank', 'noopener') });
  if (isAdmin) items.push({ id: 'access', label: 'Who can see this chat…', testId: 'chat-action-access', onSelect: () => setAccessOpen(true) });

  const anchorFor = (p: Exclude<Pop, null>): HTMLElement | null => (p === 'phone' || !inHeader[p] ? refs.more.current : refs[p].current);

  return (
    <div ref={rootRef} className={`chat-actions ${headerWidth < NAMES_BELOW ? 'no-text' : ''}`} data-testid="chat-actions" data-compact={phone ? 'true' : undefined}>
      {inHeader.assign && (
        <button
          ref={refs.assign}
          type="button"
          className={`chat-action-btn ${assignee ? 'set' : ''}`}
          aria-haspopup="dialog"
          aria-expanded={pop === 'assign'}
          aria-label={assigneeName ? `Assigned to ${assigneeName}. Change assignee (A)` : 'Assign (A)'}
          title={assignRefused ?? (assigneeName ? `Assigned to ${assigneeName} (A)` : 'Assign (A)')}
          aria-disabled={assignRefused ? true : undefined}
          data-testid="chat-assign"
          data-assignee={assignee ?? ''}
          onClick={() => open('assign')}
        >
          {assignee ? <MemberAvatar email={assignee} name={assigneeName ?? assignee} size={22} /> : <Glyph name="user" />}
          <span className="chat-action-text">{assigneeName ?? 'Assign'}</span>
        </button>
      )}
      {inHeader.labels && (
        <button
          ref={refs.labels}
          type="button"
          className={`icon-btn ${labelIds.length ? 'on' : ''}`}
          aria-haspopup="dialog"
          aria-expanded={pop === 'labels'}
          aria-label={`Labels${labelIds.length ? `, ${labelIds.length} set` : ''} (L)`}
          title="Labels (L)"
          data-testid="chat-labels"
          onClick={() => open('labels')}
        >
          <Glyph name="tag" />
        </button>
      )}
      {inHeader.snooze && (
        <button
          ref={refs.snooze}
          type="button"
          className={`icon-btn ${snoozedUntil ? 'on' : ''}`}
          aria-haspopup="dialog"
          aria-expanded={pop === 'snooze'}
          aria-label={snoozedUntil ? `Snoozed ${snoozeUntilText(snoozedUntil)}. Change (S)` : 'Snooze (S)'}
          title={snoozedUntil ? `Snoozed ${snoozeUntilText(snoozedUntil)} (S)` : 'Snooze (S)'}
          data-testid="chat-snooze"
          onClick={() => open('snooze')}
        >
          <Glyph name="clock" />
        </button>
      )}
      {inHeader.close && (
        <button
          type="button"
          className={`icon-btn ${closed ? 'on' : ''}`}
          aria-label={closed ? 'Reopen chat (C)' : 'Close chat for everyone (C)'}
          title={closed ? 'Reopen (C)' : 'Close (C)'}
          data-testid="chat-close"
          data-closed={closed ? 'true' : 'false'}
          onClick={toggleClose}
        >
          <Glyph name={closed ? 'reopen' : 'check'} />
        </button>
      )}
      <button
        ref={refs.more}
        type="button"
        className="icon-btn"
        aria-haspopup="menu"
        aria-expanded={menuAt !== null}
        aria-label="More chat actions"
        title={`More actions. ${SHORTCUTS_HELP}`}
        data-testid="chat-more"
        onClick={(e) => {
          setPop(null);
          const r = e.currentTarget.getBoundingClientRect();
          setMenuAt((m) => (m ? null : { x: r.right - 220, y: r.bottom + 4 }));
        }}
      >
        <Icon name="more" />
      </button>
      {menuAt && (
        <MessageMenu
          at={menuAt}
          items={items}
          label="Chat actions"
          testId="chat-menu"
          onClose={(restore) => {
            setMenuAt(null);
            if (restore) refs.more.current?.focus();
          }}
        />
      )}
      {pop === 'assign' && (
        <Popover anchor={anchorFor('assign')} label="Assign chat" onClose={closePop} testId="assign-popover">
          <AssignPicker value={assignee} members={members} me={user.email} onPick={pickAssignee} />
        </Popover>
      )}
      {pop === 'labels' && (
        <Popover anchor={anchorFor('labels')} label="Chat labels" onClose={closePop} testId="labels-popover">
          <LabelPicker selected={labelIds} onToggle={toggleLabel} isAdmin={isAdmin} />
        </Popover>
      )}
      {pop === 'snooze' && (
        <Popover anchor={anchorFor('snooze')} label="Snooze chat" onClose={closePop} testId="snooze-popover">
          <SnoozeMenu snoozedUntil={snoozedUntil} onPick={pickSnooze} />
        </Popover>
      )}
      {pop === 'phone' && (
        <Popover anchor={anchorFor('phone')} label="Reply from" onClose={closePop} testId="phone-popover">
          <PhonePicker phones={phones} value={chat.org_phone} onPick={(p) => void pickPhone(p)} />
        </Popover>
      )}
      {accessOpen && <AccessDialog chat={chat} members={members} onClose={() => setAccessOpen(false)} onSave={saveAccess} />}
    </div>
  );
}
