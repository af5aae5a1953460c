/**
 * The open chat's workflow actions (issue 4), mounted in the thread header: Assign (the kit's
 * member picker searching name or email, Unassign), Labels (the org's labels as checkboxes), Snooze
 * (presets and a custom time), Close / Reopen, and the "⋯" menu (chatMenuItems.ts). A narrow
 * header (the details panel open, a small window, the AI controls showing) moves Labels and Snooze
 * into "⋯", then Assign and Close; on phones every action sits there (useHeaderFit, measured by
 * ThreadHeader, which may add its own items to "⋯"). Writes are optimistic (useChatWrites).
 * Shortcuts (focus outside text fields): A assign, L labels, S snooze, C close / reopen,
 * U mark as unread.
 */
import { useCallback, useEffect, useRef, useState, type ReactNode } from 'react';
import { isClosed, isSnoozed } from '#shared/chat/chat-state.rules.ts';
import { mustMask } from '#shared/chat/chat-access.rules.ts';
import { useMembers } from '../../../lib/members.ts';
import { useSession } from '../../../app/session.tsx';
import { useToast } from '../../../app/toast.tsx';
import { AnchoredPopover } from '../../../components/ui/Popover.tsx';
import { MemberPicker } from '../../../components/ui/MemberPicker.tsx';
import { MessageMenu, type MenuItem } from '../../../components/ui/Menu.tsx';
import { MemberAvatar, memberName } from './ChatBadges.tsx';
import { SnoozeMenu } from './SnoozeMenu.tsx';
import { LabelPicker, PhonePicker } from './ChatPickers.tsx';
import { ChatAccessDialog } from './ChatAccessDialog.tsx';
import { ChatHeaderButtons } from './ChatHeaderButtons.tsx';
import { chatMenuItems, type ChatPop } from './chatMenuItems.ts';
import { useChatWrites } from '../hooks/useChatWrites.ts';
import { actionsInHeader, type ActionsFit } from '../hooks/useHeaderFit.ts';

export { LABELS_FAILED } from '../hooks/useChatWrites.ts';
export const SHORTCUTS_HELP = 'Shortcuts: A assign, L labels, S snooze, C close or reopen, U mark as unread';

const isTyping = (t: EventTarget | null): boolean =>
  t instanceof HTMLElement && (t.isContentEditable || ['INPUT', 'TEXTAREA', 'SELECT'].includes(t.tagName));

const memberAvatar = (email: string, name: string) => <MemberAvatar email={email} name={name} size={24} />;

/**
 * The header actions of chat `chatId` (nothing while the chat is unknown or not accessible).
 * `fit`: how many fit in the header (useHeaderFit); `moreItems`: the header's own items that moved into "⋯".
 */
export function ChatActions({ chatId, fit, moreItems = [] }: { chatId: string; fit: ActionsFit; moreItems?: MenuItem[] }) {
  const { org, user } = useSession();
  const toast = useToast();
  const members = useMembers(org.org_id);
  const writes = useChatWrites(chatId);
  const { chat, chatRef, toggleClose, markUnread, assignRefused } = writes;
  const { compact, noText, inHeader } = actionsInHeader(fit);
  const [pop, setPop] = useState<ChatPop | null>(null);
  const [menuAt, setMenuAt] = useState<{ x: number; y: number } | null>(null);
  const [accessOpen, setAccessOpen] = useState(false);
  const refs = {
    assign: useRef<HTMLButtonElement>(null),
    labels: useRef<HTMLButtonElement>(null),
    snooze: useRef<HTMLButtonElement>(null),
    more: useRef<HTMLButtonElement>(null),
  };
  const isAdmin = org.role === 'admin';

  const open = useCallback(
    (which: ChatPop) => {
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
      if (isTyping(e.target) || document.querySelector('.dialog-overlay, dialog[open]')) return;
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
  }, [open, toggleClose, markUnread, chatRef]);

  /** the button a popover hangs from (and focus returns to): its header button, else "⋯" */
  const anchorRef = (p: ChatPop) => (p === 'phone' || !inHeader[p] ? refs.more : refs[p]);
  const closePop = (restore: boolean) => {
    const which = pop;
    setPop(null);
    if (restore && which) requestAnimationFrame(() => anchorRef(which).current?.focus());
  };

  if (!chat || chat.has_access === false) return null;

  const now = Date.now();
  const closed = isClosed(chat);
  const snoozedUntil = isSnoozed(chat, now) ? (chat.snooze_metadata?.snooze_until ?? null) : null;
  const assignee = chat.assigned_to ?? null;
  const assigneeName = assignee ? memberName(assignee, members) : null;
  const labelIds = chat.label_ids ?? [];
  const phones = chat.chat_org_phones?.length ? chat.chat_org_phones : [];
  const masked = mustMask(!!org.mask_phone_numbers, { email: user.email, role: org.role });
  const items = [...moreItems, ...chatMenuItems(chat, { inHeader, assigneeName, snoozedUntil, closed, masked, isAdmin, writes, open, openAccess: () => setAccessOpen(true) })];
  const popover = (p: ChatPop, label: string, body: ReactNode) =>
    pop === p && (
      <AnchoredPopover anchor={anchorRef(p).current} label={label} onClose={closePop} testId={`${p}-popover`} className="chat-popover">
        {body}
      </AnchoredPopover>
    );

  return (
    <div className={`chat-actions ${noText ? 'no-text' : ''}`} data-fit="actions" data-testid="chat-actions" data-compact={compact ? 'true' : undefined}>
      <ChatHeaderButtons
        refs={refs}
        inHeader={inHeader}
        pop={pop}
        menuOpen={menuAt !== null}
        open={open}
        assignee={assignee}
        assigneeName={assigneeName}
        assignRefused={assignRefused}
        labelCount={labelIds.length}
        snoozedUntil={snoozedUntil}
        closed={closed}
        onToggleClose={toggleClose}
        onMore={(r) => {
          setPop(null);
          setMenuAt((m) => (m ? null : { x: r.right - 220, y: r.bottom + 4 }));
        }}
        moreTitle={`More actions. ${SHORTCUTS_HELP}`}
      />
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
      {popover(
        'assign',
        'Assign chat',
        <MemberPicker
          members={members}
          value={assignee}
          me={user.email}
          noneLabel={assignee ? 'Unassign' : null}
          testIdPrefix="assign"
          avatar={memberAvatar}
          showStatus
          onPick={(email) => {
            setPop(null);
            writes.assign(email);
          }}
        />,
      )}
      {popover('labels', 'Chat labels', <LabelPicker selected={labelIds} onToggle={writes.toggleLabel} isAdmin={isAdmin} />)}
      {popover(
        'snooze',
        'Snooze chat',
        <SnoozeMenu
          snoozedUntil={snoozedUntil}
          onPick={(until) => {
            setPop(null);
            writes.snooze(until);
          }}
        />,
      )}
      {popover(
        'phone',
        'Reply from',
        <PhonePicker
          phones={phones}
          value={chat.org_phone}
          onPick={(p) => {
            setPop(null);
            void writes.replyFrom(p);
          }}
        />,
      )}
      {accessOpen && <ChatAccessDialog chat={chat} members={members} onClose={() => setAccessOpen(false)} onSave={writes.saveAccess} />}
    </div>
  );
}
