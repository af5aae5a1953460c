import { db } from '../db/service.ts';
import { orgScope, orgScopeOfPk, scopedReadCache } from '../db/read-cache.ts';
import { closeConnection, postToConnection } from '../ports/realtime.ts';
import type { Actor } from '../auth/actor.ts';
import { log } from '../log.ts';

/** WebSocket connection bookkeeping and fan-out (architecture §5 Realtime). */

/**
 * Store a connection of a member (after $connect verified the token and membership).
 * @param sessionId the browser session of the socket (shared/realtime/session.rules.ts), if sent
 */
export async function addConnection(actor: Actor, connectionId: string, sessionId?: string): Promise<void> {
  await db().entities.connection.put({ org_id: actor.org_id, connection_id: connectionId, email: actor.email, user_id: actor.user_id, ...(sessionId ? { session_id: sessionId } : {}) }).go();
}

/** Forget a connection ($disconnect): found by id through the byConnection index. */
export async function removeConnection(connectionId: string): Promise<void> {
  const rows = (await db().entities.connection.query.byConnection({ connection_id: connectionId }).go()).data;
  await Promise.all(rows.map((r) => db().entities.connection.delete({ org_id: r.org_id, connection_id: r.connection_id }).go()));
}

/**
 * Drop every connection of a member of an org at once (they were removed, spec §4 team): the rows
 * are deleted, so no fan-out or typing relay finds them again, and each socket is closed through the
 * gateway when this function may (closeConnection; a close that fails is logged, the row is gone
 * anyway and the fan-out refuses non-members in any case). Connections in other orgs stay.
 * @param email the member's email (any case)
 * @returns how many connections were dropped
 * @throws table errors
 */
export async function dropMemberConnections(orgId: string, email: string): Promise<number> {
  const lower = email.toLowerCase();
  const rows = (await listOrgConnections(orgId)).filter((r) => (r.email ?? '').toLowerCase() === lower);
  await Promise.all(
    rows.map(async (r) => {
      await db().entities.connection.delete({ org_id: r.org_id, connection_id: r.connection_id }).go();
      const outcome = await closeConnection(r.connection_id).catch((e: unknown) => {
        log('warn', 'realtime.close_failed', { connection_id: r.connection_id, error: String(e) });
        return 'failed';
      });
      log('info', 'realtime.member_connection_dropped', { org_id: orgId, connection_id: r.connection_id, outcome });
    }),
  );
  return rows.length;
}

type ConnectionRow = { org_id: string; connection_id: string; email?: string; expires_at?: number };

/**
 * An org's connection rows, kept per process while it is the table's only writer (the local
 * runtime; shared/db/read-cache.ts): any write of a connection row of the org forgets them. The
 * socket fan-out read them once per batch (issue 17 bench:rules: ~1 Query per batch, ~900 in 20 s,
 * each waiting its turn on DynamoDB Local's one SQLite thread). Off in AWS.
 */
const connectionRows = scopedReadCache<ConnectionRow[]>({ scopeOf: (key) => (key.sk.startsWith('$connection_1#') ? orgScopeOfPk(key.pk) : null), maxScopes: 1_000, maxKeysPerScope: 1 });

/** Live connections of an org (index byOrg; cached in single-writer mode, see connectionRows). Callers must not mutate the rows. */
export async function listOrgConnections(orgId: string): Promise<ConnectionRow[]> {
  const load = async () => (await db().entities.connection.query.byOrg({ org_id: orgId }).go({ pages: 'all' })).data;
  const scope = orgScope(orgId);
  return scope ? connectionRows.get(scope, 'all', load) : load();
}

/**
 * Push `data` to every live connection of the org's members. Expired rows (TTL not yet swept)
 * are skipped; gone connections are deleted.
 * @param known the org's connections when the caller already read them
 * @returns how many connections received it
 */
export async function broadcastToOrg(orgId: string, data: unknown, known?: ConnectionRow[]): Promise<number> {
  const rows = known ?? (await listOrgConnections(orgId));
  const nowS = Math.floor(Date.now() / 1000);
  let sent = 0;
  await Promise.all(
    rows.map(async (r) => {
      if (r.expires_at != null && r.expires_at < nowS) {
        await db().entities.connection.delete({ org_id: r.org_id, connection_id: r.connection_id }).go();
        return;
      }
      const outcome = await postToConnection(r.connection_id, data);
      if (outcome === 'gone') {
        log('info', 'realtime.gone', { connection_id: r.connection_id });
        await db().entities.connection.delete({ org_id: r.org_id, connection_id: r.connection_id }).go();
      } else sent++;
    }),
  );
  return sent;
}
