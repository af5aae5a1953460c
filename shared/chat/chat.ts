import { db } from '../db/service.ts';
import { notFound } from '../errors.ts';
import { markRead } from './chat.rules.ts';
import { toChatWire } from '../inbox/wire.ts';
import { updateChatRow, type ChatRow } from './chat-write.ts';
import { viewContext } from './chat-list.ts';
import { viewChat } from './chat-view.ts';
import { assertChatAccess } from './chat-workflow.ts';
import type { Actor } from '../auth/actor.ts';
import type { Chat } from './chat.schemas.ts';

/** Chat reads: get one chat, mark it read. Lists live in chat-list.ts, workflow writes in chat-workflow.ts. */

export { listChats } from './chat-list.ts';

/**
 * The chat row, if the actor may see it (spec §6).
 * @throws AppError 404 chat.not_found; 403 chat.no_access ('You do not have access to this chat')
 */
export async function getChatRow(actor: Actor, chatId: string): Promise<ChatRow> {
  const chat = (await db().entities.chat.get({ org_id: actor.org_id, chat_id: chatId }).go()).data as ChatRow | null;
  if (!chat) throw notFound('chat');
  assertChatAccess(actor, chat);
  return chat;
}

/** @throws AppError 404 chat.not_found; 403 chat.no_access */
export async function getChat(actor: Actor, chatId: string): Promise<Chat> {
  const [chat, ctx] = await Promise.all([getChatRow(actor, chatId), viewContext(actor)]);
  return viewChat(chat, ctx);
}

/**
 * Reset the chat's unread counters (all phones) and a 'marked unread'. Publishes `chat.read` when
 * something changed.
 * @throws AppError 404 chat.not_found; 403 chat.no_access
 */
export async function markChatRead(actor: Actor, chatId: string): Promise<Chat> {
  await getChatRow(actor, chatId);
  const res = await updateChatRow(
    actor.org_id,
    chatId,
    (chat) => {
      if (!chat.message_unread_count && !chat.marked_unread) return null;
      const next = markRead(chat as unknown as Chat);
      return { ...chat, unread_count: next.unread_count ?? {}, message_unread_count: 0, marked_unread: false };
    },
    undefined,
    (_b, after) => [{ name: 'chat.read', properties: { org_id: actor.org_id, chat: toChatWire(after), email: actor.email }, actor: `user:${actor.email}` }],
  );
  if (!res) throw notFound('chat');
  return viewChat(res.after, await viewContext(actor));
}
