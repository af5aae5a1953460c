/**
 * /settings/preferences (spec §2, §3; members may open it): the password-update dialog, the online
 * status in this workspace, notification preferences, the colour theme (kept in this browser) and
 * whether the left sidebar starts open. Each switch saves at once (app/preferences.tsx); this
 * device's notification switch is the one of /settings/notifications (on only once the browser
 * allows and the device is registered), so the two pages agree.
 */
import { useState } from 'react';
import { Link } from 'react-router-dom';
import { useSession } from '../../../app/session.tsx';
import { useUserPrefs } from '../../../app/preferences.tsx';
import { MenuButton } from '../../../app/shell/MenuButton.tsx';
import { usePushSwitch } from '../../notifications/index.ts';
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
  // this device's switch is the one of /settings/notifications (same state, same permission flow)
  const push = usePushSwitch();

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
                help={push.kind === 'desktop' ? 'New messages and mentions on this computer. Your browser asks for permission first.' : 'New messages and mentions on your computers where notifications are turned on.'}
                checked={push.kind === 'desktop' ? push.on : prefs.notifications.enable_notifications}
                disabled={push.kind === 'desktop' && (push.busy || push.permission === 'unsupported')}
                onChange={(v) => (push.kind === 'desktop' ? void push.toggle(v) : void savePrefs({ notifications: { enable_notifications: v } }))}
              />
              <Toggle
                id="enable_mobile_notifications"
                label="Mobile notifications"
                help={push.kind === 'mobile' ? 'Push notifications on this phone. Your browser asks for permission first.' : 'Push notifications on your phone.'}
                checked={push.kind === 'mobile' ? push.on : prefs.notifications.enable_mobile_notifications}
                disabled={push.kind === 'mobile' && (push.busy || push.permission === 'unsupported')}
                onChange={(v) => (push.kind === 'mobile' ? void push.toggle(v) : void savePrefs({ notifications: { enable_mobile_notifications: v } }))}
              />
            </ul>
          )}
          {push.status && (
            <p className="muted" data-testid="pref-push-status" aria-live="polite">
              {push.status}
            </p>
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
