/**
 * The one TanStack Query client: the server-state layer of the web app (issue 12). Every
 * resource is one hook over it (`useMembers(orgId)`, …) with a query-key factory per feature;
 * the realtime bridge (socket events) writes into it with setQueryData / invalidateQueries.
 *
 * Defaults keep the behaviour the hand-rolled caches had: no refetch on window focus (the socket
 * keeps data fresh), no automatic retry (errors show at once, with Retry where the page offers
 * it), 30 s before data counts as stale. Sign-out clears it
 * (app/signOut.ts), so no organization's data outlives the session.
 */
import { QueryClient } from '@tanstack/react-query';

export const queryClient = new QueryClient({
  defaultOptions: {
    queries: { retry: false, refetchOnWindowFocus: false, staleTime: 30_000 },
  },
});
