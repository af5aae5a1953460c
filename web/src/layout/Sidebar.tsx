/**
 * Left sidebar: the spec §2 sections with the live unread-chats badge on Chats, and in the footer the
 * organization switcher and user menu (org name, email, role, online status toggle, Update password,
 * Sign out). On phone-width screens it is a drawer opened by the menu button. Collapsible to icons on
 * wide screens (spec §3 left_sidebar_open, stored per user; layout/AppShell.tsx).
 */
import { useState } from 'react';
import { Link, NavLink } from 'react-router-dom';
import { useSession } from '../app/session.tsx';
import { useInbox } from '../app/inbox.tsx';
import { useTickets } from '../app/tickets.tsx';
import { badgeText as ticketBadgeText } from '#shared/ticket/ticket.schemas.ts';
import { NAV } from './nav.ts';
import { Icon } from './Icon.tsx';
import { useShell } from './shellContext.ts';
import { TasksButton } from '../tasks/TasksButton.tsx';
import { NotificationBell } from '../notifications/NotificationBell.tsx';
import { useUserPrefs } from '../app/preferences.tsx';
import { PasswordDialog } from '../settings/PasswordDialog.tsx';
import '../settings/preferences.css';

export const badgeText = (n: number): string => (n > 99 ? '99+' : String(n));

export function Sidebar({ collapsed, onToggleCollapsed, tasksButton = true }: { collapsed: boolean; onToggleCollapsed: () => void; tasksButton?: boolean }) {
  const { user, org, orgs, switchOrg, signOut } = useSession();
  const { counts } = useInbox();
  const { drawerOpen, setDrawerOpen } = useShell();
  // unread chats in All (GET /chats/counts, refreshed after chat events)
  const unreadChats = counts?.open.unread ?? 0;
  const myTickets = useTickets().badge ?? 0;
  const displayName = org.member_name?.trim() || user.email;
  const { isOnline, setOnline } = useUserPrefs();
  const [passwordOpen, setPasswordOpen] = useState(false);

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
      {tasksButton && (
        <div className="sidebar-tasks">
          <TasksButton variant="sidebar" />
          <NotificationBell variant="sidebar" />
        </div>
      )}
      <ul className="nav-list">
        {NAV.map((item) => {
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
      <div className="sidebar-foot">
        <div className="user-menu" aria-label="Account">
          {orgs.length > 1 ? (
            <label className="org-switch">
              <span className="visually-hidden">Organization</span>
              <select value={org.org_id} onChange={(e) => switchOrg(e.target.value)} aria-label="Organization">
                {orgs.map((o) => (
                  <option key={o.org_id} value={o.org_id}>
                    {o.org_name}
                  </option>
                ))}
              </select>
            </label>
          ) : (
            <div className="org-name" title={org.org_name}>
              {org.org_name}
            </div>
          )}
          <div className="org-actions">
            {org.role === 'admin' && (
              <Link to="/settings/team" className="link-btn small" data-testid="invite-team" onClick={() => setDrawerOpen(false)}>
                Invite team
              </Link>
            )}
            <Link to="/workspaces/new" className="link-btn small" data-testid="create-workspace-link" onClick={() => setDrawerOpen(false)}>
              Create workspace
            </Link>
            <button type="button" className="link-btn small" data-testid="update-password" onClick={() => setPasswordOpen(true)}>
              Update password
            </button>
          </div>
          <label className="status-toggle" title={isOnline ? 'You are online' : 'You are offline'}>
            <span className={`status-dot ${isOnline ? 'online' : ''}`} aria-hidden="true" />
            <input type="checkbox" role="switch" aria-label="Online status" data-testid="status-toggle" checked={isOnline} onChange={(e) => void setOnline(e.target.checked)} />
            <span className="nav-label">{isOnline ? 'Online' : 'Offline'}</span>
          </label>
          <div className="user-line">
            <span className="user-email" title={user.email}>
              {displayName}
              {displayName !== user.email && <span className="user-sub">{user.email}</span>}
            </span>
            <span className={`role-tag role-${org.role}`}>{org.role === 'admin' ? 'Admin' : 'Member'}</span>
          </div>
          <button type="button" className="btn btn-ghost sign-out" data-testid="sign-out" onClick={() => void signOut()} title="Sign out">
            <Icon name="logout" size={18} />
            <span className="nav-label">Sign out</span>
          </button>
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
      {passwordOpen && <PasswordDialog onClose={() => setPasswordOpen(false)} />}
    </nav>
  );
}
