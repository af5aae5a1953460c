/** /login/callback: where a hosted sign-in returns. Signed in → /chats, otherwise → /login. */
import { useEffect } from 'react';
import { useNavigate } from 'react-router-dom';
import { getIdToken } from '../lib/auth.ts';
import { FullScreenMessage } from './FullScreenMessage.tsx';

export function LoginCallbackPage() {
  const navigate = useNavigate();
  useEffect(() => {
    let cancelled = false;
    void getIdToken().then((token) => {
      if (!cancelled) navigate(token ? '/chats' : '/login', { replace: true });
    });
    return () => {
      cancelled = true;
    };
  }, [navigate]);
  return <FullScreenMessage title="Signing you in…" busy />;
}
