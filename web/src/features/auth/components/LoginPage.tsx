/**
 * /login (spec §2, §4): three ways in, all through the Cognito user pool.
 * - email + password (USER_PASSWORD_AUTH);
 * - email one-time code: 'Email me a code' -> the code-sent step -> verify (Cognito custom auth;
 *   a new code at most once per 60 s, refused by the server with spec §8's words);
 * - Google (Cognito hosted UI, back through /login/callback) where config.json has `oauth`; elsewhere
 *   the button is disabled and says why.
 * Where the runtime keeps a local outbox (config `localOutboxUrl`), a link opens it, so the code can
 * be read. Errors use spec §8's words; a session-expired notice left by the app is shown above the
 * form. Already signed in (and not just expired) -> straight to /chats.
 */
import { useEffect, useRef, useState, type FormEvent } from 'react';
import { useLocation, useNavigate } from 'react-router-dom';
import { getIdToken } from '../../../lib/auth.ts';
import { GOOGLE_UNAVAILABLE_MESSAGE, requestEmailCode, signInWithPassword, startGoogleSignIn, verifyEmailCode } from '../../../lib/auth-signin.ts';
import { getConfig } from '../../../lib/config.ts';
import { clearLoginNotice, peekLoginNotice } from '../../../app/sessionExpiry.ts';
import './login.css';

type CodeStep = { email: string; expiresAt: number; resendAt: number };

/** Seconds left until `at` (epoch ms), never negative. */
const secondsUntil = (at: number, now: number) => Math.max(0, Math.ceil((at - now) / 1000));

