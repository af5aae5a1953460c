/**
 * The open thread's messages as a TanStack infinite query (chatKeys.messages): pages of
 * GET /chats/{chat_id}/messages, newest page first, each `{ items, cursor }` with the API's cursor
 * to the next older page. Live messages (socket, optimistic bubbles, our own writes) are merged
 * into the page that holds them, new ones into the newest page; the thread shows all pages merged
 * oldest first (`threadMessages`). Pure functions, applied with setQueryData by the realtime
 * bridge and the thread's hooks.
 */
import type { InfiniteData } from '@tanstack/react-query';
import type { Message } from '#shared/message/message.schemas.ts';
import { LOCAL_PREFIX, removeMessage, settleOptimistic, upsertMessages } from './messages.ts';

export interface ThreadPage {
  /** oldest first */
  items: Message[];
  /** the next older page, null at the start of the conversation */
  cursor: string | null;
}
export type ThreadData = InfiniteData<ThreadPage, string | null>;

const holds = (p: ThreadPage, id: string) => p.items.some((m) => m.unique_id === id);

/** Every loaded message, oldest first, without duplicates. */
export function threadMessages(data: { pages: ThreadPage[] } | undefined): Message[] {
  if (!data) return [];
  // older pages first, so a newer page's copy of the same message is merged over the older one
  return upsertMessages([], [...data.pages].reverse().flatMap((p) => p.items));
}

/** The loaded copy of a message, if any. */
export function findInThread(data: ThreadData | undefined, uniqueId: string): Message | undefined {
  for (const p of data?.pages ?? []) {
    const m = p.items.find((x) => x.unique_id === uniqueId);
    if (m) return m;
  }
  return undefined;
}

/** Upsert messages: each into the page that holds it (or its optimistic bubble), else the newest page. */
export function upsertThread(data: ThreadData | undefined, incoming: Message[]): ThreadData | undefined {
  if (!data || data.pages.length === 0 || incoming.length === 0) return data;
  const pages = data.pages.slice();
  for (const m of incoming) {
    const local = m.client_id ? LOCAL_PREFIX + m.client_id : null;
    let i = pages.findIndex((p) => holds(p, m.unique_id) || (local !== null && holds(p, local)));
    if (i < 0) i = 0;
    const items = upsertMessages(pages[i]!.items, [m]);
    if (items !== pages[i]!.items) pages[i] = { ...pages[i]!, items };
  }
  return { ...data, pages };
}

/** Replace a message already shown by a function of it (no-op when it is not loaded). */
export function mapThreadMessage(data: ThreadData | undefined, uniqueId: string, fn: (m: Message) => Message): ThreadData | undefined {
  if (!data) return data;
  let changed = false;
  const pages = data.pages.map((p) => {
    if (!holds(p, uniqueId)) return p;
    changed = true;
    return { ...p, items: p.items.map((m) => (m.unique_id === uniqueId ? fn(m) : m)) };
  });
  return changed ? { ...data, pages } : data;
}

/** Remove a message (a failed optimistic bubble). */
export function removeFromThread(data: ThreadData | undefined, uniqueId: string): ThreadData | undefined {
  if (!data) return data;
  return { ...data, pages: data.pages.map((p) => (holds(p, uniqueId) ? { ...p, items: removeMessage(p.items, uniqueId) } : p)) };
}

/** Replace an optimistic bubble by the stored message (which may already have come over the socket). */
export function settleInThread(data: ThreadData | undefined, localId: string, stored: Message): ThreadData | undefined {
  if (!data) return data;
  const i = data.pages.findIndex((p) => holds(p, localId));
  if (i < 0) return upsertThread(data, [stored]);
  const pages = data.pages.slice();
  pages[i] = { ...pages[i]!, items: settleOptimistic(pages[i]!.items, localId, stored) };
  return { ...data, pages };
}
