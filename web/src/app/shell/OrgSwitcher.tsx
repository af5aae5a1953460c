/**
 * Organization switcher (spec §2 'Organization switcher'; §6): a menu in the sidebar footer with
 * Organization settings and Invite team (admins only: disabled for members, hidden on phone-width
 * screens), Help (reload the app, refresh data), the workspace list (switching keeps the page
 * loaded: only the org's live state starts afresh), Create new workspace, Update password (the
 * password dialog), the colour theme (System, Light, Dark) and Log out (spec §4 sign-out).
 * Built on Radix's dropdown menu: arrow keys, Home/End, type-ahead, Esc and focus return.
 */
import { lazy, Suspense, useState } from 'react';
import { useNavigate } from 'react-router-dom';
import * as Menu from '@radix-ui/react-dropdown-menu';
import { fallbackPath } from '#shared/org/navigation.rules.ts';
import { useSession } from '../session.tsx';
import { PHONE_QUERY, useMediaQuery } from '../../lib/useMediaQuery.ts';
import { useShell } from './shellContext.ts';
import { THEME_PREFS, useTheme, type ThemePref } from './theme.ts';
import './orgSwitcher.css';

// not on the first screen: loaded when 'Update password' is chosen
// issue 22: Help > 'Chats not loading?' / 'App slow?' (the local reset)
const ClearDataDialog = lazy(() => import('../../features/plans/ClearDataDialog.tsx').then((m) => ({ default: m.ClearDataDialog })));
// issue 22: the rest of the spec §2 help menu (links from configuration), loaded when Help opens
const HelpLinks = lazy(() => import('../../features/plans/HelpLinks.tsx').then((m) => ({ default: m.HelpLinks })));

const PasswordDialog = lazy(() => import('../../features/settings/preferences/PasswordDialog.tsx').then((m) => ({ default: m.PasswordDialog })));

export function OrgSwitcher({ collapsed }: { collapsed: boolean }) {
  const { user, org, orgs, switchOrg, signOut, refresh } = useSession();
  const navigate = useNavigate();
  const { setDrawerOpen } = useShell();
  const phone = useMediaQuery(PHONE_QUERY);
  const [passwordOpen, setPasswordOpen] = useState(false);
  const [clearData, setClearData] = useState<'chats' | 'slow' | null>(null);
  const [theme, setTheme] = useTheme();
  const admin = org.role === 'admin';
  const displayName = org.member_name?.trim() || user.email;
  const go = (to: string) => {
    setDrawerOpen(false);
    navigate(to);
  };

  return (
    <>
      <Menu.Root modal={false}>
        <Menu.Trigger asChild>
          <button type="button" className="org-switcher" data-testid="org-menu-button" aria-label={`Organization menu: ${org.org_name}`} title={collapsed ? org.org_name : undefined}>
            <span className="org-avatar" aria-hidden="true">
              {org.org_name.trim().charAt(0).toUpperCase() || 'C'}
            </span>
            <span className="org-switcher-text">
              <span className="org-name">{org.org_name}</span>
              <span className="org-switcher-sub">
                {displayName} · {admin ? 'Admin' : 'Member'}
              </span>
            </span>
            <span className="org-switcher-caret" aria-hidden="true">
              ▴
            </span>
          </button>
        </Menu.Trigger>
        <Menu.Portal>
          <Menu.Content className="org-menu" side="top" align="start" sideOffset={6} collisionPadding={8} data-testid="org-menu" loop>
            <Menu.Label className="org-menu-label">
              <span className="org-menu-email">{user.email}</span>
            </Menu.Label>
            {!phone && (
              <>
                <Menu.Item className="org-menu-item" disabled={!admin} onSelect={() => go('/settings/general')} data-testid="org-menu-settings" title={admin ? undefined : 'Only admins can change organization settings'}>
                  Organization settings
                </Menu.Item>
                <Menu.Item className="org-menu-item" disabled={!admin} onSelect={() => go('/settings/team')} data-testid="invite-team" title={admin ? undefined : 'Only admins can invite people'}>
                  Invite team
                </Menu.Item>
              </>
            )}
            <Menu.Sub>
              <Menu.SubTrigger className="org-menu-item org-menu-subtrigger" data-testid="org-menu-help">
                Help <span aria-hidden="true">▸</span>
              </Menu.SubTrigger>
              <Menu.Portal>
                <Menu.SubContent className="org-menu" sideOffset={4} collisionPadding={8} data-testid="help-menu">
                  <Menu.Item className="org-menu-item" onSelect={() => window.location.reload()} data-testid="help-reload">
                    Reload app
                  </Menu.Item>
                  <Menu.Item className="org-menu-item" onSelect={() => void refresh()} data-testid="help-refresh">
                    Refresh data
                  </Menu.Item>
                  <Suspense fallback={null}>
                    <HelpLinks onTroubleshoot={setClearData} />
                  </Suspense>
                </Menu.SubContent>
              </Menu.Portal>
            </Menu.Sub>
            <Menu.Separator className="org-menu-sep" />
            <Menu.Label className="org-menu-label">Workspaces</Menu.Label>
            <Menu.RadioGroup
              value={org.org_id}
              onValueChange={(id) => {
                const next = orgs.find((o) => o.org_id === id);
                if (!next || id === org.org_id) return;
                switchOrg(id);
                go(fallbackPath(next));
              }}
            >
              {orgs.map((o) => (
                <Menu.RadioItem key={o.org_id} value={o.org_id} className="org-menu-item org-menu-workspace" data-testid="workspace-item" data-org-id={o.org_id}>
                  <Menu.ItemIndicator className="org-menu-check">✓</Menu.ItemIndicator>
                  <span className="org-menu-workspace-name">{o.org_name}</span>
                  <span className="org-menu-role">{o.role === 'admin' ? 'Admin' : 'Member'}</span>
                </Menu.RadioItem>
              ))}
            </Menu.RadioGroup>
            <Menu.Item className="org-menu-item" onSelect={() => go('/workspaces/new')} data-testid="create-workspace-link">
              + Create new workspace
            </Menu.Item>
            <Menu.Separator className="org-menu-sep" />
            <Menu.Label className="org-menu-label">Theme</Menu.Label>
            <Menu.RadioGroup value={theme} onValueChange={(v) => setTheme(v as ThemePref)}>
              {THEME_PREFS.map((t) => (
                <Menu.RadioItem key={t.value} value={t.value} className="org-menu-item org-menu-workspace" data-testid={`theme-${t.value}`} onSelect={(e) => e.preventDefault()}>
                  <Menu.ItemIndicator className="org-menu-check">✓</Menu.ItemIndicator>
                  <span className="org-menu-workspace-name">{t.label}</span>
                </Menu.RadioItem>
              ))}
            </Menu.RadioGroup>
            <Menu.Separator className="org-menu-sep" />
            <Menu.Item className="org-menu-item" onSelect={() => setPasswordOpen(true)} data-testid="update-password">
              Update password
            </Menu.Item>
            <Menu.Item className="org-menu-item org-menu-danger" onSelect={() => void signOut()} data-testid="sign-out">
              Log out
            </Menu.Item>
          </Menu.Content>
        </Menu.Portal>
      </Menu.Root>
      {clearData && (
        <Suspense fallback={null}>
          <ClearDataDialog kind={clearData} onClose={() => setClearData(null)} />
        </Suspense>
      )}
      {passwordOpen && (
        <Suspense fallback={null}>
          <PasswordDialog onClose={() => setPasswordOpen(false)} />
        </Suspense>
      )}
    </>
  );
}