export function LoginPage() {
  const navigate = useNavigate();
  const location = useLocation();
  const config = getConfig();
  const [notice] = useState(() => peekLoginNotice());
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [code, setCode] = useState('');
  const [step, setStep] = useState<CodeStep | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState<null | 'password' | 'code' | 'verify' | 'google'>(null);
  const [now, setNow] = useState(() => Date.now());
  const emailRef = useRef<HTMLInputElement>(null);
  const codeRef = useRef<HTMLInputElement>(null);

  const target = (location.state as { from?: string } | null)?.from;
  const afterSignIn = target && target.startsWith('/') && !target.startsWith('/login') ? target : '/chats';

  useEffect(() => {
    clearLoginNotice();
    if (notice) return; // the session just expired: let the person sign in again
    let cancelled = false;
    void getIdToken().then(
      (token) => {
        if (token && !cancelled) navigate('/chats', { replace: true });
      },
      () => undefined, // the server is unreachable: stay on the login page
    );
    return () => {
      cancelled = true;
    };
  }, [navigate, notice]);

  // the resend countdown ticks only while the code step is shown
  useEffect(() => {
    if (!step) return;
    const t = window.setInterval(() => setNow(Date.now()), 1000);
    return () => window.clearInterval(t);
  }, [step]);

  useEffect(() => {
    if (step) codeRef.current?.focus();
  }, [step]);

  async function onPassword(e: FormEvent) {
    e.preventDefault();
    if (busy) return;
    const trimmed = email.trim();
    if (!trimmed || !password) {
      setError('Please enter your email and password.');
      (trimmed ? null : emailRef.current)?.focus();
      return;
    }
    setBusy('password');
    setError(null);
    const out = await signInWithPassword(trimmed, password);
    setBusy(null);
    if (out.ok) navigate(afterSignIn, { replace: true });
    else setError(out.message);
  }

  async function sendCode(to: string) {
    if (busy) return;
    const trimmed = to.trim();
    if (!/^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(trimmed)) {
      setError('Please enter your email address to get a code.');
      emailRef.current?.focus();
      return;
    }
    setBusy('code');
    setError(null);
    const out = await requestEmailCode(trimmed);
    setBusy(null);
    if (!out.ok) return setError(out.message);
    setCode('');
    setNow(Date.now());
    setStep({ email: out.email, expiresAt: out.expiresAt, resendAt: out.resendAt || Date.now() + 60_000 });
  }

  async function onVerify(e: FormEvent) {
    e.preventDefault();
    if (busy || !step) return;
    if (!/^\d{6}$/.test(code.replace(/\s+/g, ''))) {
      setError('Please enter the 6-digit code from the email.');
      codeRef.current?.focus();
      return;
    }
    setBusy('verify');
    setError(null);
    const out = await verifyEmailCode(code);
    setBusy(null);
    if (out.ok) return navigate(afterSignIn, { replace: true });
    setError(out.message);
    if (out.restart) setStep((s) => (s ? { ...s, expiresAt: 0 } : s));
    setCode('');
    codeRef.current?.focus();
  }

  async function onGoogle() {
    if (busy || !config.oauth) return;
    setBusy('google');
    setError(null);
    const out = await startGoogleSignIn();
    if (!out.ok) {
      setBusy(null);
      setError(out.message);
    }
  }

  const outbox = config.localOutboxUrl ? (
    <p className="login-outbox small">
      Running locally: emails are not sent. Read them in the{' '}
      <a href={config.localOutboxUrl} target="_blank" rel="noreferrer" data-testid="login-outbox-link">
        local outbox
      </a>
      .
    </p>
  ) : null;

  const brand = (
    <div className="login-brand">
      <div className="brand-mark" aria-hidden="true">
        C
      </div>
      <div>
        <h1 id="login-title">Sign in to Chorus</h1>
        <p className="muted">The shared inbox for your team’s WhatsApp numbers.</p>
      </div>
    </div>
  );

  const errorBox = error && (
    <p className="login-error" id="login-error" role="alert" data-testid="login-error">
      {error}
    </p>
  );

  if (step) {
    const resendIn = secondsUntil(step.resendAt, now);
    const dead = step.expiresAt > 0 && step.expiresAt <= now;
    return (
      <div className="login">
        <form className="login-card" onSubmit={onVerify} noValidate aria-labelledby="login-title" data-testid="login-code-step">
          {brand}
          <p className="login-notice" role="status" data-testid="login-code-sent">
            We sent a sign-in code to <strong>{step.email}</strong>. {dead ? 'That code no longer works: ask for a new one.' : 'It works for 10 minutes, once.'}
          </p>
          <label className="field">
            <span>Code</span>
            <input
              ref={codeRef}
              data-testid="login-code"
              name="one-time-code"
              autoComplete="one-time-code"
              inputMode="numeric"
              pattern="[0-9]*"
              maxLength={7}
              value={code}
              onChange={(e) => setCode(e.target.value)}
              aria-invalid={error ? true : undefined}
              aria-describedby={error ? 'login-error' : undefined}
            />
          </label>
          {errorBox}
          <button className="btn btn-primary btn-block" type="submit" data-testid="login-verify" disabled={!!busy} aria-busy={busy === 'verify' || undefined}>
            {busy === 'verify' ? 'Checking…' : 'Verify and sign in'}
          </button>
          <div className="login-row">
            <button className="btn btn-ghost" type="button" data-testid="login-resend" disabled={!!busy || resendIn > 0} onClick={() => void sendCode(step.email)}>
              {busy === 'code' ? 'Sending…' : resendIn > 0 ? `Send a new code in ${resendIn} s` : 'Send a new code'}
            </button>
            <button
              className="btn btn-ghost"
              type="button"
              data-testid="login-change-email"
              onClick={() => {
                setStep(null);
                setError(null);
              }}
            >
              Use a different email
            </button>
          </div>
          {outbox}
        </form>
      </div>
    );
  }

  return (
    <div className="login">
      <form className="login-card" onSubmit={onPassword} noValidate aria-labelledby="login-title">
        {brand}
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
        {errorBox}
        <button className="btn btn-primary btn-block" type="submit" data-testid="login-submit" disabled={!!busy} aria-busy={busy === 'password' || undefined}>
          {busy === 'password' ? 'Signing in…' : 'Sign in with password'}
        </button>
        <div className="login-divider" role="separator">
          <span>or</span>
        </div>
        <button className="btn btn-block" type="button" data-testid="login-send-code" disabled={!!busy} aria-busy={busy === 'code' || undefined} onClick={() => void sendCode(email)}>
          {busy === 'code' ? 'Sending code…' : 'Email me a code'}
        </button>
        <button
          className="btn btn-block login-google"
          type="button"
          data-testid="login-google"
          disabled={!config.oauth || !!busy}
          aria-describedby={config.oauth ? undefined : 'login-google-help'}
          onClick={() => void onGoogle()}
        >
          <span aria-hidden="true" className="login-google-mark">
            G
          </span>
          {busy === 'google' ? 'Opening Google…' : 'Continue with Google'}
        </button>
        {!config.oauth && (
          <p className="muted small login-help" id="login-google-help" data-testid="login-google-help">
            {GOOGLE_UNAVAILABLE_MESSAGE}.
          </p>
        )}
        {outbox}
      </form>
    </div>
  );
}
