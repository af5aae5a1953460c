import { decodeTime } from 'ulid';
import { db } from '../db/service.ts';
import { notFound } from '../errors.ts';
import { toMessageWire } from '../inbox/wire.ts';
import type { Actor } from '../auth/actor.ts';
import { chatGuard } from '../access/guard.ts';
import { withCursor } from '../db/paging.ts';
import type { Message, PageQuery } from './message.schemas.ts';

/**
 * Messages of a chat, newest first (index byChat, Query desc), cursor paged; access and masking
 * through the guard (shared/access/guard.ts).
 * @throws AppError 404 chat.not_found when the chat is not in the actor's org; 403 chat.no_access;
 *   400 query.cursor for a cursor that is not this list's
 */
export async function listMessages(actor: Actor, chatId: string, page: PageQuery): Promise<{ messages: Message[]; cursor: string | null }> {
  const guard = await chatGuard(actor);
  await guard.requireChat(chatId);
  const res = await withCursor(page.cursor, () => db().entities.message.query.byChat({ org_id: actor.org_id, chat_id: chatId }).go({ order: 'desc', limit: page.limit, cursor: page.cursor ?? null }));
  return { messages: res.data.map((m) => guard.viewMessage(toMessageWire(m))), cursor: res.cursor ?? null };
}

/**
 * Key of a message from its `unique_id`: every unique_id is a ULID whose time part is the
 * message's `timestamp` (epoch ms; see ingest.ts and send.ts), so (org, chat, unique_id) finds the
 * item with one GetItem, no index. Spec §7 message calls identify messages by unique_id.
 * @returns undefined when `uniqueId` is not a ULID
 */
export function messageKey(orgId: string, chatId: string, uniqueId: string): { org_id: string; chat_id: string; timestamp: number; unique_id: string } | undefined {
  try {
    return { org_id: orgId, chat_id: chatId, timestamp: decodeTime(uniqueId), unique_id: uniqueId };
  } catch {
    return undefined;
  }
}

/**
 * One message of the actor's org by chat and unique_id (raw item, for use cases that update it).
 * @throws AppError 404 message.not_found
 */
export async function getMessageItem(orgId: string, chatId: string, uniqueId: string) {
  const key = messageKey(orgId, chatId, uniqueId);
  const item = key ? (await db().entities.message.get(key).go()).data : null;
  if (!item) throw notFound('message');
  return item;
}
