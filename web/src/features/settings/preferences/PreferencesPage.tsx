/**
 * /settings/preferences (spec §2, §3; members may open it): the password-update dialog, the online
 * status in this workspace, notification preferences, the colour theme (kept in this browser) and
 * whether the left sidebar starts open. Each switch saves at once (app/preferences.tsx).
 */
import { useState } from 'react';
import { Link } from 'react-router-dom';
import { useSession } from '../../../app/session.tsx';
import { useUserPrefs } from '../../../app/preferences.tsx';
import { MenuButton } from '../../../app/shell/MenuButton.tsx';
import { SettingsTitle } from '../components/SettingsTitle.tsx';
import { PasswordDialog } from './PasswordDialog.tsx';
import { ThemeChoice } from './ThemeChoice.tsx';
import '../team/team.css';
import './preferences.css';

function Toggle({ id, label, help, checked, disabled, onChange }: { id: string; label: string; help: string; checked: boolean; disabled?: boolean; onChange: (v: boolean) => void }) {
  return (
    <li className="toggle-row">
      <span className="toggle-text">
        <span id={`pref-${id}`}>{label}</span>
        <small>{help}</small>
      </span>
      <span className="switch">
        <input type="checkbox" role="switch" aria-labelledby={`pref-${id}`} data-testid={`pref-${id}`} checked={checked} disabled={disabled} onChange={(e) => onChange(e.target.checked)} />
      </span>
    </li>
  );
}

export function PreferencesPage() {
  const { user, org } = useSession();
  const { prefs, savePrefs, isOnline, setOnline } = useUserPrefs();
  const [passwordOpen, setPasswordOpen] = useState(false);

  return (
    <div className="page" data-testid="preferences-page">
      <header className="page-header">
        <MenuButton />
        <SettingsTitle title="Preferences" />
      </header>
      <div className="page-body settings-form">
        <section className="settings-section" aria-labelledby="account-title">
          <h2 id="account-title">Account</h2>
          <ul className="toggle-list">
            <li className="toggle-row">
              <span className="toggle-text">
                <span>Password</span>
                <small>Signed in as {user.email}.</small>
              </span>
              <button type="button" className="btn nowrap" onClick={() => setPasswordOpen(true)} data-testid="open-password-dialog">
                Update password
              </button>
            </li>
            <Toggle
              id="online"
              label={isOnline ? 'Online' : 'Offline'}
              help={`Your status in ${org.org_name}, shown to teammates beside your name.`}
              checked={isOnline}
              onChange={(v) => void setOnline(v)}
            />
          </ul>
        </section>
        <section className="settings-section" aria-labelledby="notif-title">
          <h2 id="notif-title">Notifications</h2>
          {!prefs ? (
            <p className="muted">Loading preferences…</p>
          ) : (
            <ul className="toggle-list">
              <Toggle
                id="enable_notifications"
                label="Desktop notifications"
                help="New messages and mentions, after your browser allows them."
                checked={prefs.notifications.enable_notifications}
                onChange={(v) => void savePrefs({ notifications: { enable_notifications: v } })}
              />
              <Toggle
                id="enable_mobile_notifications"
                label="Mobile notifications"
                help="Push notifications on your phone."
                checked={prefs.notifications.enable_mobile_notifications}
                onChange={(v) => void savePrefs({ notifications: { enable_mobile_notifications: v } })}
              />
            </ul>
          )}
          <p className="muted">
            Turn notifications on for this device, choose what you hear about and set quiet hours in{' '}
            <Link to="/settings/notifications">Settings → Notifications</Link>.
          </p>
        </section>
        <section className="settings-section" aria-labelledby="theme-title">
          <h2 id="theme-title">Theme</h2>
          <ThemeChoice />
        </section>
        <section className="settings-section" aria-labelledby="layout-title">
          <h2 id="layout-title">Layout</h2>
          {prefs && (
            <ul className="toggle-list">
              <Toggle
                id="left_sidebar_open"
                label="Keep the sidebar open"
                help="Off shows icons only. The collapse button at the bottom of the sidebar changes this too."
                checked={prefs.left_sidebar_open}
                onChange={(v) => void savePrefs({ left_sidebar_open: v })}
              />
            </ul>
          )}
        </section>
      </div>
      {passwordOpen && <PasswordDialog onClose={() => setPasswordOpen(false)} />}
    </div>
  );
}
