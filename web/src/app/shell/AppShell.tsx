/**
 * The signed-in frame: live inbox state for the current org (keyed by org, so switching org starts
 * afresh), the sidebar, the page outlet, the socket status pill and, on phones, the bottom tab bar.
 * The tasks button (sidebar header on wide screens, floating top right on phones) opens the task panel;
 * the notifications bell sits beside it (notifications/NotificationBell.tsx). While another session
 * of the user is the active one (app/activeSession.ts) the 'logged in in more than one session'
 * screen covers the shell, which stays mounted (inert) so Switch here returns to the same place.
 */
import { pageAccess } from '#shared/org/permissions.rules.ts';
import { lazy, Suspense, useCallback, useEffect, useMemo, useState } from 'react';
import { Navigate, NavLink, Outlet, useLocation } from 'react-router-dom';
import { useSession } from '../session.tsx';
import './theme.ts';
import { InboxProvider, useInbox } from '../inbox.tsx';
import { TicketsProvider, useTickets } from '../../features/tickets/hooks/useTickets.tsx';
import { TasksProvider, useTasks } from '../../features/tasks/hooks/useTasks.tsx';
import { TasksButton } from '../../features/tasks/components/TasksButton.tsx';
import { NotificationsProvider } from '../../features/notifications/components/NotificationsProvider.tsx';
import { NotificationBell } from '../../features/notifications/components/NotificationBell.tsx';
import { PHONE_QUERY, useMediaQuery } from '../../lib/useMediaQuery.ts';
import { badgeText as ticketBadgeText } from '#shared/ticket/ticket.schemas.ts';
import { unreadChatCount } from '../../features/chats/api/chats.ts';
import { Sidebar, badgeText } from './Sidebar.tsx';
import { Icon } from '../../components/ui/Icon.tsx';
import { useInPageSignals } from '../../features/notifications/useInPageSignals.ts';
import { MOBILE_TABS, mobileUnavailable } from './nav.ts';
import { UnavailableOnMobile } from '../pages/UnavailableOnMobile.tsx';
import { ShellContext } from './shellContext.ts';
import { UserPrefsProvider, useUserPrefs } from '../preferences.tsx';
import { fallbackPath, isPlatform, pathAvailable } from '#shared/org/navigation.rules.ts';
import { useActiveSession } from '../activeSession.ts';
import { GlobalSearch } from '../../features/search/index.ts';

const COLLAPSED_KEY = 'chorus.sidebar_collapsed';
// issue 22 (bundle budget): the 'more than one session' screen is its own chunk
const SessionReplacedScreen = lazy(() => import('../pages/SessionReplacedScreen.tsx').then((m) => ({ default: m.SessionReplacedScreen })));

// issue 22: banners, blocking screens, trial/What's New/old-build in the sidebar slot, Getting Started (its own chunk)
const LifecycleLayer = lazy(() => import('../../features/plans/LifecycleLayer.tsx').then((m) => ({ default: m.LifecycleLayer })));

// The task panel (list, editor, audit log) is its own chunk, loaded when it first opens; it then
// stays mounted so a draft survives closing and reopening.
const TaskPanel = lazy(() => import('../../features/tasks/components/TaskPanel.tsx').then((m) => ({ default: m.TaskPanel })));

function LazyTaskPanel() {
  const { open } = useTasks();
  const [opened, setOpened] = useState(open);
  if (open && !opened) setOpened(true);
  if (!opened) return null;
  return (
    <Suspense fallback={null}>
      <TaskPanel />
    </Suspense>
  );
}

export function AppShell() {
  const { org, generation } = useSession();
  return (
    <InboxProvider key={`${org.org_id}:${generation}`} orgId={org.org_id}>
      <TicketsProvider>
        <TasksProvider>
          <NotificationsProvider>
            <UserPrefsProvider>
              <Shell />
            </UserPrefsProvider>
          </NotificationsProvider>
        </TasksProvider>
      </TicketsProvider>
    </InboxProvider>
  );
}

