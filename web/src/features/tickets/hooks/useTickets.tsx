/**
 * Ticket state shared by the shell and the ticket screens of the current organization:
 * - the sidebar / tab bar badge (GET /tickets/badge: my open or in-progress tickets), refetched
 *   (debounced 300 ms) on every ticket.* event and after a socket reconnect;
 * - the ticket settings (labels with colours, defaults), loaded once and refreshed after saving.
 */
import { createContext, useCallback, useContext, useEffect, useMemo, useRef, useState, type ReactNode } from 'react';
import type { TicketLabel, TicketSettings } from '#shared/ticket/ticket.schemas.ts';
import { DEFAULT_TICKET_SETTINGS } from '#shared/ticket/ticket.schemas.ts';
import { api, errorMessage } from '../../../lib/api.ts';
import { labelMap } from '../api/tickets.ts';
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
  const [badge, setBadge] = useState<number | null>(null);
  const [settings, setSettingsState] = useState<TicketSettings>(DEFAULT_TICKET_SETTINGS);
  const [settingsStatus, setSettingsStatus] = useState<TicketsState['settingsStatus']>('loading');
  const [settingsError, setSettingsError] = useState<string | null>(null);
  const timer = useRef<ReturnType<typeof setTimeout> | null>(null);
  const seq = useRef(0);

  const fetchBadge = useCallback(() => {
    const n = ++seq.current;
    api
      .ticketBadge(orgId)
      .then((count) => {
        if (n === seq.current) setBadge(count);
      })
      .catch((e) => console.warn('tickets badge:', errorMessage(e)));
  }, [orgId]);

  const refreshBadge = useCallback(() => {
    if (timer.current) clearTimeout(timer.current);
    timer.current = setTimeout(() => {
      timer.current = null;
      fetchBadge();
    }, BADGE_DEBOUNCE_MS);
  }, [fetchBadge]);

  const reloadSettings = useCallback(() => {
    setSettingsStatus((s) => (s === 'ready' ? s : 'loading'));
    setSettingsError(null);
    api
      .ticketSettings(orgId)
      .then((s) => {
        setSettingsState({ ...DEFAULT_TICKET_SETTINGS, ...s, labels: s?.labels ?? [] });
        setSettingsStatus('ready');
      })
      .catch((e) => {
        setSettingsError(errorMessage(e));
        setSettingsStatus((s) => (s === 'ready' ? s : 'error'));
      });
  }, [orgId]);

  useEffect(() => {
    fetchBadge();
    reloadSettings();
    return () => {
      if (timer.current) clearTimeout(timer.current);
    };
  }, [fetchBadge, reloadSettings]);

  useEffect(
    () =>
      subscribe((e) => {
        if (e.kind === 'ticket' || e.kind === 'resync') refreshBadge();
        if (e.kind === 'resync') reloadSettings();
      }),
    [subscribe, refreshBadge, reloadSettings],
  );

  const setSettings = useCallback((s: TicketSettings) => {
    setSettingsState(s);
    setSettingsStatus('ready');
  }, []);

  const labelsById = useMemo(() => labelMap(settings.labels), [settings.labels]);
  const value = useMemo<TicketsState>(
    () => ({ badge, refreshBadge, settings, settingsStatus, settingsError, labelsById, reloadSettings, setSettings }),
    [badge, refreshBadge, settings, settingsStatus, settingsError, labelsById, reloadSettings, setSettings],
  );
  return <TicketsContext.Provider value={value}>{children}</TicketsContext.Provider>;
}
