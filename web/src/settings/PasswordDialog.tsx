/**
 * Password-update dialog (spec §5, §8): current and new password; the new one is checked against
 * shared/auth/password.rules.ts as the person types, each unmet rule is listed, and Update stays
 * disabled until it is valid. The change goes to Cognito from the browser (lib/auth.ts changePassword).
 */
import { useState, type FormEvent } from 'react';
import { checkPasswordChange, PASSWORD_MESSAGES, PASSWORD_RULES, passwordProblems } from '#shared/auth/password.rules.ts';
import { Dialog } from '../tickets/Dialog.tsx';
import { changePassword } from '../lib/auth.ts';
import { useToast } from '../app/toast.tsx';
import './preferences.css';

export function PasswordDialog({ onClose }: { onClose: () => void }) {
  const toast = useToast();
  const [oldPassword, setOldPassword] = useState('');
  const [newPassword, setNewPassword] = useState('');
  const [busy, setBusy] = useState(false);
  const problems = passwordProblems(newPassword);
  const check = checkPasswordChange(oldPassword, newPassword);
  const same = !check.ok && check.reason === 'same_password';

  async function submit(e: FormEvent) {
    e.preventDefault();
    if (!check.ok || busy) return;
    setBusy(true);
    const out = await changePassword(oldPassword, newPassword);
    setBusy(false);
    toast.show(out.message, out.ok ? 'success' : 'error');
    if (out.ok) onClose();
  }

  return (
    <Dialog title="Update password" onClose={onClose} testId="password-dialog" className="dialog-narrow">
      <form className="dialog-body form-grid" onSubmit={(e) => void submit(e)}>
        <label className="field">
          <span>Current password</span>
          <input type="password" autoComplete="current-password" value={oldPassword} onChange={(e) => setOldPassword(e.target.value)} data-testid="password-old" required />
        </label>
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
        <div className="dialog-actions">
          <button type="button" className="btn btn-ghost" onClick={onClose}>
            Cancel
          </button>
          <button type="submit" className="btn btn-primary" disabled={!check.ok || busy} data-testid="password-submit">
            {busy ? 'Updating…' : 'Update'}
          </button>
        </div>
      </form>
    </Dialog>
  );
}
