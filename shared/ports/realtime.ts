import { ApiGatewayManagementApiClient, PostToConnectionCommand, GoneException } from '@aws-sdk/client-apigatewaymanagementapi';
import { config } from '../config.ts';

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
  client ??= new ApiGatewayManagementApiClient({ region: config().AWS_REGION, endpoint: config().WS_MANAGEMENT_URL });
  try {
    await client.send(new PostToConnectionCommand({ ConnectionId: connectionId, Data: Buffer.from(JSON.stringify(data)) }));
    return 'ok';
  } catch (e) {
    if (e instanceof GoneException || (e as { name?: string }).name === 'GoneException' || (e as { $metadata?: { httpStatusCode?: number } }).$metadata?.httpStatusCode === 410) return 'gone';
    throw e;
  }
}

/** Forget the client (after the local runtime sets WS_MANAGEMENT_URL). */
export function resetRealtimeClient(): void {
  client = undefined;
}
