import { decodeTime } from 'ulid';
import { db } from '../db/service.ts';
import { notFound } from '../errors.ts';
import { toMessageWire } from '../inbox/wire.ts';
import type { Actor } from '../auth/actor.ts';
import { chatGuard } from '../access/guard.ts';
import { withCursor } from '../db/paging.ts';
import type { Message, PageQuery } from './message.schemas.ts';
import { orgScope, scopedReadCache } from '../db/read-cache.ts';

type MessagePage = { data: Array<Record<string, unknown>>; cursor: string | null };
/**
 * Message pages by chat (their partition, `pk`): kept only while this process is the table's only
 * writer (the local runtime; shared/db/read-cache.ts), forgotten by any write of a message of that chat.
 * Bounded to the last 200 chats read, 4 pages each (a thread is mostly read from its first page).
 */
const messagePages = scopedReadCache<MessagePage>({ scopeOf: (key) => (key.sk.startsWith('$message_1#') ? key.pk : null), maxScopes: 200, maxKeysPerScope: 4 });

/**
 * The partition key of a chat's messages as ElectroDB writes it (MessageEntity byChat:
 * `$chorus#org_id_<org>#chat_id_<chat>`, lower-cased), the scope of messagePages; null for an org
 * the read cache does not keep (shared/db/read-cache.ts orgScope).
 */
export function messageScope(orgId: string, chatId: string): string | null {
  const org = orgScope(orgId);
  return org && `${org}#chat_id_${chatId.toLowerCase()}`;
}

/**
 * Messages of a chat, newest first (index byChat, Query desc), cursor paged; access and masking
 * through the guard (shared/access/guard.ts).
 * @throws AppError 404 chat.not_found when the chat is not in the actor's org; 403 chat.no_access;
 *   400 query.cursor for a cursor that is not this list's
 */
export async function listMessages(actor: Actor, chatId: string, page: PageQuery): Promise<{ messages: Message[]; cursor: string | null }> {
  const guard = await chatGuard(actor);
  await guard.requireChat(chatId);
  const read = (): Promise<MessagePage> =>
    withCursor(page.cursor, () => db().entities.message.query.byChat({ org_id: actor.org_id, chat_id: chatId }).go({ order: 'desc', limit: page.limit, cursor: page.cursor ?? null })) as Promise<MessagePage>;
  // pages of up to 100 (the thread asks for 50); bigger ones are read through
  const scope = page.limit <= 100 ? messageScope(actor.org_id, chatId) : null;
  const res = scope ? await messagePages.get(scope, `${page.cursor ?? ''}\n${page.limit}`, read) : await read();
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
