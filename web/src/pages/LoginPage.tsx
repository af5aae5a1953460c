/**
 * /login: email + password sign-in against the Cognito pool (USER_PASSWORD_AUTH).
 * Errors use spec §8's words; a session-expired notice left by the app is shown above the form.
 * Already signed in (and not just expired) → straight to /chats.
 */
import { useEffect, useRef, useState, type FormEvent } from 'react';
import { useLocation, useNavigate } from 'react-router-dom';
import { getIdToken, signInWithPassword } from '../lib/auth.ts';
import { clearLoginNotice, peekLoginNotice } from '../app/sessionExpiry.ts';

export function LoginPage() {
  const navigate = useNavigate();
  const location = useLocation();
  const [notice] = useState(() => peekLoginNotice());
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const emailRef = useRef<HTMLInputElement>(null);

  const target = (location.state as { from?: string } | null)?.from;
  const afterSignIn = target && target.startsWith('/') && !target.startsWith('/login') ? target : '/chats';

  useEffect(() => {
    clearLoginNotice();
    if (notice) return; // the session just expired: let the person sign in again
    let cancelled = false;
    void getIdToken().then((token) => {
      if (token && !cancelled) navigate('/chats', { replace: true });
    });
    return () => {
      cancelled = true;
    };
  }, [navigate, notice]);

  async function onSubmit(e: FormEvent) {
    e.preventDefault();
    if (busy) return;
    const trimmed = email.trim();
    if (!trimmed || !password) {
      setError('Please enter your email and password.');
      (trimmed ? null : emailRef.current)?.focus();
      return;
    }
    setBusy(true);
    setError(null);
    const out = await signInWithPassword(trimmed, password);
    setBusy(false);
    if (out.ok) navigate(afterSignIn, { replace: true });
    else setError(out.message);
  }

  return (
    <div className="login">
      <form className="login-card" onSubmit={onSubmit} noValidate aria-labelledby="login-title">
        <div className="login-brand">
          <div className="brand-mark" aria-hidden="true">
            C
          </div>
          <div>
            <h1 id="login-title">Sign in to Chorus</h1>
            <p className="muted">The shared inbox for your team’s WhatsApp numbers.</p>
          </div>
        </div>
        {notice && (
          <p className="login-notice" role="status" data-testid="login-notice">
            {notice}
          </p>
        )}
        <label className="field">
          <span>Email</span>
          <input
            ref={emailRef}
            data-testid="login-email"
            type="email"
            name="email"
            autoComplete="username"
            inputMode="email"
            autoFocus
            required
            value={email}
            onChange={(e) => setEmail(e.target.value)}
            aria-invalid={error ? true : undefined}
            aria-describedby={error ? 'login-error' : undefined}
          />
        </label>
        <label className="field">
          <span>Password</span>
          <input
            data-testid="login-password"
            type="password"
            name="password"
            autoComplete="current-password"
            required
            value={password}
            onChange={(e) => setPassword(e.target.value)}
            aria-invalid={error ? true : undefined}
            aria-describedby={error ? 'login-error' : undefined}
          />
        </label>
        {error && (
          <p className="login-error" id="login-error" role="alert" data-testid="login-error">
            {error}
          </p>
        )}
        <button className="btn btn-primary btn-block" type="submit" data-testid="login-submit" disabled={busy} aria-busy={busy || undefined}>
          {busy ? 'Signing in…' : 'Sign in'}
        </button>
        <p className="muted small">Google and one-time-code sign-in are not available in this version of Chorus yet.</p>
      </form>
    </div>
  );
}
