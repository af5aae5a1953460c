/**
 * WebSocket `$default`: clients only send keep-alive pings (`{"type":"ping"}`); nothing to do.
 * Client-to-server actions (typing) arrive in a later issue.
 */
export const handler = async () => ({ statusCode: 200, body: '' });
