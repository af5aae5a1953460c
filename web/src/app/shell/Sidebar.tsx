/**
 * Left sidebar: the spec §2 sections of the org (navItemsFor: a platform organization sees only
 * dashboard, phones and settings) with the live unread-chats badge on Chats and the tickets badge
 * (99+), and in the footer the organization switcher (layout/OrgSwitcher.tsx: settings, invite,
 * help, workspaces, create new, update password, log out) and the online status toggle. On
 * phone-width screens it is a drawer opened by the menu button. Collapsible to icons on wide screens (spec §3 left_sidebar_open, stored per user; layout/AppShell.tsx).
 */
import { NavLink } from 'react-router-dom';
import { useSession } from '../session.tsx';
import { useInbox } from '../inbox.tsx';
import { useTickets } from '../../features/tickets/hooks/useTickets.tsx';
import { badgeText as ticketBadgeText } from '#shared/ticket/ticket.schemas.ts';
import { isPlatform } from '#shared/org/navigation.rules.ts';
import { navItemsFor } from './nav.ts';
import { OrgSwitcher } from './OrgSwitcher.tsx';
import { Icon } from '../../components/ui/Icon.tsx';
import { useShell } from './shellContext.ts';
import { TasksButton } from '../../features/tasks/components/TasksButton.tsx';
import { NotificationBell } from '../../features/notifications/components/NotificationBell.tsx';
import { useUserPrefs } from '../preferences.tsx';
import '../../features/settings/preferences/preferences.css';

export const badgeText = (n: number): string => (n > 99 ? '99+' : String(n));

export function Sidebar({ collapsed, onToggleCollapsed, tasksButton = true }: { collapsed: boolean; onToggleCollapsed: () => void; tasksButton?: boolean }) {
  const { org } = useSession();
  const { counts } = useInbox();
  const { drawerOpen, setDrawerOpen } = useShell();
  // unread chats in All (GET /chats/counts, refreshed after chat events)
  const unreadChats = counts?.open.unread ?? 0;
  const myTickets = useTickets().badge ?? 0;
  const { isOnline, setOnline } = useUserPrefs();

  return (
    <nav id="sidebar" className={`sidebar ${drawerOpen ? 'open' : ''}`} aria-label="Main">
      <div className="sidebar-head">
        <div className="brand-mark" aria-hidden="true">
          C
        </div>
        <span className="brand-name">Chorus</span>
        <button type="button" className="icon-btn drawer-close" aria-label="Close navigation menu" onClick={() => setDrawerOpen(false)}>
          <Icon name="close" />
        </button>
      </div>
      {tasksButton && !isPlatform(org) && (
        <div className="sidebar-tasks">
          <TasksButton variant="sidebar" />
          <NotificationBell variant="sidebar" />
        </div>
      )}
      <ul className="nav-list">
        {navItemsFor(org).map((item) => {
          const badge = item.path === '/chats' && unreadChats > 0 ? unreadChats : 0;
          const tickets = item.path === '/tickets';
          const label = badge
            ? `${item.label}, ${badge} unread chats`
            : tickets && myTickets > 0
              ? `${item.label}, ${myTickets} open tickets assigned to you`
              : item.label;
          return (
            <li key={item.path}>
              <NavLink
                to={item.path}
                className={({ isActive }) => `nav-link ${isActive ? 'active' : ''}`}
                title={collapsed ? item.label : undefined}
                aria-label={label}
                onClick={() => setDrawerOpen(false)}
              >
                <Icon name={item.icon} />
                <span className="nav-label">{item.label}</span>
                {badge > 0 && (
                  <span className="nav-badge" data-testid="nav-unread-badge" aria-hidden="true">
                    {badgeText(badge)}
                  </span>
                )}
                {tickets && (
                  // always in the DOM (tests read data-count); hidden while there is nothing to count
                  <span className="nav-badge" data-testid="tickets-badge" data-count={myTickets} aria-hidden="true" hidden={myTickets <= 0}>
                    {ticketBadgeText(myTickets)}
                  </span>
                )}
              </NavLink>
            </li>
          );
        })}
      </ul>
      {/* issue 22: the trial banner, What's New and the old-build icon (features/plans/LifecycleLayer.tsx) */}
      <div id="sidebar-plan-slot" className="sidebar-plan-slot" />
      <div className="sidebar-foot">
        <div className="user-menu">
          <OrgSwitcher collapsed={collapsed} />
          <label className="status-toggle" title={isOnline ? 'You are online' : 'You are offline'}>
            <span className={`status-dot ${isOnline ? 'online' : ''}`} aria-hidden="true" />
            <input type="checkbox" role="switch" aria-label="Online status" data-testid="status-toggle" checked={isOnline} onChange={(e) => void setOnline(e.target.checked)} />
            <span className="nav-label">{isOnline ? 'Online' : 'Offline'}</span>
          </label>
        </div>
        <button
          type="button"
          className="icon-btn collapse-btn"
          onClick={onToggleCollapsed}
          aria-label={collapsed ? 'Expand sidebar' : 'Collapse sidebar'}
          aria-pressed={collapsed}
        >
          <Icon name={collapsed ? 'expand' : 'collapse'} size={18} />
        </button>
      </div>
    </nav>
  );
}
