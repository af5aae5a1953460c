/**
 * Single active session (spec §2 blocking screens, §4 'Session'; issue 3 item 7), pure parts
 * shared by the socket handler (shared/realtime/session.ts) and the web app.
 *
 * A **session** is one browser: a random id kept in localStorage (web/src/app/activeSession.ts),
 * so the tabs of one browser are one session (like WhatsApp Web, a second tab does not lock the
 * first one out), while another browser, profile or device is another session. Each socket
 * carries its session at `$connect` (`?session_id=`). One session per user is active (a table item
 * per user): the newest one opened, until another one claims.
 *
 * Client -> server frames (WebSocket `$default`):
 *   `{ "type": "session.claim" }`  make this socket's session the active one (first socket of a
 *                                   page load, and 'Switch here');
 *   `{ "type": "session.check" }`  ask whether it is active (later sockets of a page: reconnects,
 *                                   workspace switches); with no active session yet it claims.
 * Server -> client:
 *   `{ "type": "session.active",   "properties": { session_id, claimed_at } }` to the sockets of
 *     the active session;
 *   `{ "type": "session.replaced", "properties": { session_id, claimed_at } }` to sockets of other
 *     sessions of the same user (session_id = the one now active).
 * `claimed_at` is epoch ms (server clock) of the claim a message reports; a client applies a
 * message only when its `claimed_at` is not older than the last one it applied
 * ({@link applySessionMessage}), so two claims crossing in flight settle on the later one.
 */
import { z } from 'zod';

/** A session id: 8-64 characters of [A-Za-z0-9_-] (the web app sends a random UUID). */
export const SessionId = z.string().regex(/^[A-Za-z0-9_-]{8,64}$/, 'must be 8-64 letters, digits, - or _');

/** A session frame from a client. */
export const SessionFrame = z.object({ type: z.enum(['session.claim', 'session.check']) });
export type SessionFrame = z.infer<typeof SessionFrame>;

/** What the server pushes about the active session. */
export interface SessionMessage {
  type: 'session.active' | 'session.replaced';
  properties: { session_id: string; claimed_at: number };
}

/** Parse a raw client frame: a session frame, or null for anything else (typing, pings…). */
export function parseSessionFrame(body: string | null | undefined): SessionFrame | null {
  let json: unknown;
  try {
    json = JSON.parse(body ?? '');
  } catch {
    return null;
  }
  const r = SessionFrame.safeParse(json);
  return r.success ? r.data : null;
}

type Conn = { connection_id: string; session_id?: string | null; expires_at?: number | null };

/**
 * Split a user's live connections by the active session: `active` ones get session.active, the
 * others session.replaced. Connections without a session id (clients that predate sessions) and
 * expired rows (TTL not swept yet; `nowS` epoch seconds) are left out.
 */
export function sessionTargets<C extends Conn>(connections: C[], activeSessionId: string, nowS: number): { active: C[]; replaced: C[] } {
  const live = connections.filter((c) => !!c.session_id && (c.expires_at == null || c.expires_at >= nowS));
  return { active: live.filter((c) => c.session_id === activeSessionId), replaced: live.filter((c) => c.session_id !== activeSessionId) };
}

/** What a client knows about its session: unknown until the first answer. */
export interface ClientSessionState {
  status: 'unknown' | 'active' | 'replaced';
  /** epoch ms of the claim last applied (0 = none) */
  claimedAt: number;
}

/**
 * Apply a server message to the client state: a message older than the last applied claim is
 * ignored (crossing claims settle on the later one); otherwise it decides the status.
 */
export function applySessionMessage(state: ClientSessionState, msg: { type: string; properties?: { claimed_at?: unknown } }): ClientSessionState {
  if (msg.type !== 'session.active' && msg.type !== 'session.replaced') return state;
  const at = typeof msg.properties?.claimed_at === 'number' ? msg.properties.claimed_at : 0;
  if (at < state.claimedAt) return state;
  return { status: msg.type === 'session.active' ? 'active' : 'replaced', claimedAt: at };
}
