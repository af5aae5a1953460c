import { db } from '../db/service.ts';
import { postToConnection } from '../ports/realtime.ts';
import { log } from '../log.ts';
import { sessionTargets, type SessionFrame, type SessionMessage } from './session.rules.ts';

/**
 * Single active session over the WebSocket API (spec §2/§4; protocol and the meaning of a session
 * in session.rules.ts). The socket's session id was stored on its Connection row at `$connect`;
 * the active one is an ActiveSession item per user. No polling: a claim pushes `session.replaced`
 * to the user's sockets of other sessions (in every org, index byUser) and `session.active` to the
 * sockets of the claiming session.
 */

/** Why a frame had no effect (for logs and tests). */
export type SessionOutcome =
  | { status: 'active' | 'replaced'; session_id: string; claimed_at: number; notified: number }
  | { ignored: 'unknown_connection' | 'no_session' };

type ConnRow = { org_id: string; connection_id: string; email: string; session_id?: string; expires_at?: number };

async function post(c: ConnRow, message: SessionMessage): Promise<number> {
  try {
    if ((await postToConnection(c.connection_id, message)) === 'ok') return 1;
    await db().entities.connection.delete({ org_id: c.org_id, connection_id: c.connection_id }).go();
  } catch (e) {
    log('warn', 'realtime.session_post_failed', { connection_id: c.connection_id, error: String(e) });
  }
  return 0;
}

/**
 * Handle a `session.claim` / `session.check` frame of the WebSocket `$default` route.
 * - claim: the sender's session becomes the user's active one (`claimed_at` = `nowMs`); the user's
 *   other sessions' sockets get `session.replaced`, this session's sockets `session.active`;
 * - check: answers the sender alone with `session.active` or `session.replaced` for the current
 *   claim; when the user has no active session yet it claims.
 * @param connectionId API Gateway connection id of the sender
 * @param nowMs epoch ms (injectable for tests)
 * @returns the sender session's status and how many sockets were told, or why it was ignored
 *   (an unknown connection, or a socket opened without `session_id`)
 * @throws table errors; delivery errors to one socket are logged and skipped, gone ones deleted
 */
export async function handleSessionFrame(connectionId: string, frame: SessionFrame, nowMs: number = Date.now()): Promise<SessionOutcome> {
  const me = (await db().entities.connection.query.byConnection({ connection_id: connectionId }).go()).data[0] as ConnRow | undefined;
  if (!me) return { ignored: 'unknown_connection' };
  if (!me.session_id) return { ignored: 'no_session' };
  const email = me.email.toLowerCase();

  if (frame.type === 'session.check') {
    const active = (await db().entities.activeSession.get({ email }).go()).data;
    if (active) {
      const type = active.session_id === me.session_id ? 'session.active' : 'session.replaced';
      const notified = await post(me, { type, properties: { session_id: active.session_id, claimed_at: active.claimed_at } });
      return { status: type === 'session.active' ? 'active' : 'replaced', session_id: active.session_id, claimed_at: active.claimed_at, notified };
    }
  }

  await db().entities.activeSession.put({ email, session_id: me.session_id, claimed_at: nowMs, connection_id: connectionId }).go();
  const connections = (await db().entities.connection.query.byUser({ email: me.email }).go({ pages: 'all' })).data as ConnRow[];
  // the sender may not be listed yet by the index (eventually consistent): it is told in any case
  if (!connections.some((c) => c.connection_id === connectionId)) connections.push(me);
  const { active, replaced } = sessionTargets(connections, me.session_id, Math.floor(nowMs / 1000));
  const properties = { session_id: me.session_id, claimed_at: nowMs };
  const sent = await Promise.all([
    ...active.map((c) => post(c, { type: 'session.active', properties })),
    ...replaced.map((c) => post(c, { type: 'session.replaced', properties })),
  ]);
  if (replaced.length) log('info', 'realtime.session_replaced', { email, session_id: me.session_id, replaced: replaced.length });
  return { status: 'active', session_id: me.session_id, claimed_at: nowMs, notified: sent.reduce((a, b) => a + b, 0) };
}
