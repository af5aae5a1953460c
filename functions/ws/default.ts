import { handleClientFrame } from '../../shared/realtime/typing.ts';
import { handleSessionFrame } from '../../shared/realtime/session.ts';
import { parseSessionFrame } from '../../shared/realtime/session.rules.ts';
import { log } from '../../shared/log.ts';
import { observedLambda } from '../lib/powertools.ts';

/**
 * WebSocket `$default`: frames sent by clients. Session frames (`{"type":"session.claim"}` /
 * `{"type":"session.check"}`) go to the single active session rule (shared/realtime/session.ts). Typing frames
 * (`{"type":"typing","chat_id":"...","state":"start"|"stop"}`) are relayed to teammates who may see
 * the chat (shared/realtime/typing.ts); keep-alive pings and anything else are ignored.
 * Always answers 200: a failed relay of an ephemeral frame is logged, never surfaced to the client.
 */
export const handler = observedLambda(async (event: { requestContext: { connectionId: string }; body?: string | null; isBase64Encoded?: boolean }) => {
  const body = event.isBase64Encoded && event.body ? Buffer.from(event.body, 'base64').toString('utf8') : event.body;
  try {
    const session = parseSessionFrame(body);
    if (session) {
      const outcome = await handleSessionFrame(event.requestContext.connectionId, session);
      if ('ignored' in outcome) log('debug', 'ws.session_ignored', { reason: outcome.ignored });
      return { statusCode: 200, body: '' };
    }
    const outcome = await handleClientFrame(event.requestContext.connectionId, body);
    if ('ignored' in outcome && outcome.ignored !== 'not_typing' && outcome.ignored !== 'throttled') log('debug', 'ws.typing_ignored', { reason: outcome.ignored });
  } catch (e) {
    log('error', 'ws.default_failed', { error: String(e) });
  }
  return { statusCode: 200, body: '' };
});
