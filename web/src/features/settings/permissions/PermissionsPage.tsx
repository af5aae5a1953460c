/**
 * /settings/permissions (admins, spec §6): phone masking and the member permissions (analytics,
 * bulk messages, rules, contacts, chat assignee), each a toggle saved at once
 * (PUT /settings/permissions); a failed save puts the toggle back and says why.
 */
import { useEffect, useState } from 'react';
import type { MemberPermissionsSettings, PermissionSettings } from '#shared/org/org.schemas.ts';
import { api, errorMessage } from '../../../lib/api.ts';
import { useSession } from '../../../app/session.tsx';
import { useToast } from '../../../app/toast.tsx';
import { MenuButton } from '../../../app/shell/MenuButton.tsx';
import '../team/team.css';
import { SettingsTitle } from '../components/SettingsTitle.tsx';

const MEMBER_TOGGLES: Array<{ key: keyof MemberPermissionsSettings; label: string; help: string }> = [
  { key: 'analytics', label: 'Analytics', help: 'Members can open /analytics.' },
  { key: 'bulk_message', label: 'Bulk messages', help: 'Members can open /broadcast and send bulk messages.' },
  { key: 'rules', label: 'Automation rules', help: 'Members can open /rules.' },
  { key: 'contacts', label: 'Contacts', help: 'Members can open /contacts.' },
  { key: 'chat_assignee', label: 'Change chat assignee', help: 'Members can assign chats to anyone.' },
];

export function PermissionsPage() {
  const { org } = useSession();
  const toast = useToast();
  const [settings, setSettings] = useState<PermissionSettings | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState<string | null>(null);
  const [attempt, setAttempt] = useState(0);

  useEffect(() => {
    let cancelled = false;
    setError(null);
    api
      .permissionSettings(org.org_id)
      .then((s) => !cancelled && setSettings(s))
      .catch((e) => !cancelled && setError(errorMessage(e)));
    return () => {
      cancelled = true;
    };
  }, [org.org_id, attempt]);

  async function save(key: string, next: PermissionSettings, input: Parameters<typeof api.savePermissionSettings>[1]) {
    const before = settings;
    setSettings(next);
    setBusy(key);
    try {
      setSettings(await api.savePermissionSettings(org.org_id, input));
      toast.show('Permissions updated', 'success');
    } catch (e) {
      setSettings(before);
      toast.show(errorMessage(e), 'error');
    } finally {
      setBusy(null);
    }
  }

  return (
    <div className="page" data-testid="permissions-page">
      <header className="page-header">
        <MenuButton />
        <SettingsTitle title="Permissions" />
      </header>
      <div className="page-body settings-form">
        {!settings && !error && <p className="muted">Loading permissions…</p>}
        {error && (
          <div className="inline-state" role="alert">
            <span>Could not load permissions: {error}</span>
            <button type="button" className="link-btn" onClick={() => setAttempt((n) => n + 1)}>
              Retry
            </button>
          </div>
        )}
        {settings && (
          <>
            <section className="settings-section" aria-labelledby="privacy-title">
              <h2 id="privacy-title">Privacy</h2>
              <ul className="toggle-list">
                <li className="toggle-row">
                  <span className="toggle-text">
                    <span id="perm-mask">Mask phone numbers</span>
                    <small>Members see customer numbers as 91******10. Admins always see them.</small>
                  </span>
                  <span className="switch">
                    <input
                      type="checkbox"
                      role="switch"
                      aria-labelledby="perm-mask"
                      data-testid="perm-mask_phone_numbers"
                      checked={settings.mask_phone_numbers}
                      disabled={busy !== null}
                      onChange={(e) => void save('mask', { ...settings, mask_phone_numbers: e.target.checked }, { mask_phone_numbers: e.target.checked })}
                    />
                  </span>
                </li>
              </ul>
            </section>
            <section className="settings-section" aria-labelledby="members-title">
              <h2 id="members-title">What members can do</h2>
              <p className="muted small">Admins can always do everything. A member who opens a page turned off here sees that it is restricted.</p>
              <ul className="toggle-list">
                {MEMBER_TOGGLES.map((t) => (
                  <li key={t.key} className="toggle-row">
                    <span className="toggle-text">
                      <span id={`perm-${t.key}`}>{t.label}</span>
                      <small>{t.help}</small>
                    </span>
                    <span className="switch">
                      <input
                        type="checkbox"
                        role="switch"
                        aria-labelledby={`perm-${t.key}`}
                        data-testid={`perm-${t.key}`}
                        checked={settings.member_permissions[t.key]}
                        disabled={busy !== null}
                        onChange={(e) =>
                          void save(
                            t.key,
                            { ...settings, member_permissions: { ...settings.member_permissions, [t.key]: e.target.checked } },
                            { member_permissions: { [t.key]: e.target.checked } },
                          )
                        }
                      />
                    </span>
                  </li>
                ))}
              </ul>
            </section>
          </>
        )}
      </div>
    </div>
  );
}
