/**
 * This browser's session for the single active session rule (spec §2/§4; protocol in
 * shared/realtime/session.rules.ts). A small store outside React, so it outlives workspace
 * switches (each org has its own socket):
 * - the session id is a random UUID in localStorage, so every tab of this browser is the same
 *   session (a second tab never locks out the first; another browser or device does);
 * - the first socket of a page load claims (`session.claim`): opening Chorus makes this browser
 *   the active session; later sockets (reconnects, workspace switches) only `session.check`;
 * - `session.replaced` / `session.active` pushed by the server set the status; the app shows the
 *   'logged in in more than one session' screen while replaced, and `claimHere` (Switch here)
 *   claims again over the socket. No polling.
 */
import { useSyncExternalStore } from 'react';
import { applySessionMessage, type ClientSessionState } from '#shared/realtime/session.rules.ts';

const SESSION_KEY = 'chorus.session_id';

let id: string | null = null;
let state: ClientSessionState = { status: 'unknown', claimedAt: 0 };
let claimedThisPage = false;
let sender: ((frame: unknown) => boolean) | null = null;
const listeners = new Set<() => void>();

const randomId = (): string => (typeof crypto.randomUUID === 'function' ? crypto.randomUUID() : Array.from(crypto.getRandomValues(new Uint8Array(16)), (b) => b.toString(16).padStart(2, '0')).join(''));

/** This browser's session id (created on first use; kept in localStorage when it works). */
export function sessionId(): string {
  if (id) return id;
  try {
    id = localStorage.getItem(SESSION_KEY);
    if (!id) {
      id = randomId();
      localStorage.setItem(SESSION_KEY, id);
    }
  } catch {
    id ??= randomId();
  }
  return id;
}

function set(next: ClientSessionState): void {
  if (next === state) return;
  state = next;
  for (const l of listeners) l();
}

/**
 * A socket of this page opened: remember how to send on it and claim (first socket of the page)
 * or check. @returns a function that forgets the socket (call it when the socket stops)
 */
export function attachSocket(send: (frame: unknown) => boolean): () => void {
  sender = send;
  const sent = send({ type: claimedThisPage ? 'session.check' : 'session.claim' });
  if (sent) claimedThisPage = true;
  return () => {
    if (sender === send) sender = null;
  };
}

/** Apply a pushed frame; @returns true when it was a session message (nothing else to do with it). */
export function handleSessionEvent(ev: { type: string; properties?: Record<string, unknown> }): boolean {
  if (ev.type !== 'session.active' && ev.type !== 'session.replaced') return false;
  set(applySessionMessage(state, ev as { type: string; properties?: { claimed_at?: unknown } }));
  return true;
}

/** Switch here: claim the session for this browser. @returns false when no socket is open to send it on */
export function claimHere(): boolean {
  return sender?.({ type: 'session.claim' }) ?? false;
}

/** Forget the session (sign-out): the next sign-in in this browser starts a new one. */
export function resetActiveSession(): void {
  id = null;
  claimedThisPage = false;
  sender = null;
  set({ status: 'unknown', claimedAt: 0 });
}

const subscribe = (l: () => void) => {
  listeners.add(l);
  return () => {
    listeners.delete(l);
  };
};

/** The session status for React: 'unknown' | 'active' | 'replaced', and when the deciding claim was made (epoch ms). */
export function useActiveSession(): ClientSessionState {
  return useSyncExternalStore(subscribe, () => state);
}
