import { removeConnection } from '../../shared/realtime/connections.ts';
import { observedLambda } from '../lib/powertools.ts';

/** WebSocket `$disconnect`: forget the connection. */
export const handler = observedLambda(async (event: { requestContext: { connectionId: string } }) => {
  await removeConnection(event.requestContext.connectionId);
  return { statusCode: 200, body: 'bye' };
});
