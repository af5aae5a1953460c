/**
 * /settings/notifications (spec §2; members may open it; issue 21):
 * - this device: the switch of its kind (notifications/push/usePushSwitch.ts, shared with
 *   /settings/preferences) flips only after the browser's permission request and the device's
 *   registration (spec §4, §7 Enabling); a blocked browser gets spec §8's message;
 * - the other kind's switch (the user's other devices);
 * - what to be notified of, quiet hours, a sound for new messages in the open app;
 * - a test notification to this device, and the install-app button.
 */
import { NOTIFICATIONS_BLOCKED_MESSAGE } from '#shared/push/push.schemas.ts';
import type { UpdatePreferencesInput } from '#shared/user/preferences.schemas.ts';
import { useSession } from '../../../app/session.tsx';
import { useUserPrefs } from '../../../app/preferences.tsx';
import { useToast } from '../../../app/toast.tsx';
import { MenuButton } from '../../../app/shell/MenuButton.tsx';
import { SettingsTitle } from '../components/SettingsTitle.tsx';
import { api, errorMessage } from '../../../lib/api.ts';
import { InstallAppButton, playMessageSound, usePushSwitch } from '../../notifications/index.ts';
import '../team/team.css';
import '../preferences/preferences.css';
import './push.css';

function Switch({ id, label, help, checked, disabled, onChange }: { id: string; label: string; help: string; checked: boolean; disabled?: boolean; onChange: (v: boolean) => void }) {
  return (
    <li className="toggle-row">
      <span className="toggle-text">
        <span id={`push-${id}`}>{label}</span>
        <small>{help}</small>
      </span>
      <span className="switch">
        <input type="checkbox" role="switch" aria-labelledby={`push-${id}`} data-testid={`push-${id}`} checked={checked} disabled={disabled} onChange={(e) => onChange(e.target.checked)} />
      </span>
    </li>
  );
}

