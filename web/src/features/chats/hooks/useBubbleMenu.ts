/**
 * What a bubble's "⋯" menu offers (spec §5): the actions shared/message/message-actions.rules.ts
 * allows for the message and the member (`allowedActions`), narrowed by what the thread can do
 * (`onAction`, `onSaveEdit`, `onTicketAction`) and by the message (only text and captions edit, a
 * note has its own delete, forwarding needs a stored file and never stickers); plus Create task
 * and Open ticket.
 */
import { useNavigate } from 'react-router-dom';
import type { Ticket } from '#shared/ticket/ticket.schemas.ts';
import type { Chat } from '#shared/chat/chat.schemas.ts';
import type { Message } from '#shared/message/message.schemas.ts';
import { previewText } from '../../../lib/format.ts';
import { actionContext, allowedActions, type ActorInfo } from '../api/messageActions.ts';
import { isLocal } from '../api/messages.ts';
import type { MenuItem } from '../../../components/ui/Menu.tsx';
import { useTaskActions } from '../../tasks/index.ts';

/** 'faq' (issue 18): Add to FAQs, prefilled from this message and its reply */
export type TicketAction = 'create' | 'attach' | 'faq';
/** What the thread does for a bubble (`react` carries the emoji, '' removes ours). */
export type BubbleAction = 'react' | 'forward' | 'copy_id' | 'pin' | 'unpin' | 'flag' | 'unflag' | 'remove_flag' | 'refresh' | 'download' | 'delete_note' | 'edit' | 'delete' | 'reply_privately' | 'retry';

