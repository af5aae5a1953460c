/**
 * The chat header's "⋯" menu: what does not fit in the header (Assign, Labels, Snooze, Close),
 * then Close for me (only while the chat is not closed, spec §4), Mute, Archive, Pin, Mark as
 * unread, Reply from (several org numbers), Open in new tab (hidden from non-admins when numbers
 * are masked, spec §6) and, for admins, Who can see this chat.
 */
import type { Chat } from '#shared/chat/chat.schemas.ts';
import { canCloseForMe } from '#shared/chat/chat-state.rules.ts';
import type { MenuItem } from '../../../components/ui/Menu.tsx';
import { formatPhone } from '../../../lib/format.ts';
import type { useChatWrites } from '../hooks/useChatWrites.ts';
import { snoozeUntilText } from './SnoozeMenu.tsx';

export type ChatPop = 'assign' | 'labels' | 'snooze' | 'phone';

/** The items for `chat`; `open` opens a header popover, `openAccess` the access dialog. */
export function chatMenuItems(
  chat: Chat,
  o: {
    inHeader: Record<'assign' | 'labels' | 'snooze' | 'close', boolean>;
    assigneeName: string | null;
    snoozedUntil: number | null;
    closed: boolean;
    masked: boolean;
    isAdmin: boolean;
    writes: ReturnType<typeof useChatWrites>;
    open: (p: ChatPop) => void;
    openAccess: () => void;
  },
): MenuItem[] {
  const { write, toggleClose, markUnread } = o.writes;
  const items: MenuItem[] = [];
  if (!o.inHeader.assign) items.push({ id: 'assign', label: o.assigneeName ? `Assigned to ${o.assigneeName}…` : 'Assign…', testId: 'chat-action-assign', onSelect: () => o.open('assign') });
  if (!o.inHeader.labels) items.push({ id: 'labels', label: 'Labels…', testId: 'chat-action-labels', onSelect: () => o.open('labels') });
  if (!o.inHeader.snooze) items.push({ id: 'snooze', label: o.snoozedUntil ? `Snoozed ${snoozeUntilText(o.snoozedUntil)}…` : 'Snooze…', testId: 'chat-action-snooze', onSelect: () => o.open('snooze') });
  if (!o.inHeader.close) items.push({ id: 'close', label: o.closed ? 'Reopen' : 'Close', testId: 'chat-action-close', onSelect: toggleClose });
  if (canCloseForMe(chat)) {
    items.push(
      chat.closed_for_me_at != null
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
  if ((chat.chat_org_phones?.length ?? 0) > 1) items.push({ id: 'phone', label: `Reply from ${formatPhone(chat.org_phone)}…`, testId: 'chat-action-phone', onSelect: () => o.open('phone') });
  if (!o.masked) items.push({ id: 'new-tab', label: 'Open in new tab', testId: 'chat-action-new-tab', onSelect: () => window.open(`/chats/${encodeURIComponent(chat.chat_id)}`, '_blank', 'noopener') });
  if (o.isAdmin) items.push({ id: 'access', label: 'Who can see this chat…', testId: 'chat-action-access', onSelect: o.openAccess });
  return items;
}
