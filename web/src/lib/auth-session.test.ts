import { afterEach, describe, expect, it, vi } from 'vitest';

/**
 * Issue 49 item 9: restarting `npm start` signed everyone out. While the server was down, the
 * socket's reconnects forced a token refresh; Amplify kept the tokens (a network error is not a
 * definitive failure) and threw, getIdToken answered null ("nobody signed in"), and the app ran
 * its session-expired sign-out. Now only a definitive refresh failure answers null.
 */
const fetchAuthSession = vi.fn();
vi.mock('aws-amplify', () => ({ Amplify: { configure: vi.fn() } }));
vi.mock('aws-amplify/auth', () => ({ fetchAuthSession: (o: unknown) => fetchAuthSession(o), signOut: vi.fn() }));
vi.mock('aws-amplify/auth/enable-oauth-listener', () => ({}));

const { getIdToken, AuthUnavailableError } = await import('./auth.ts');
const { RealtimeSocket } = await import('./socket.ts');

const networkError = Object.assign(new Error('Network error'), { name: 'NetworkError' });

afterEach(() => {
  fetchAuthSession.mockReset();
  vi.unstubAllGlobals();
  vi.useRealTimers();
});

describe('getIdToken', () => {
  it('answers the ID token of the session', async () => {
    fetchAuthSession.mockResolvedValue({ tokens: { idToken: { toString: () => 'id.token' } } });
    await expect(getIdToken()).resolves.toBe('id.token');
  });

  it('throws (not null) when the refresh cannot reach the server: the person is still signed in', async () => {
    fetchAuthSession.mockRejectedValue(networkError);
    await expect(getIdToken(true)).rejects.toBeInstanceOf(AuthUnavailableError);
  });

  it('answers null when nobody is signed in or the refresh token is refused', async () => {
    fetchAuthSession.mockResolvedValue({ tokens: undefined });
    await expect(getIdToken()).resolves.toBeNull();
    fetchAuthSession.mockRejectedValue(Object.assign(new Error('Refresh Token has been revoked'), { name: 'TokenRevokedException' }));
    await expect(getIdToken(true)).resolves.toBeNull();
  });
});

describe('RealtimeSocket while the server restarts', () => {
  it('keeps retrying instead of ending the session when no token can be had for now', async () => {
    vi.useFakeTimers();
    vi.stubGlobal('window', { addEventListener: vi.fn(), removeEventListener: vi.fn(), location: { protocol: 'http:', host: '127.0.0.1:3000' } });
    vi.stubGlobal('document', { addEventListener: vi.fn(), removeEventListener: vi.fn(), visibilityState: 'visible' });
    const onAuthLost = vi.fn();
    const getToken = vi.fn(async (force: boolean) => getIdToken(force));
    fetchAuthSession.mockRejectedValue(networkError);
    const socket = new RealtimeSocket({ wsUrl: '/ws', orgId: 'org', getToken, onEvent: vi.fn(), onState: vi.fn(), onReconnected: vi.fn(), onAuthLost });
    socket.start();
    // several attempts, the later ones forcing a refresh, all while the server is down
    for (let i = 0; i < 5; i++) await vi.advanceTimersByTimeAsync(40_000);
    socket.stop();
    expect(getToken.mock.calls.length).toBeGreaterThanOrEqual(4);
    expect(getToken.mock.calls.some(([force]) => force)).toBe(true);
    expect(onAuthLost).not.toHaveBeenCalled();
  });

  it('ends the session when nobody is signed in any more', async () => {
    vi.stubGlobal('window', { addEventListener: vi.fn(), removeEventListener: vi.fn() });
    vi.stubGlobal('document', { addEventListener: vi.fn(), removeEventListener: vi.fn() });
    const onAuthLost = vi.fn();
    const socket = new RealtimeSocket({ wsUrl: '/ws', orgId: 'org', getToken: async () => null, onEvent: vi.fn(), onState: vi.fn(), onReconnected: vi.fn(), onAuthLost });
    socket.start();
    await vi.waitFor(() => expect(onAuthLost).toHaveBeenCalledOnce());
    socket.stop();
  });
});
