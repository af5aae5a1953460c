/**
 * The tickets of one chat (GET /api/orgs/{org_id}/chats/{chat_id}/tickets) for the thread's
 * details panel and ticket dialogs: a query per chat, kept current by the realtime bridge
 * (app/realtime-bridge.ts merges `ticket.*` events of this chat; a resync refetches).
 * `status` is 'loading' until the first answer, 'error' when that fails (Retry = `reload`), then
 * 'ready' for good: a later failed refresh keeps the list and only sets `error`.
 */
import { useCallback, useMemo } from 'react';
import { useQuery } from '@tanstack/react-query';
import type { Ticket } from '#shared/ticket/ticket.schemas.ts';
import { api, errorMessage } from '../../../lib/api.ts';
import { queryClient } from '../../../lib/query-client.ts';
import { chatKeys } from '../api/keys.ts';

export function useChatTickets(orgId: string, chatId: string) {
  const queryKey = useMemo(() => chatKeys.tickets(orgId, chatId), [orgId, chatId]);
  // refetched on every mount (staleTime 0): events that came while the thread was closed are not in the cache
  const q = useQuery({ queryKey, queryFn: () => api.chatTickets(orgId, chatId), staleTime: 0 });

  /** Put a ticket the user just created, attached or changed into the list. */
  const replaceTicket = useCallback(
    (t: Ticket) =>
      queryClient.setQueryData<Ticket[]>(queryKey, (prev) => {
        const list = prev ?? [];
        return list.some((x) => x.ticket_id === t.ticket_id) ? list.map((x) => (x.ticket_id === t.ticket_id ? t : x)) : [...list, t];
      }),
    [queryKey],
  );
  const { refetch } = q;
  const reload = useCallback(() => void refetch(), [refetch]);

  const failed = q.isError && !q.isFetching;
  return {
    tickets: q.data ?? null,
    status: q.data ? ('ready' as const) : failed ? ('error' as const) : ('loading' as const),
    error: failed ? errorMessage(q.error) : null,
    reload,
    replaceTicket,
  };
}
