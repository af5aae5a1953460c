import { db } from '../db/service.ts';
import { notFound } from '../errors.ts';
import { publish } from '../../events/publish.ts';
import { markRead } from './chat.rules.ts';
import { toChatWire } from '../inbox/wire.ts';
import type { Actor } from '../auth/actor.ts';
import type { Chat } from './chat.schemas.ts';
import type { PageQuery } from '../message/message.schemas.ts';

/** Chat use cases: list (newest first, cursor paged), get, mark read. Org scoping comes from the actor. */

/** Chats of the actor's org by latest_message_timestamp desc (index byRecent). */
export async function listChats(actor: Actor, page: PageQuery): Promise<{ chats: Chat[]; cursor: string | null }> {
  const res = await db()
    .entities.chat.query.byRecent({ org_id: actor.org_id })
    .go({ order: 'desc', limit: page.limit, cursor: page.cursor ?? null });
  return { chats: res.data.map((c) => toChatWire(c)), cursor: res.cursor ?? null };
}

/** @throws AppError 404 chat.not_found */
export async function getChat(actor: Actor, chatId: string): Promise<Chat> {
  const chat = (await db().entities.chat.get({ org_id: actor.org_id, chat_id: chatId }).go()).data;
  if (!chat) throw notFound('chat');
  return toChatWire(chat);
}

/**
 * Reset the chat's unread counters (all phones). Publishes `chat.read` when something changed.
 * @throws AppError 404 chat.not_found
 */
export async function markChatRead(actor: Actor, chatId: string): Promise<Chat> {
  for (let attempt = 0; attempt < 8; attempt++) {
    const chat = (await db().entities.chat.get({ org_id: actor.org_id, chat_id: chatId }).go()).data;
    if (!chat) throw notFound('chat');
    if (!chat.message_unread_count) return toChatWire(chat);
    const next = markRead(chat as unknown as Chat);
    const v = chat.version;
    try {
      await db()
        .entities.chat.patch({ org_id: actor.org_id, chat_id: chatId })
        .set({ unread_count: next.unread_count ?? {}, message_unread_count: 0, version: v + 1 })
        .where(({ version }, { eq }) => eq(version, v))
        .go();
    } catch (e) {
      if (String((e as Error).message).toLowerCase().includes('conditional')) continue;
      throw e;
    }
    const wire = toChatWire({ ...chat, unread_count: next.unread_count, message_unread_count: 0, version: v + 1 });
    await publish('chat.read', { org_id: actor.org_id, chat: wire, email: actor.email }, { actor: `user:${actor.email}` });
    return wire;
  }
  return getChat(actor, chatId);
}
