import type { APIGatewayProxyResultV2 } from 'aws-lambda';
import { verifyIdToken } from '../../shared/auth/jwt.ts';
import { resolveActor } from '../../shared/auth/actor.ts';
import { addConnection } from '../../shared/realtime/connections.ts';
import { isAppError } from '../../shared/errors.ts';
import { log } from '../../shared/log.ts';

/**
 * WebSocket `$connect`: `?token=<Cognito ID token>&org_id=<org>`. The token is verified against
 * the pool's JWKS and membership of the org checked; otherwise 401/404 and the socket is refused.
 */
export const handler = async (event: {
  requestContext: { connectionId: string };
  queryStringParameters?: Record<string, string | undefined>;
}): Promise<APIGatewayProxyResultV2> => {
  try {
    const q = event.queryStringParameters ?? {};
    const claims = await verifyIdToken(q.token);
    if (!q.org_id) return { statusCode: 400, body: 'org_id is required' };
    const actor = await resolveActor(claims, q.org_id);
    await addConnection(actor, event.requestContext.connectionId);
    return { statusCode: 200, body: 'connected' };
  } catch (e) {
    if (isAppError(e)) return { statusCode: e.status, body: e.message };
    log('error', 'ws.connect_failed', { error: String(e) });
    return { statusCode: 500, body: 'error' };
  }
};