/** The menu items of `m` and whether Reply and React are offered. `openPicker` opens the reaction picker. */
export function useBubbleMenu({
  m,
  chat,
  actor,
  chatTickets,
  onReply,
  onAction,
  onSaveEdit,
  onTicketAction,
  openPicker,
}: {
  m: Message;
  chat: Chat | null;
  actor?: ActorInfo;
  chatTickets: Ticket[] | null;
  onReply: (m: Message) => void;
  onAction?: (action: BubbleAction, m: Message, emoji?: string) => void;
  onSaveEdit?: unknown;
  onTicketAction?: (kind: TicketAction, m: Message) => void;
  openPicker: () => void;
}): { items: MenuItem[]; canReply: boolean; canReact: boolean; hasMenu: boolean } {
  const navigate = useNavigate();
  const { openNew } = useTaskActions();
  const local = isLocal(m);
  const ticketId = m.message_ticket_id ?? null;
  const now = Date.now();

  // the rules decide (spec §5); chatTickets null while loading: Attach is not offered yet
  const allowed = allowedActions(
    actor
      ? actionContext(m, chat, actor, chatTickets, now)
      : actionContext(m, chat, { email: '', role: 'member', phones: [] }, chatTickets, now),
  );
  if (!actor) for (const a of ['react', 'forward', 'copy_id', 'pin', 'unpin', 'flag', 'unflag', 'remove_flag', 'refresh', 'download', 'edit', 'delete'] as const) allowed.delete(a);
  if (!onAction) for (const a of ['react', 'forward', 'copy_id', 'pin', 'unpin', 'flag', 'unflag', 'remove_flag', 'refresh', 'download', 'edit', 'delete'] as const) allowed.delete(a);
  // edit text and captions only (spec §5 edit rules; the API refuses the rest too); notes have their own delete
  if (!onSaveEdit || !(m.message_type === 'text' || ((m.message_type === 'image' || m.message_type === 'video' || m.message_type === 'document') && m.body))) allowed.delete('edit');
  if (m.is_private_note) allowed.delete('delete');
  // forwarding re-sends text, or a media message's stored file (not before the file is stored, never stickers)
  if (m.message_type === 'sticker' || (m.message_type !== 'text' && !(m.media?.path && (m.media.status ?? 'stored') === 'stored'))) allowed.delete('forward');
  const canReply = allowed.has('reply');
  const canReact = allowed.has('react') && !local;

  const act = (a: BubbleAction) => () => onAction?.(a, m);

  const items: MenuItem[] = [];
  if (canReply) items.push({ id: 'reply', label: 'Reply', testId: 'menu-reply', onSelect: () => onReply(m) });
  if (!local) {
    if (canReact) items.push({ id: 'react', label: 'React', testId: 'menu-react', onSelect: openPicker });
    if (allowed.has('edit')) items.push({ id: 'edit', label: 'Edit', testId: 'menu-edit', onSelect: act('edit') });
    if (allowed.has('delete')) items.push({ id: 'delete', label: 'Delete', testId: 'menu-delete', onSelect: act('delete') });
    if (allowed.has('forward')) items.push({ id: 'forward', label: 'Forward', testId: 'menu-forward', onSelect: act('forward') });
    // spec §5: group members' messages only (the rules); opens the 1:1 chat with the member
    if (actor && onAction && allowed.has('reply_privately')) items.push({ id: 'reply_privately', label: 'Reply Privately', testId: 'menu-reply-privately', onSelect: act('reply_privately') });
    if (allowed.has('copy_id')) items.push({ id: 'copy_id', label: 'Copy Id', testId: 'menu-copy-id', onSelect: act('copy_id') });
    if (allowed.has('pin')) items.push({ id: 'pin', label: 'Pin', testId: 'menu-pin', onSelect: act('pin') });
    if (allowed.has('unpin')) items.push({ id: 'unpin', label: 'Unpin', testId: 'menu-unpin', onSelect: act('unpin') });
    if (allowed.has('flag')) items.push({ id: 'flag', label: 'Flag (needs reply)', testId: 'menu-flag', onSelect: act('flag') });
    if (allowed.has('unflag')) items.push({ id: 'unflag', label: 'Unflag (mark answered)', testId: 'menu-unflag', onSelect: act('unflag') });
    if (allowed.has('remove_flag')) items.push({ id: 'remove_flag', label: 'Remove flag', testId: 'menu-remove-flag', onSelect: act('remove_flag') });
    if (allowed.has('refresh')) items.push({ id: 'refresh', label: 'Refresh', testId: 'menu-refresh', onSelect: act('refresh') });
    if (allowed.has('download')) items.push({ id: 'download', label: 'Download', testId: 'menu-download', onSelect: act('download') });
    // private notes: their author only (rule delete_note)
    if (actor && onAction && allowed.has('delete_note')) items.push({ id: 'delete_note', label: 'Delete note', testId: 'menu-delete-note', onSelect: act('delete_note') });
  }
  if (!local && onTicketAction) {
    if (allowed.has('create_ticket')) items.push({ id: 'create', label: 'Create ticket', testId: 'message-menu-create-ticket', onSelect: () => onTicketAction('create', m) });
    if (chatTickets && allowed.has('attach_to_ticket'))
      items.push({ id: 'attach', label: 'Attach to ticket', testId: 'message-menu-attach-ticket', onSelect: () => onTicketAction('attach', m) });
    // issue 18 (spec §5): Add to FAQs for text, image and document messages; admins edit the knowledge base
    if (actor?.role === 'admin' && !m.is_private_note && !m.is_deleted && ['text', 'image', 'document'].includes(m.message_type))
      items.push({ id: 'faq', label: 'Add to FAQs', testId: 'message-menu-add-faq', onSelect: () => onTicketAction('faq', m) });
  }
  if (!local && !m.is_deleted)
    items.push({
      id: 'create-task',
      label: 'Create task',
      testId: 'message-menu-create-task',
      onSelect: () =>
        openNew({
          // the whole first line: the editor counts it and refuses an overlong title (issue 49 §7), never cuts
          title: (previewText(m) || '').split('\n')[0].trim(),
          associated: {
            id: m.unique_id,
            type: 'message',
            object: {
              chat_id: m.chat_id,
              org_id: m.org_id,
              org_phone: m.org_phone ?? null,
              message_id: m.message_id ?? null,
              sender_phone: m.sender_phone ?? null,
              is_private_note: m.is_private_note ?? false,
            },
          },
        }),
    });
  if (ticketId) items.push({ id: 'open', label: 'Open ticket', testId: 'message-menu-open-ticket', onSelect: () => navigate(`/tickets?ticket=${encodeURIComponent(ticketId)}`) });
  return { items, canReply, canReact, hasMenu: !local && items.length > 0 };
}
