/**
 * Password-update dialog (spec §5, §8): current and new password; the new one is checked against
 * shared/auth/password.rules.ts as the person types, each unmet rule is listed, and Update stays
 * disabled until it is valid. The change goes to Cognito from the browser (lib/auth.ts changePassword).
 * Just after signing in with an email code (spec §8: 'login with OTP and set your password from
 * Settings > Preferences') the current password is not asked for: the API sets the new one
 * (PUT /api/me/password, shared/user/password.ts), since invited people never had one.
 */
import { useEffect, useState, type FormEvent } from 'react';
import { checkPasswordChange, PASSWORD_MESSAGES, PASSWORD_RULES, passwordProblems } from '#shared/auth/password.rules.ts';
import { Dialog, DialogFooter } from '../../../components/ui/Dialog.tsx';
import { changePassword } from '../../../lib/auth-signin.ts';
import { api } from '../../../lib/api.ts';
import { useToast } from '../../../app/toast.tsx';
import './preferences.css';

export function PasswordDialog({ onClose }: { onClose: () => void }) {
  const toast = useToast();
  const [oldPassword, setOldPassword] = useState('');
  const [newPassword, setNewPassword] = useState('');
  const [busy, setBusy] = useState(false);
  /** null while asking the API; true: signed in by code a moment ago, no current password needed */
  const [withoutCurrent, setWithoutCurrent] = useState<boolean | null>(null);
  useEffect(() => {
    let live = true;
    api
      .passwordStatus()
      .then((st) => live && setWithoutCurrent(st.set_without_current))
      .catch(() => live && setWithoutCurrent(false));
    return () => {
      live = false;
    };
  }, []);
  const problems = passwordProblems(newPassword);
  const check = withoutCurrent ? (problems.length ? { ok: false as const, reason: 'weak' as const } : { ok: true as const }) : checkPasswordChange(oldPassword, newPassword);
  const same = !check.ok && check.reason === 'same_password';

  async function submit(e: FormEvent) {
    e.preventDefault();
    if (!check.ok || busy || withoutCurrent === null) return;
    setBusy(true);
    let out: { ok: boolean; message: string };
    if (withoutCurrent) {
      out = await api.setPasswordAfterCode(newPassword).then(
        () => ({ ok: true, message: PASSWORD_MESSAGES.updated }),
        () => ({ ok: false, message: PASSWORD_MESSAGES.failed }),
      );
    } else {
      out = await changePassword(oldPassword, newPassword);
    }
    setBusy(false);
    toast.show(out.message, out.ok ? 'success' : 'error');
    if (out.ok) onClose();
  }

  return (
    <Dialog title="Update password" onClose={onClose} testId="password-dialog" className="dialog-narrow">
      <form className="dialog-body form-grid" onSubmit={(e) => void submit(e)}>
        {withoutCurrent ? (
          <p className="muted small" data-testid="password-after-code">
            You signed in with an email code, so you can set a password without the current one.
          </p>
        ) : (
          <label className="field">
            <span>Current password</span>
            <input type="password" autoComplete="current-password" value={oldPassword} onChange={(e) => setOldPassword(e.target.value)} data-testid="password-old" required disabled={withoutCurrent === null} />
          </label>
        )}
        <label className="field">
          <span>New password</span>
          <input
            type="password"
            autoComplete="new-password"
            value={newPassword}
            onChange={(e) => setNewPassword(e.target.value)}
            data-testid="password-new"
            aria-describedby="password-rules"
            required
          />
        </label>
        <ul id="password-rules" className="password-rules" aria-live="polite" data-testid="password-rules">
          {PASSWORD_RULES.map((r) => {
            const met = !problems.includes(r.key);
            return (
              <li key={r.key} className={met ? 'met' : 'missing'} data-rule={r.key} data-met={met}>
                <span aria-hidden="true">{met ? '✓' : '•'}</span> {r.label}
                <span className="visually-hidden">{met ? ' (met)' : ' (missing)'}</span>
              </li>
            );
          })}
          <li className="muted small">Spaces are removed.</li>
        </ul>
        {same && (
          <p className="field-error" role="alert">
            {PASSWORD_MESSAGES.same_password}
          </p>
        )}
        <DialogFooter error={null} onCancel={onClose} submitLabel="Update" busyLabel="Updating…" busy={busy} disabled={!check.ok || busy || withoutCurrent === null} submitTestId="password-submit" />
      </form>
    </Dialog>
  );
}
