import { RETRY, retryOnConflict } from '../db/retry.ts';
import { db } from '../db/service.ts';
import { AppError } from '../errors.ts';
import { commitWithEvents } from '../db/transaction.ts';
import { toChatWire } from '../inbox/wire.ts';
import { chatWriteTx, type ChatRow } from '../chat/chat-write.ts';
import { getMessageItem } from './message.ts';
import { canReplyPrivately } from './message-actions.rules.ts';
import { refusedOn } from './message-actions.ts';
import { capabilitiesOf } from '../whatsapp/capabilities.ts';
import type { Actor } from '../auth/actor.ts';
import { chatGuard, type ChatGuard } from '../access/guard.ts';
import type { Chat } from '../chat/chat.schemas.ts';
import type { Message } from './message.schemas.ts';

/**
 * Reply Privately (spec §5: from a group member's message to a 1:1 chat with that member; not for
 * user chats, private notes, or our own numbers). The 1:1 chat with the sender's number is found,
 * or created on the number (org phone) the group is on, and the quote to carry is returned: the
 * web app opens that chat with the group message quoted in the composer and sends with
 * `quoted_message_id` + `quoted_chat_id`.
 *
 * The quote is ours only. Meta's `context.message_id` quotes "the previous message" of the
 * conversation (Cloud API 'Contextual replies'); a wamid of a group conversation in a 1:1 send is
 * not documented to work, so the 1:1 message goes to WhatsApp as plain text and the stored
 * `quoted_message` (with `chat_id` / `chat_name` of the group) shows the team where it came from
 * (shared/inbox/send.ts sends `context` only for a quote of the same chat). A new 1:1 chat has no
 * customer message, so WhatsApp's 24-hour window is closed until the member writes: the send is
 * then refused with that reason, as for any chat (templates are a later issue).
 *
 * Access (spec §6, through the guard): the group must be visible to the actor, and so must an
 * existing 1:1 chat with the sender (403 otherwise: its content is not theirs to open); the answer
 * (chat and quote) passes the guard's view, so numbers are masked as everywhere else. The quote's
 * group named in a later send (`quoted_chat_id`) is checked by the HTTP middleware like any chat id.
 */

/** The stored quote of a reply-privately message (Message.quoted_message plus its group). */
export type PrivateQuote = NonNullable<Message['quoted_message']> & { chat_id: string; chat_name: string | null };

/** The quote of `group`'s message `m` as the 1:1 send stores it. */
export function privateQuote(m: { message_id?: string | null; unique_id: string; body?: string | null; author?: string | null }, group: { chat_id: string; chat_name?: string | null }): PrivateQuote {
  return { message_id: m.message_id ?? '', unique_id: m.unique_id, body: m.body ?? null, author: m.author ?? null, from_me: false, chat_id: group.chat_id, chat_name: group.chat_name ?? null };
}

/**
 * POST …/messages/{unique_id}/reply-privately: the 1:1 chat with the message's sender (found, or
 * created on the group's number) and the quote to send with.
 * @returns { chat, created, quote }
 * @throws AppError 400 message.reply_privately_refused (spec §5 reasons), 404 chat/message, 403 chat.no_access (the group, or the existing 1:1 chat)
 */
