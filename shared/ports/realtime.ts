import { ApiGatewayManagementApiClient, DeleteConnectionCommand, PostToConnectionCommand, GoneException } from '@aws-sdk/client-apigatewaymanagementapi';
import { config } from '../config.ts';
import { traced } from '../tracing.ts';

/**
 * Push to a WebSocket connection through API Gateway's management API (PostToConnection).
 * The local gateway serves the same API at `WS_MANAGEMENT_URL`, so this code is identical in both runtimes.
 */
let client: ApiGatewayManagementApiClient | undefined;

/**
 * @returns 'ok', or 'gone' when the connection no longer exists (caller deletes it)
 * @throws other transport errors (the consumer retries)
 */
export async function postToConnection(connectionId: string, data: unknown): Promise<'ok' | 'gone'> {
  client ??= traced(new ApiGatewayManagementApiClient({ region: config().AWS_REGION, endpoint: config().WS_MANAGEMENT_URL }));
  try {
    await client.send(new PostToConnectionCommand({ ConnectionId: connectionId, Data: Buffer.from(JSON.stringify(data)) }));
    return 'ok';
  } catch (e) {
    if (isGone(e)) return 'gone';
    throw e;
  }
}

const isGone = (e: unknown) => e instanceof GoneException || (e as { name?: string }).name === 'GoneException' || (e as { $metadata?: { httpStatusCode?: number } }).$metadata?.httpStatusCode === 410;

/**
 * Close a WebSocket connection from the server side (API Gateway DeleteConnection; the local
 * gateway serves the same call). The gateway then runs `$disconnect` for it.
 * @returns 'closed', 'gone' when it no longer exists, or 'unavailable' when this function has no
 *   management endpoint (`WS_MANAGEMENT_URL` unset: a function not granted ManageConnections)
 * @throws other transport errors
 */
export async function closeConnection(connectionId: string): Promise<'closed' | 'gone' | 'unavailable'> {
  if (!config().WS_MANAGEMENT_URL) return 'unavailable';
  client ??= traced(new ApiGatewayManagementApiClient({ region: config().AWS_REGION, endpoint: config().WS_MANAGEMENT_URL }));
  try {
    await client.send(new DeleteConnectionCommand({ ConnectionId: connectionId }));
    return 'closed';
  } catch (e) {
    if (isGone(e)) return 'gone';
    throw e;
  }
}

/** Forget the client (after the local runtime sets WS_MANAGEMENT_URL). */
export function resetRealtimeClient(): void {
  client = undefined;
}
