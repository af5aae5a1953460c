import { removeConnection } from '../../shared/realtime/connections.ts';

/** WebSocket `$disconnect`: forget the connection. */
export const handler = async (event: { requestContext: { connectionId: string } }) => {
  await removeConnection(event.requestContext.connectionId);
  return { statusCode: 200, body: 'bye' };
};
