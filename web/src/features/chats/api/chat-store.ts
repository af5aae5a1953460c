/**
 * The chat snapshots known in this session, as one cache entry (chatKeys.store): every chat any
 * list page, socket push or our own write brought, newest first, and when each was last pushed
 * or changed live (`liveAt`, epoch ms). The chat list shows the chats its pages listed plus the
 * live ones pushed since its filter was set, while they match the filter (`listedChats`), which
 * is how a pushed chat enters or leaves a folder without a refetch.
 * Pure functions; the realtime bridge and the list hooks apply them with setQueryData.
 */
import type { Chat } from '#shared/chat/chat.schemas.ts';
import type { Message } from '#shared/message/message.schemas.ts';
import { chatMatchesFilter, patchLatestMessage, upsertChats, type ChatFilter } from './chats.ts';

export interface ChatStore {
  /** newest first (compareChats) */
  chats: Chat[];
  /** chat id -> when it was last pushed or changed by us (epoch ms) */
  liveAt: Readonly<Record<string, number>>;
}

export const EMPTY_STORE: ChatStore = { chats: [], liveAt: {} };

/** Chats a list page brought: merged (a fresh page wins over older snapshots), not marked live. */
export function rememberChats(store: ChatStore, incoming: Chat[]): ChatStore {
  const chats = upsertChats(store.chats, incoming);
  return chats === store.chats ? store : { ...store, chats };
}

/** Live snapshots (socket, our own writes) at time `at`: merged and marked live. */
export function mergeLiveChats(store: ChatStore, incoming: Chat[], at: number): ChatStore {
  if (incoming.length === 0) return store;
  const liveAt = { ...store.liveAt };
  for (const c of incoming) liveAt[c.chat_id] = at;
  return { chats: upsertChats(store.chats, incoming), liveAt };
}

/**
 * A message's new state in its chat's preview. `onlyLatest`: touch the preview only when the
 * message is already the chat's latest one (status and edit snapshots of older messages);
 * otherwise a newer message (just sent) also becomes the preview.
 */
export function patchPreview(store: ChatStore, chatId: string, m: Message, onlyLatest: boolean): ChatStore {
  if (onlyLatest && store.chats.find((c) => c.chat_id === chatId)?.latest_message?.unique_id !== m.unique_id) return store;
  const chats = patchLatestMessage(store.chats, chatId, m);
  return chats === store.chats ? store : { ...store, chats };
}

/**
 * The chat list of `filter` for viewer `me`: chats the pages listed (`pageIds`) or pushed live
 * since `since` (epoch ms, when the filter was set) that match the filter now; pinned first,
 * then newest first.
 */
export function listedChats(store: ChatStore, pageIds: ReadonlySet<string>, filter: ChatFilter, me: string, now: number, since: number): Chat[] {
  const inList = store.chats.filter((c) => (pageIds.has(c.chat_id) || (store.liveAt[c.chat_id] ?? -1) >= since) && chatMatchesFilter(c, filter, me, now));
  return [...inList.filter((c) => c.is_pinned), ...inList.filter((c) => !c.is_pinned)];
}
