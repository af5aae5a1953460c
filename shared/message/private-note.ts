import { ulid } from 'ulid';
import { RETRY, retryOnConflict } from '../db/retry.ts';
import { db } from '../db/service.ts';
import { commitJoined, commitWithEvents, type TxItem, type TxJoin } from '../db/transaction.ts';
import { AppError, notFound } from '../errors.ts';
import { toMessageWire } from '../inbox/wire.ts';
import { listMembers } from '../member/member.ts';
import { notifyMember } from '../notification/notification.ts';
import { canSeeChat } from '../chat/chat-access.rules.ts';
import { capabilitiesOf } from '../whatsapp/capabilities.ts';
import { canDeletePrivateNote } from './message-actions.rules.ts';
import { messageKey } from './message.ts';
import { mentionLabel, mentionTitle, noteExcerpt, type NoteMention } from './private-note.rules.ts';
import { log } from '../log.ts';
import type { Actor } from '../auth/actor.ts';
import { chatGuard } from '../access/guard.ts';
import type { Message } from './message.schemas.ts';
import type { CreateNoteInput } from './private-note.schemas.ts';

/**
 * Private notes (issue 4; spec §3 Message.is_private_note, §7 'delete private note'): a message
 * row of the chat with `is_private_note: true`, `from_me: true`, `author` = the member's email,
 * `message_type: 'text'` and ack 0 that is never queued for WhatsApp (there is no outbound
 * command, unlike shared/inbox/send.ts) and never touches the chat row (latest_message, unread
 * counts and closed state stay as they were, so the chat does not move in the list).
 * Events: `note.created` / `note.deleted` (`{ org_id, chat_id, message }`) for the threads of the
 * members who have the chat open. Timestamps are epoch **ms**.
 */

type ChatRow = { org_id: string; chat_id: string; org_phone: string; phone_id: string; chat_access?: Record<string, boolean> | null };

/**
 * The chat, if the actor may see it (admins always may).
 * @throws AppError 404 chat.not_found; 403 chat.no_access ('You do not have access to this chat')
 */
async function visibleChat(actor: Actor, chatId: string, known?: Record<string, unknown> | null): Promise<ChatRow> {
  const guard = await chatGuard(actor);
  return (await (known ? guard.requireChatFrom(chatId, known) : guard.requireChat(chatId))) as unknown as ChatRow;
}

/** How a caller other than the API writes a note (the rules engine's private-note action). */
export interface NoteWriteOptions {
  /**
   * The chat row the caller already holds (a bus event's snapshot): used instead of a read when
   * the actor sees every chat (ChatGuard.requireChatFrom); the note's transaction then checks
   * that the chat still exists.
   */
  chat?: Record<string, unknown> | null;
  /** Items committed in the note's own transaction (shared/db/transaction.ts TxJoin), e.g. an action receipt. */
  join?: TxJoin;
}

/** Same shape as assertActiveMember's refusal (shared/member/member.ts), on the `mentions` field. */
const mentionError = (email: string, reason: string) => new AppError('validation', `${email} ${reason}.`, { details: [{ field: 'mentions', reason }] });

/**
 * Check the mentioned emails against the org's members and the chat's access.
 * @returns the mentions with their labels, and the author's label (name, else email)
 * @throws AppError 400 validation `{ field: 'mentions', reason: 'is not a member of this workspace' | 'cannot see this chat' }`
 */
async function resolveMentions(actor: Actor, chat: ChatRow, emails: readonly string[]): Promise<{ mentions: NoteMention[]; authorLabel: string }> {
  const members = await listMembers(actor);
  const byEmail = new Map(members.map((m) => [m.email.toLowerCase(), m]));
  const mentions: NoteMention[] = [];
  for (const email of new Set(emails.map((e) => e.toLowerCase()))) {
    const m = byEmail.get(email);
    if (!m) throw mentionError(email, 'is not a member of this workspace');
    // a mention would show the note's text to someone who may not open the chat
    if (!canSeeChat(chat, { email: m.email, role: m.role })) throw mentionError(email, 'cannot see this chat');
    mentions.push({ email: m.email, name: mentionLabel(m) });
  }
  const me = byEmail.get(actor.email.toLowerCase());
  return { mentions, authorLabel: me ? mentionLabel(me) : actor.email };
}

/**
 * Write a private note in a chat and notify the members it mentions (not the author): each gets
 * an in-app notification (kind 'mention', title '<author> mentioned you', body = the note's text
 * cut to 120 characters, with chat_id and unique_id). A failed notification is logged, not
 * thrown: the note is stored and answered either way.
 * `opts` (NoteWriteOptions): a chat row already held, and items joined to the note's transaction.
 * @throws AppError 404 chat.not_found; 403 chat.no_access; 400 validation (mentions);
 *   JoinedItemRejected (shared/db/transaction.ts) when a joined item's condition failed: no note
 */
