import type { APIGatewayProxyResultV2 } from 'aws-lambda';
import { verifyIdToken } from '../../shared/auth/jwt.ts';
import { resolveActor } from '../../shared/auth/actor.ts';
import { addConnection } from '../../shared/realtime/connections.ts';
import { SessionId } from '../../shared/realtime/session.rules.ts';
import { isAppError } from '../../shared/errors.ts';
import { log } from '../../shared/log.ts';
import { observedLambda } from '../lib/powertools.ts';

/**
 * WebSocket `$connect`: `?token=<Cognito ID token>&org_id=<org>[&session_id=<browser session>]`.
 * The token is verified against the pool's JWKS and membership of the org checked; otherwise
 * 401/404 and the socket is refused. `session_id` (optional, shared/realtime/session.rules.ts
 * SessionId; 400 when malformed) ties the socket to its browser session for the single active
 * session rule.
 */
export const handler = observedLambda(async (event: {
  requestContext: { connectionId: string };
  queryStringParameters?: Record<string, string | undefined>;
}): Promise<APIGatewayProxyResultV2> => {
  try {
    const q = event.queryStringParameters ?? {};
    const claims = await verifyIdToken(q.token);
    if (!q.org_id) return { statusCode: 400, body: 'org_id is required' };
    const session = q.session_id === undefined ? undefined : SessionId.safeParse(q.session_id);
    if (session && !session.success) return { statusCode: 400, body: `session_id: ${session.error.issues[0]?.message ?? 'invalid'}` };
    const actor = await resolveActor(claims, q.org_id);
    await addConnection(actor, event.requestContext.connectionId, session?.data);
    return { statusCode: 200, body: 'connected' };
  } catch (e) {
    if (isAppError(e)) return { statusCode: e.status, body: e.message };
    log('error', 'ws.connect_failed', { error: String(e) });
    return { statusCode: 500, body: 'error' };
  }
});
