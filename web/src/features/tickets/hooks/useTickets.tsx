/**
 * Ticket state shared by the shell and the ticket screens of the current organization:
 * - the sidebar / tab bar badge (GET /tickets/badge: my open or in-progress tickets), a query
 *   invalidated (debounced 300 ms) on every ticket.* event and refetched after a socket reconnect;
 * - the ticket settings (labels with colours, defaults), a query loaded once, refetched after a
 *   reconnect, and set from what was just saved.
 */
import { createContext, useCallback, useContext, useEffect, useMemo, useRef, type ReactNode } from 'react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import type { TicketLabel, TicketSettings } from '#shared/ticket/ticket.schemas.ts';
import { DEFAULT_TICKET_SETTINGS } from '#shared/ticket/ticket.schemas.ts';
import { api, errorMessage } from '../../../lib/api.ts';
import { labelMap } from '../api/tickets.ts';
import { ticketKeys } from '../api/ticket-cache.ts';
import { useInbox } from '../../../app/inbox.tsx';

export interface TicketsState {
  /** my open / in-progress tickets; null until first loaded */
  badge: number | null;
  refreshBadge: () => void;
  settings: TicketSettings;
  settingsStatus: 'loading' | 'ready' | 'error';
  settingsError: string | null;
  labelsById: Map<string, TicketLabel>;
  reloadSettings: () => void;
  setSettings: (s: TicketSettings) => void;
}

const TicketsContext = createContext<TicketsState | null>(null);

export function useTickets(): TicketsState {
  const v = useContext(TicketsContext);
  if (!v) throw new Error('useTickets outside TicketsProvider');
  return v;
}

const BADGE_DEBOUNCE_MS = 300;

export function TicketsProvider({ children }: { children: ReactNode }) {
  const { orgId, subscribe } = useInbox();
  const qc = useQueryClient();
  const timer = useRef<ReturnType<typeof setTimeout> | null>(null);

  // the badge: a query (a reconnect refetches it with the org's queries); a late answer cannot win over a newer one
  const badgeQ = useQuery({
    queryKey: ticketKeys.badge(orgId),
    queryFn: () =>
      api.ticketBadge(orgId).catch((e: unknown) => {
        console.warn('tickets badge:', errorMessage(e));
        throw e;
      }),
    staleTime: Infinity,
  });
  const refreshBadge = useCallback(() => {
    if (timer.current) clearTimeout(timer.current);
    timer.current = setTimeout(() => {
      timer.current = null;
      void qc.invalidateQueries({ queryKey: ticketKeys.badge(orgId) });
    }, BADGE_DEBOUNCE_MS);
  }, [qc, orgId]);
  useEffect(() => () => void (timer.current && clearTimeout(timer.current)), []);
  useEffect(
    () =>
      subscribe((e) => {
        if (e.kind === 'ticket') refreshBadge();
      }),
    [subscribe, refreshBadge],
  );

  // the settings: loaded once, refreshed after a reconnect; `setSettings` puts what was just saved
  const settingsQ = useQuery({
    queryKey: ticketKeys.settings(orgId),
    queryFn: async (): Promise<TicketSettings> => {
      const s = await api.ticketSettings(orgId);
      return { ...DEFAULT_TICKET_SETTINGS, ...s, labels: s?.labels ?? [] };
    },
    staleTime: Infinity,
  });
  const settings = settingsQ.data ?? DEFAULT_TICKET_SETTINGS;
  const settingsStatus: TicketsState['settingsStatus'] = settingsQ.data ? 'ready' : settingsQ.isError && !settingsQ.isFetching ? 'error' : 'loading';
  const settingsError = settingsQ.isError ? errorMessage(settingsQ.error) : null;
  const { refetch: refetchSettings } = settingsQ;
  const reloadSettings = useCallback(() => void refetchSettings(), [refetchSettings]);
  const setSettings = useCallback((s: TicketSettings) => qc.setQueryData(ticketKeys.settings(orgId), s), [qc, orgId]);

  const badge = badgeQ.data ?? null;
  const labelsById = useMemo(() => labelMap(settings.labels), [settings.labels]);
  const value = useMemo<TicketsState>(
    () => ({ badge, refreshBadge, settings, settingsStatus, settingsError, labelsById, reloadSettings, setSettings }),
    [badge, refreshBadge, settings, settingsStatus, settingsError, labelsById, reloadSettings, setSettings],
  );
  return <TicketsContext.Provider value={value}>{children}</TicketsContext.Provider>;
}