export async function createPrivateNote(actor: Actor, chatId: string, input: CreateNoteInput, opts: NoteWriteOptions = {}): Promise<Message> {
  const chat = await visibleChat(actor, chatId, opts.chat);
  // a held row was not read now: the transaction checks that the chat is still there
  const checkChat = !!opts.chat;
  const { mentions, authorLabel } = input.mentions?.length ? await resolveMentions(actor, chat, input.mentions) : { mentions: [], authorLabel: actor.email };
  const now = Date.now();
  const item = {
    org_id: actor.org_id,
    chat_id: chatId,
    unique_id: ulid(now),
    timestamp: now,
    org_phone: chat.org_phone,
    phone_id: chat.phone_id,
    author: actor.email,
    body: input.body,
    from_me: true,
    ack: 0,
    is_private_note: true,
    is_deleted: false,
    message_type: 'text' as const,
    ...(mentions.length ? { mentions } : {}),
    ...(input.client_id ? { client_id: input.client_id } : {}),
    created_at: now,
    version: 0,
  };
  const note = toMessageWire(item);
  // the note and its event in one transaction (the outbox)
  const ok = await commitJoined(opts.join, (e) => ({
    items: [
      ...(checkChat ? [e.chat.check({ org_id: actor.org_id, chat_id: chatId }).where((a, op) => op.exists(a.chat_id)).commit() as TxItem] : []),
      e.message.create(item).commit() as TxItem,
    ],
    events: [{ name: 'note.created', properties: { org_id: actor.org_id, chat_id: chatId, message: { ...note, is_private_note: true, author: actor.email } }, actor: `user:${actor.email}`, id: `note.created:${actor.org_id}:${note.unique_id}` }],
  }));
  // cancelled: the held chat is gone (its check failed; a new note's ULID does not collide), else a bug
  if (!ok) throw checkChat ? notFound('chat') : new Error(`note ${item.unique_id} was not created (transaction cancelled)`);
  const notified = mentions.filter((m) => m.email.toLowerCase() !== actor.email.toLowerCase());
  const results = await Promise.allSettled(
    notified.map((m) =>
      notifyMember(actor.org_id, m.email, { kind: 'mention', title: mentionTitle(authorLabel), body: noteExcerpt(input.body), chat_id: chatId, unique_id: note.unique_id, actor: actor.email }),
    ),
  );
  results.forEach((r, i) => {
    if (r.status === 'rejected') log('error', 'note.notify_failed', { org_id: actor.org_id, chat_id: chatId, unique_id: note.unique_id, email: notified[i]!.email, error: String((r.reason as Error)?.message ?? r.reason) });
  });
  return note;
}

/**
 * Delete a private note (soft): its author only. The row stays in the thread as a tombstone
 * ('This note was deleted': `is_deleted: true`, text and mentions removed); deleting it again
 * answers the tombstone. Publishes `note.deleted`.
 * @throws AppError 404 chat.not_found / note.not_found (also for messages that are not notes);
 *   403 chat.no_access; 403 note.not_author ('Only the author can delete this note')
 */
export async function deletePrivateNote(actor: Actor, chatId: string, uniqueId: string): Promise<Message> {
  await visibleChat(actor, chatId);
  const key = messageKey(actor.org_id, chatId, uniqueId);
  return retryOnConflict(`note ${uniqueId}`, async () => {
    const item = key ? (await db().entities.message.get(key).go()).data : null;
    if (!item || !item.is_private_note) throw notFound('note');
    if (item.is_deleted) return { ...toMessageWire(item), body: null, mentions: null };
    const rule = canDeletePrivateNote({
      message: { ...item, flag_status: item.flag_status ?? null, media: null },
      chat: { chat_type: chatId.endsWith('@g.us') ? 'group' : 'user' },
      actor: { email: actor.email, role: actor.role },
      maskPhoneNumbers: false,
      capabilities: capabilitiesOf(undefined),
      ownPhones: [],
      chatTickets: [],
      now: Date.now(),
    });
    if (!rule.allowed) throw new AppError('note.not_author', rule.reason ?? 'Only the author can delete this note', { status: 403 });
    const { body: _b, mentions: _m, ...rest } = item;
    // explicit nulls: clients merge snapshots, so a missing body would keep the old text
    const note: Message = { ...toMessageWire({ ...rest, is_deleted: true, version: item.version + 1 }), body: null, mentions: null };
    // the tombstone and its event in one transaction; a lost race (a flag, a pin changed the note meanwhile) cancels it: read it again
    const ok = await commitWithEvents((e) => ({
      items: [
        e.message
          .patch(key!)
          .set({ is_deleted: true, version: item.version + 1 })
          .remove(['body', 'mentions'])
          .where(({ version }, { eq }) => eq(version, item.version))
          .commit() as TxItem,
      ],
      events: [{ name: 'note.deleted', properties: { org_id: actor.org_id, chat_id: chatId, message: { ...note, is_private_note: true, author: item.author ?? actor.email } }, actor: `user:${actor.email}`, id: `note.deleted:${actor.org_id}:${uniqueId}` }],
    }));
    if (!ok) return RETRY;
    return note;
  }, { attempts: 5, onExhausted: () => {
    throw new AppError('note.busy', 'This note is changing right now. Please try again.', { status: 409 });
  } });
}