function Shell() {
  const location = useLocation();
  const { org } = useSession();
  const { chats, counts } = useInbox();
  const { badge: ticketBadge } = useTickets();
  const [drawerOpen, setDrawerOpen] = useState(false);
  // spec §3 left_sidebar_open is stored per user (GET/PUT /api/me/preferences); localStorage only
  // answers until the preferences arrive, so the sidebar does not jump on every load
  const { prefs, savePrefs } = useUserPrefs();
  const [cachedCollapsed] = useState(() => {
    try {
      return localStorage.getItem(COLLAPSED_KEY) === '1';
    } catch {
      return false;
    }
  });
  const collapsed = prefs ? !prefs.left_sidebar_open : cachedCollapsed;
  useEffect(() => {
    if (!prefs) return;
    try {
      localStorage.setItem(COLLAPSED_KEY, prefs.left_sidebar_open ? '0' : '1');
    } catch {
      /* not cached */
    }
  }, [prefs]);
  const toggleCollapsed = useCallback(() => void savePrefs({ left_sidebar_open: collapsed }), [savePrefs, collapsed]);

  // close the drawer on navigation and on Esc
  useEffect(() => setDrawerOpen(false), [location.pathname]);
  useEffect(() => {
    if (!drawerOpen) return;
    const onKey = (e: KeyboardEvent) => {
      if (e.key === 'Escape') {
        e.preventDefault();
        setDrawerOpen(false);
      }
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [drawerOpen]);

  // the same figure as the sidebar badge: unread chats in All (GET /chats/counts), else the loaded ones
  const unread = counts?.open.unread ?? unreadChatCount(chats);
  useEffect(() => {
    document.title = unread > 0 ? `(${badgeText(unread)}) Chorus` : 'Chorus';
  }, [unread]);

  useInPageSignals();

  const phone = useMediaQuery(PHONE_QUERY);
  const shell = useMemo(() => ({ drawerOpen, setDrawerOpen }), [drawerOpen]);
  // a platform organization has no chats or tickets: its only tab would be Dashboard, so no bar
  const tabs = MOBILE_TABS.filter((t) => pathAvailable(org, t.path));
  const showTabs = tabs.length > 1 && tabs.some((t) => t.path === location.pathname);
  const session = useActiveSession();
  const replaced = session.status === 'replaced';

  return (
    <ShellContext.Provider value={shell}>
      {replaced && (
        <Suspense fallback={null}>
          <SessionReplacedScreen claimedAt={session.claimedAt} />
        </Suspense>
      )}
      <div className={`shell ${collapsed ? 'collapsed' : ''} ${showTabs ? 'with-tabs' : ''}`} inert={replaced}>
        <Sidebar collapsed={collapsed} onToggleCollapsed={toggleCollapsed} tasksButton={!phone} />
        {drawerOpen && <div className="drawer-backdrop" onClick={() => setDrawerOpen(false)} aria-hidden="true" />}
        <GlobalSearch />
        <main className="shell-main">
          <Suspense fallback={null}>
            <LifecycleLayer />
          </Suspense>
          {/* spec §2: a path the org may not open (a platform org's /chats, a normal org's /phones, hidden /communities) goes to its home */}
          {/* a page the member may not open shows Restricted (spec §6, PageGate), not the phone notice */}
          {pathAvailable(org, location.pathname) && phone && mobileUnavailable(location.pathname) && pageAccess(org.role, org.member_permissions, location.pathname) ? (
            <UnavailableOnMobile title={mobileUnavailable(location.pathname)!.title} />
          ) : pathAvailable(org, location.pathname) ? (
            // pages are lazy chunks (app/App.tsx): the sidebar stays while one loads
            <Suspense fallback={<div className="page-loading" role="status" aria-label="Loading"><div className="spinner" aria-hidden="true" /></div>}>
              <Outlet />
            </Suspense>
          ) : (
            <Navigate to={fallbackPath(org)} replace />
          )}
        </main>
        {showTabs && (
          <nav className="tabbar" aria-label="Sections">
            {tabs.map((t) => (
              <NavLink key={t.path} to={t.path} className={({ isActive }) => `tab ${isActive ? 'active' : ''}`}>
                <Icon name={t.icon} />
                <span>{t.label}</span>
                {t.path === '/chats' && unread > 0 && (
                  <span className="nav-badge" aria-label={`${unread} unread chats`}>
                    {badgeText(unread)}
                  </span>
                )}
                {t.path === '/tickets' && ticketBadgeText(ticketBadge ?? 0) && (
                  <span className="nav-badge" data-testid="tab-tickets-badge" aria-label={`${ticketBadge} open tickets assigned to you`}>
                    {ticketBadgeText(ticketBadge ?? 0)}
                  </span>
                )}
              </NavLink>
            ))}
          </nav>
        )}
        {phone && !isPlatform(org) && <TasksButton variant="floating" />}
        {phone && <NotificationBell variant="floating" />}
        <LazyTaskPanel />
        <SocketStatus />
      </div>
    </ShellContext.Provider>
  );
}

/** Always in the DOM (tests read `data-state`); visible only while the socket is not open. */
function SocketStatus() {
  const { socketState, socketEverOpen } = useInbox();
  const text = socketState === 'open' ? 'Connected' : socketEverOpen ? 'Reconnecting…' : 'Connecting…';
  return (
    <div className={`socket-status ${socketState}`} data-testid="socket-status" data-state={socketState} role="status" aria-live="polite">
      {socketState !== 'open' && <span className="dot" aria-hidden="true" />}
      <span>{text}</span>
    </div>
  );
}
