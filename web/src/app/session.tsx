/**
 * The signed-in session: `RequireAuth` guards the app routes (no ID token → /login), loads
 * `GET /api/me` and picks the organization (the one remembered in localStorage, else the first).
 * Children read it with `useSession()`: user, orgs, current org, `switchOrg`, `signOut`.
 */
import { createContext, lazy, Suspense, useCallback, useContext, useEffect, useMemo, useState } from 'react';
import { Navigate, Outlet, useLocation, useNavigate } from 'react-router-dom';
import type { MeResponse } from '#shared/me.schemas.ts';
import { api, errorMessage } from '../lib/api.ts';
import { getIdToken, LOGOUT_FAILED_MESSAGE } from '../lib/auth.ts';
import { signOutFlow } from './signOut.ts';
import { useToast } from './toast.tsx';
import { FullScreenMessage } from './pages/FullScreenMessage.tsx';

export type MeOrg = MeResponse['orgs'][number];

// first-organization setup only (it bundles the phone-number rules of libphonenumber-js)
// issue 22 (bundle budget): only invited users see Join workspace
const JoinWorkspacePage = lazy(() => import('../features/settings/workspace/JoinWorkspacePage.tsx').then((m) => ({ default: m.JoinWorkspacePage })));
const OrgSetupForm = lazy(() => import('../features/settings/workspace/OrgSetupForm.tsx').then((m) => ({ default: m.OrgSetupForm })));

export interface Session {
  user: MeResponse['user'];
  orgs: MeOrg[];
  org: MeOrg;
  switchOrg: (orgId: string) => void;
  /** Load GET /api/me again and open `orgId` (after creating or joining a workspace), without reloading the page. */
  openOrg: (orgId: string) => Promise<void>;
  signOut: () => Promise<void>;
  /** Help > Refresh data: load GET /api/me again and restart the org's live state (lists, socket) without reloading the page. */
  refresh: () => Promise<void>;
  /** bumped by `refresh`; the shell keys the org's providers with it */
  generation: number;
}

const ORG_KEY = 'chorus.org_id';
const SessionContext = createContext<Session | null>(null);

export function useSession(): Session {
  const s = useContext(SessionContext);
  if (!s) throw new Error('useSession outside RequireAuth');
  return s;
}

function rememberedOrg(orgs: MeOrg[]): MeOrg | undefined {
  let id: string | null = null;
  try {
    id = localStorage.getItem(ORG_KEY);
  } catch {
    id = null;
  }
  return orgs.find((o) => o.org_id === id) ?? orgs[0];
}

/** Sign out (spec §4, app/signOut.ts), reporting spec §8's 'Logout failed! Please try again' when it fails. */
export function useSignOut(): () => Promise<void> {
  const navigate = useNavigate();
  const toast = useToast();
  return useCallback(async () => {
    const ok = await signOutFlow();
    if (!ok) {
      toast.show(LOGOUT_FAILED_MESSAGE, 'error');
      return;
    }
    navigate('/login', { replace: true });
  }, [navigate, toast]);
}

type State = { kind: 'checking' } | { kind: 'anonymous' } | { kind: 'error'; message: string } | { kind: 'ready'; me: MeResponse };

export function RequireAuth() {
  const location = useLocation();
  const navigate = useNavigate();
  const signOut = useSignOut();
  const [state, setState] = useState<State>({ kind: 'checking' });
  const [orgId, setOrgId] = useState<string | null>(null);
  const [attempt, setAttempt] = useState(0);
  const [generation, setGeneration] = useState(0);

  useEffect(() => {
    let cancelled = false;
    (async () => {
      try {
        // a throw (server unreachable, still signed in) shows the error screen with its retry, not the login page
        const token = await getIdToken();
        if (cancelled) return;
        if (!token) return setState({ kind: 'anonymous' });
        const me = await api.me();
        if (cancelled) return;
        setOrgId(rememberedOrg(me.orgs)?.org_id ?? null);
        setState({ kind: 'ready', me });
      } catch (e) {
        if (!cancelled) setState({ kind: 'error', message: errorMessage(e) });
      }
    })();
    return () => {
      cancelled = true;
    };
  }, [attempt]);

  const switchOrg = useCallback((id: string) => {
    try {
      localStorage.setItem(ORG_KEY, id);
    } catch {
      /* private mode: the choice lasts for this tab only */
    }
    setOrgId(id);
  }, []);

  const openOrg = useCallback(
    async (id: string) => {
      const me = await api.me();
      switchOrg(id);
      setState({ kind: 'ready', me });
      navigate('/chats', { replace: true });
    },
    [switchOrg, navigate],
  );

  const refresh = useCallback(async () => {
    try {
      const me = await api.me();
      setState({ kind: 'ready', me });
    } catch (e) {
      console.error('refresh failed', e);
    }
    setGeneration((g) => g + 1);
  }, []);

  const session = useMemo<Session | null>(() => {
    if (state.kind !== 'ready') return null;
    const org = state.me.orgs.find((o) => o.org_id === orgId) ?? state.me.orgs[0];
    if (!org) return null;
    return { user: state.me.user, orgs: state.me.orgs, org, switchOrg, openOrg, signOut, refresh, generation };
  }, [state, orgId, switchOrg, openOrg, signOut, refresh, generation]);

  if (state.kind === 'checking') return <FullScreenMessage title="Loading Chorus…" busy />;
  if (state.kind === 'anonymous') return <Navigate to="/login" replace state={{ from: location.pathname }} />;
  if (state.kind === 'error')
    return (
      <FullScreenMessage title="Could not load your account" body={state.message}>
        <button type="button" className="btn btn-primary" onClick={() => setAttempt((n) => n + 1)}>
          Retry
        </button>
        <button type="button" className="btn" data-testid="sign-out" onClick={() => void signOut()}>
          Sign out
        </button>
      </FullScreenMessage>
    );
  // spec §4: a pending invite is answered first (Join workspace), then a user without a workspace sets one up (§5)
  const invite = state.me.invites?.[0];
  if (invite)
    return (
      <Suspense fallback={<FullScreenMessage title="Loading Chorus…" busy />}>
        <JoinWorkspacePage key={invite.org_id} invite={invite} onJoined={openOrg} onSignOut={() => void signOut()} />
      </Suspense>
    );
  if (!session)
    return (
      <div className="fullscreen">
        <div className="fullscreen-card" data-testid="org-setup">
          <Suspense fallback={<div className="spinner" aria-hidden="true" />}>
            <OrgSetupForm first onCreated={(o) => openOrg(o.org_id)} />
          </Suspense>
          <p className="muted small">
            Signed in as {state.me.user.email}. Invited to a team? Ask its admin to invite this email, then sign in again.
          </p>
          <button type="button" className="btn btn-ghost" data-testid="sign-out" onClick={() => void signOut()}>
            Sign out
          </button>
        </div>
      </div>
    );
  return (
    <SessionContext.Provider value={session}>
      <Outlet />
    </SessionContext.Provider>
  );
}
