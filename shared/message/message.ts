import { db } from '../db/service.ts';
import { notFound } from '../errors.ts';
import { toMessageWire } from '../inbox/wire.ts';
import type { Actor } from '../auth/actor.ts';
import type { Message, PageQuery } from './message.schemas.ts';

/**
 * Messages of a chat, newest first (index byChat, Query desc), cursor paged.
 * @throws AppError 404 chat.not_found when the chat is not in the actor's org
 */
export async function listMessages(actor: Actor, chatId: string, page: PageQuery): Promise<{ messages: Message[]; cursor: string | null }> {
  if (!page.cursor) {
    const chat = (await db().entities.chat.get({ org_id: actor.org_id, chat_id: chatId }).go()).data;
    if (!chat) throw notFound('chat');
  }
  const res = await db()
    .entities.message.query.byChat({ org_id: actor.org_id, chat_id: chatId })
    .go({ order: 'desc', limit: page.limit, cursor: page.cursor ?? null });
  return { messages: res.data.map((m) => toMessageWire(m)), cursor: res.cursor ?? null };
}
