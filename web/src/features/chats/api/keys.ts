/**
 * Query keys of the chats feature (TanStack Query). Everything of an organization lives under
 * `['orgs', orgId, …]`, so a reconnect can invalidate one org's data in one call
 * (app/realtime-bridge.ts) and sign-out clears it all.
 */
export const chatKeys = {
  all: (orgId: string) => ['orgs', orgId, 'chats'] as const,
  /** every chat list (one infinite query per filter) */
  lists: (orgId: string) => [...chatKeys.all(orgId), 'list'] as const,
  /** the /chats list for one filter (`filterKey(filter)` of features/chats/api/chats.ts) */
  list: (orgId: string, filter: string) => [...chatKeys.lists(orgId), filter] as const,
  /** every chat snapshot known in this session (ChatStore, chat-store.ts); written, never fetched */
  store: (orgId: string) => [...chatKeys.all(orgId), 'store'] as const,
  /** GET /chats/counts */
  counts: (orgId: string) => [...chatKeys.all(orgId), 'counts'] as const,
  /** GET /labels (the org's chat labels) */
  labels: (orgId: string) => ['orgs', orgId, 'labels'] as const,
  /** GET /chats/{chat_id}/tickets */
  tickets: (orgId: string, chatId: string) => [...chatKeys.all(orgId), chatId, 'tickets'] as const,
  /** GET /chats/{chat_id} (the open thread's chat when the store does not hold it) */
  chat: (orgId: string, chatId: string) => [...chatKeys.all(orgId), chatId, 'chat'] as const,
  /** GET /chats/{chat_id}/messages pages (an infinite query, newest page first) */
  messages: (orgId: string, chatId: string) => [...chatKeys.all(orgId), chatId, 'messages'] as const,
};