export async function replyPrivately(actor: Actor, chatId: string, uniqueId: string): Promise<{ chat: Chat; created: boolean; quote: PrivateQuote }> {
  const guard = await chatGuard(actor);
  const [message, group, phones] = await Promise.all([
    getMessageItem(actor.org_id, chatId, uniqueId),
    guard.requireChat(chatId),
    db().entities.phone.query.byOrg({ org_id: actor.org_id }).go({ pages: 'all' }).then((r) => r.data),
  ]);
  const phone = phones.find((p) => p.phone_id === message.phone_id);
  const rule = canReplyPrivately({
    message: { ...message, flag_status: message.flag_status ?? null, pinned_until: message.pinned_until ?? null, media: null },
    chat: { chat_type: group.chat_type },
    actor: { email: actor.email, role: actor.role },
    maskPhoneNumbers: false,
    capabilities: capabilitiesOf(phone?.connection_type),
    ownPhones: phones.map((p) => p.org_phone),
    chatTickets: [],
    now: Date.now(),
  });
  if (!rule.allowed) throw refusedOn('message.reply_privately_refused', rule.reason ?? 'Reply privately is not possible for this message.');
  const digits = (message.sender_phone ?? '').replace(/\D/g, '');
  if (!digits) throw refusedOn('message.reply_privately_refused', 'The sender of this message has no number.');
  const target = `${digits}@c.us`;
  const name = (group.members as Record<string, { contact_name?: string }> | undefined)?.[digits]?.contact_name ?? message.author ?? undefined;
  const quote = privateQuote(message, group);

  return retryOnConflict(`chat ${target}`, async () => {
    const existing = (await db().entities.chat.get({ org_id: actor.org_id, chat_id: target }).go()).data;
    if (existing) {
      if (!guard.canSee(existing as { chat_access?: Record<string, boolean> })) await guard.assertChat(target);
      return viewed(guard, toChatWire(existing), false, quote);
    }
    const now = Date.now();
    const row = {
      org_id: actor.org_id,
      chat_id: target,
      chat_type: 'user',
      ...(name && name !== digits ? { chat_name: name } : {}),
      org_phone: group.org_phone,
      phone_id: group.phone_id,
      chat_org_phones: [group.org_phone],
      latest_message_timestamp: now,
      latest_message_timestamp_map: {},
      unread_count: {},
      message_unread_count: 0,
      last_customer_message_at: {},
      members: { [digits]: { contact_name: name, contact_id: digits } },
      version: 0,
    } as unknown as ChatRow;
    let stored: ChatRow = row;
    // the new chat and its chat.updated in one transaction (the outbox)
    const ok = await commitWithEvents((e) => {
      const w = chatWriteTx(e, null, row, now);
      stored = w.row;
      return { items: w.items, events: [{ name: 'chat.updated', properties: { org_id: actor.org_id, chat: toChatWire(w.row), changes: ['created'] }, actor: `user:${actor.email}` }] };
    });
    if (!ok) return RETRY; // created meanwhile (another member, a webhook): read it
    const chat = toChatWire(stored);
    return viewed(guard, chat, true, quote);
  }, { attempts: 5, onExhausted: () => {
    throw new AppError('chat.busy', 'This chat is changing right now. Please try again.', { status: 409 });
  } });
}

/** The answer of replyPrivately as the actor may see it (the guard's view of the chat; the quote's author masked like a message's). */
const viewed = (guard: ChatGuard, chat: Chat, created: boolean, quote: PrivateQuote) => ({ chat: guard.viewChat(chat as unknown as Record<string, unknown>), created, quote: { ...quote, author: guard.mask(quote.author ?? null) } });

/**
 * The quote of a send that names another chat (`quoted_chat_id`): the quoted message must be a
 * group message of that chat whose sender is this chat's customer (reply privately).
 * @throws AppError 400 validation.failed (quoted_message_id / quoted_chat_id) otherwise
 */
export async function quoteFromGroup(orgId: string, chatId: string, quotedChatId: string, wamid: string): Promise<PrivateQuote> {
  const invalid = (field: string, reason: string) => new AppError('validation.failed', `${field}: ${reason}`, { details: [{ field, reason }] });
  const [ref, group] = await Promise.all([
    db().entities.waMessageRef.get({ org_id: orgId, message_id: wamid }).go().then((r) => r.data),
    db().entities.chat.get({ org_id: orgId, chat_id: quotedChatId }).go().then((r) => r.data),
  ]);
  if (!group || group.chat_type !== 'group') throw invalid('quoted_chat_id', 'is not a group chat of this organization');
  if (!ref || ref.chat_id !== quotedChatId || !ref.unique_id) throw invalid('quoted_message_id', 'is not a message of that group');
  const m = await getMessageItem(orgId, quotedChatId, ref.unique_id);
  if (m.from_me || `${(m.sender_phone ?? '').replace(/\D/g, '')}@c.us` !== chatId) throw invalid('quoted_message_id', 'was not written by this chat’s customer');
  return privateQuote(m, group);
}
