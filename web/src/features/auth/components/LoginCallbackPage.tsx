/**
 * /login/callback: where the Cognito hosted UI (Google sign-in) returns. Amplify's OAuth listener
 * (imported in lib/auth.ts) exchanges the `code` for tokens; this page waits for its Hub event:
 * success -> /chats; failure, or an `error` the hosted UI put in the URL -> the reason in words with
 * a way back to /login. Without a code or error in the URL it just checks for a session.
 */
import { useEffect, useState } from 'react';
import { Link, useNavigate } from 'react-router-dom';
import { Hub } from 'aws-amplify/utils';
import { getIdToken, SIGN_IN_FAILED_MESSAGE } from '../../../lib/auth.ts';
import { FullScreenMessage } from '../../../app/pages/FullScreenMessage.tsx';

/** How long the code exchange may take before the page says it did not finish (ms). */
const EXCHANGE_TIMEOUT_MS = 20_000;

/** The hosted UI's error in words (`error_description` is Cognito's own text, often from a trigger). */
function describe(error: string, description: string | null): string {
  const text = (description ?? '').replace(/\+/g, ' ').trim();
  if (error === 'access_denied') return `${SIGN_IN_FAILED_MESSAGE} Google sign-in was cancelled or refused${text ? `: ${text}` : '.'}`;
  return `${SIGN_IN_FAILED_MESSAGE} ${text || `The sign-in service answered "${error}".`}`;
}

export function LoginCallbackPage() {
  const navigate = useNavigate();
  const [failure, setFailure] = useState<string | null>(null);

  useEffect(() => {
    const params = new URLSearchParams(window.location.search);
    const error = params.get('error');
    if (error) {
      setFailure(describe(error, params.get('error_description')));
      return;
    }
    let done = false;
    const finish = (token: string | null) => {
      if (done) return;
      done = true;
      if (token) navigate('/chats', { replace: true });
      else if (!params.get('code')) navigate('/login', { replace: true });
      else setFailure(`${SIGN_IN_FAILED_MESSAGE} The sign-in did not complete. Please try again.`);
    };
    const stop = Hub.listen('auth', ({ payload }) => {
      if (payload.event === 'signInWithRedirect') void getIdToken().catch(() => null).then(finish);
      if (payload.event === 'signInWithRedirect_failure') {
        done = true;
        const message = (payload.data as { error?: { message?: string } } | undefined)?.error?.message;
        setFailure(`${SIGN_IN_FAILED_MESSAGE}${message ? ` ${message}` : ''}`);
      }
    });
    // no code to exchange (or it was exchanged before this page mounted): decide from the session
    if (!params.get('code')) void getIdToken().catch(() => null).then(finish);
    const timer = window.setTimeout(() => void getIdToken().catch(() => null).then(finish), EXCHANGE_TIMEOUT_MS);
    return () => {
      stop();
      window.clearTimeout(timer);
    };
  }, [navigate]);

  if (failure)
    return (
      <FullScreenMessage title="Sign-in did not work" body={failure}>
        <Link className="btn btn-primary" to="/login" replace data-testid="login-callback-back">
          Back to sign in
        </Link>
      </FullScreenMessage>
    );
  return <FullScreenMessage title="Signing you in…" busy />;
}