export function NotificationSettingsPage() {
  const { org } = useSession();
  const { prefs, savePrefs } = useUserPrefs();
  const toast = useToast();
  const { kind, permission, deviceId, busy, status, otherKey, on, toggle: toggleThisDevice } = usePushSwitch();

  if (!prefs) return <p className="muted page-body">Loading preferences…</p>;
  const save = (patch: UpdatePreferencesInput) => void savePrefs(patch);

  const sendTest = async () => {
    if (!deviceId) return;
    try {
      const r = await api.testPush(org.org_id, deviceId);
      toast.show(r.sent ? 'Test notification sent.' : 'This device is no longer subscribed. Turn notifications on again.', r.sent ? 'success' : 'error');
    } catch (e) {
      toast.show(errorMessage(e), 'error');
    }
  };

  const qh = prefs.push.quiet_hours;
  const browserZone = Intl.DateTimeFormat().resolvedOptions().timeZone || 'UTC';

  return (
    <div className="page" data-testid="notification-settings-page">
      <header className="page-header">
        <MenuButton />
        <SettingsTitle title="Notifications" />
      </header>
      <div className="page-body settings-form">
        <section className="settings-section" aria-labelledby="device-title">
          <h2 id="device-title">This device ({kind})</h2>
          {permission === 'denied' && (
            <p className="push-blocked" role="alert" data-testid="push-blocked">
              {NOTIFICATIONS_BLOCKED_MESSAGE}
            </p>
          )}
          {permission === 'unsupported' && <p className="muted">This browser cannot show push notifications. On an iPhone, install Chorus to your Home Screen first.</p>}
          <ul className="toggle-list">
            <Switch
              id="this-device"
              label={kind === 'mobile' ? 'Mobile notifications' : 'Desktop notifications'}
              help="Your browser asks for permission first. Applies to your other devices of this kind too."
              checked={on}
              disabled={busy || permission === 'unsupported'}
              onChange={(v) => void toggleThisDevice(v)}
            />
            <Switch
              id="other-kind"
              label={kind === 'mobile' ? 'Desktop notifications' : 'Mobile notifications'}
              help={`On your ${kind === 'mobile' ? 'computers' : 'phones'} where notifications are turned on.`}
              checked={prefs.notifications[otherKey]}
              onChange={(v) => save({ notifications: { [otherKey]: v } })}
            />
          </ul>
          {status && (
            <p className="muted" data-testid="push-status" aria-live="polite">
              {status}
            </p>
          )}
          <div className="push-actions">
            <button type="button" className="btn" disabled={!on || !deviceId} onClick={() => void sendTest()} data-testid="push-test">
              Send test notification
            </button>
            <InstallAppButton />
          </div>
        </section>

        <section className="settings-section" aria-labelledby="what-title">
          <h2 id="what-title">Notify me about</h2>
          <ul className="toggle-list">
            <li className="toggle-row with-select">
              <span className="toggle-text">
                <label htmlFor="push-new-messages">New messages</label>
                <small>Customer messages in chats assigned to you, or also in chats nobody is assigned to. Muted chats never notify.</small>
              </span>
              <select id="push-new-messages" data-testid="push-new_messages" value={prefs.push.new_messages} onChange={(e) => save({ push: { new_messages: e.target.value as 'assigned' } })}>
                <option value="assigned">Assigned to me</option>
                <option value="assigned_and_unassigned">Assigned to me or unassigned</option>
                <option value="none">None</option>
              </select>
            </li>
            <Switch id="mentions" label="Mentions" help="Someone mentions you in a private note." checked={prefs.push.mentions} onChange={(v) => save({ push: { mentions: v } })} />
            <Switch id="assignments" label="Assignments" help="A chat or a ticket is assigned to you." checked={prefs.push.assignments} onChange={(v) => save({ push: { assignments: v } })} />
            <Switch id="task_reminders" label="Task reminders" help="A reminder on one of your tasks comes due." checked={prefs.push.task_reminders} onChange={(v) => save({ push: { task_reminders: v } })} />
            <Switch id="snooze_wakeups" label="Snoozed chats" help="A snoozed chat assigned to you comes back." checked={prefs.push.snooze_wakeups} onChange={(v) => save({ push: { snooze_wakeups: v } })} />
          </ul>
        </section>

        <section className="settings-section" aria-labelledby="quiet-title">
          <h2 id="quiet-title">Quiet hours</h2>
          <ul className="toggle-list">
            <Switch
              id="quiet"
              label="Pause notifications"
              help={`No push notifications between these times (${qh.time_zone}).`}
              checked={qh.enabled}
              onChange={(v) => save({ push: { quiet_hours: { enabled: v, ...(v && qh.time_zone === 'UTC' ? { time_zone: browserZone } : {}) } } })}
            />
            <li className="toggle-row quiet-times">
              <label>
                From <input type="time" value={qh.start} disabled={!qh.enabled} data-testid="quiet-start" onChange={(e) => e.target.value && save({ push: { quiet_hours: { start: e.target.value } } })} />
              </label>
              <label>
                to <input type="time" value={qh.end} disabled={!qh.enabled} data-testid="quiet-end" onChange={(e) => e.target.value && save({ push: { quiet_hours: { end: e.target.value } } })} />
              </label>
              {qh.time_zone !== browserZone && (
                <button type="button" className="btn btn-ghost" disabled={!qh.enabled} onClick={() => save({ push: { quiet_hours: { time_zone: browserZone } } })}>
                  Use {browserZone}
                </button>
              )}
            </li>
          </ul>
        </section>

        <section className="settings-section" aria-labelledby="inapp-title">
          <h2 id="inapp-title">While Chorus is open</h2>
          <ul className="toggle-list">
            <Switch id="sound" label="Sound for new messages" help="A short chime when a customer writes. The tab title always shows your unread count." checked={prefs.push.sound} onChange={(v) => save({ push: { sound: v } })} />
          </ul>
          <button type="button" className="btn btn-ghost" onClick={() => playMessageSound()}>
            Play the sound
          </button>
        </section>
      </div>
    </div>
  );
}
