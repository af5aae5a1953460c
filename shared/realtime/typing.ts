import { z } from 'zod';
import { db } from '../db/service.ts';
import { postToConnection } from '../ports/realtime.ts';
import { canSeeChat, type Viewer } from '../chat/chat-access.rules.ts';
import { TYPING_SERVER_THROTTLE_MS, TypingThrottle } from '../chat/typing.rules.ts';
import { log } from '../log.ts';

/**
 * Typing indicator over the WebSocket API (spec §4 'Typing indicator'). Ephemeral: nothing is
 * stored and nothing goes through EventBridge; the `$default` route posts straight to the other
 * connections (PostToConnection), like broadcastToOrg.
 *
 * Client -> server (a frame on the socket):
 *   `{ "type": "typing", "chat_id": "<chat id>", "state": "start" | "stop" }`
 *   (`{ "type": "ping" }` / `{ "action": "ping" }` keep-alives and anything else are ignored.)
 *
 * Server -> client (to the org's other members who may see the chat, never to the sender's own
 * connections, in any tab):
 *   `{ "type": "chat.typing", "properties": { org_id, chat_id, email, member_name, state, at } }`
 *   where `member_name` is the sender's member name or null and `at` is epoch ms (server clock).
 *   No `metadata`: it is not a domain event and is not in events/catalog.ts.
 *
 * Throttle: a 'start' from the same connection and chat within {@link TYPING_SERVER_THROTTLE_MS}
 * (2 s) of the previous one is dropped; a 'stop' clears it. The map lives in memory, so in Lambda
 * it is per container (a burst spread over containers may pass twice); clients throttle too
 * (one 'start' per 3 s, web/src/chats/useTyping.ts), so this only caps misbehaving clients.
 */

/** A typing frame from a client. */
export const TypingInput = z.object({
  type: z.literal('typing'),
  chat_id: z.string().min(1).max(256),
  state: z.enum(['start', 'stop']),
});
export type TypingInput = z.infer<typeof TypingInput>;

/** What the server pushes to the teammates' sockets. */
export interface ChatTypingMessage {
  type: 'chat.typing';
  properties: {
    org_id: string;
    chat_id: string;
    email: string;
    member_name: string | null;
    state: 'start' | 'stop';
    /** epoch ms */
    at: number;
  };
}

/** Why a frame was not forwarded (for logs and tests). */
export type TypingOutcome =
  | { sent: number }
  | { ignored: 'not_typing' | 'throttled' | 'unknown_connection' | 'no_chat' | 'not_allowed' };

const throttle = new TypingThrottle(TYPING_SERVER_THROTTLE_MS, 10_000);

/**
 * Handle one client frame of the WebSocket `$default` route.
 * @param connectionId API Gateway connection id of the sender
 * @param body the raw frame text (JSON); non-JSON or non-typing frames are ignored
 * @param nowMs epoch ms (injectable for tests)
 * @returns how many connections received the `chat.typing` message, or why it was ignored
 * @throws table errors (reading the connection, chat, members); delivery errors to one
 *   connection are logged and skipped, gone connections are deleted
 */
export async function handleClientFrame(connectionId: string, body: string | null | undefined, nowMs: number = Date.now()): Promise<TypingOutcome> {
  let json: unknown;
  try {
    json = JSON.parse(body ?? '');
  } catch {
    return { ignored: 'not_typing' };
  }
  const parsed = TypingInput.safeParse(json);
  if (!parsed.success) return { ignored: 'not_typing' };
  const { chat_id, state } = parsed.data;

  const key = `${connectionId}:${chat_id}`;
  if (state === 'stop') throttle.reset(key);
  else if (!throttle.allow(key, nowMs)) return { ignored: 'throttled' };

  const sender = (await db().entities.connection.query.byConnection({ connection_id: connectionId }).go()).data[0];
  if (!sender) return { ignored: 'unknown_connection' };
  const orgId = sender.org_id;
  const [chat, members, connections] = await Promise.all([
    db().entities.chat.get({ org_id: orgId, chat_id }).go().then((r) => r.data),
    db().entities.member.query.byOrg({ org_id: orgId }).go({ pages: 'all' }).then((r) => r.data),
    db().entities.connection.query.byOrg({ org_id: orgId }).go({ pages: 'all' }).then((r) => r.data),
  ]);
  if (!chat) return { ignored: 'no_chat' };

  // one read of the org's members gives every viewer's role (active members only)
  const viewers = new Map<string, Viewer & { member_name: string | null }>();
  for (const m of members) if (m.is_active !== false) viewers.set(m.email.toLowerCase(), { email: m.email, role: m.role, member_name: m.member_name ?? null });
  const senderEmail = sender.email.toLowerCase();
  const me = viewers.get(senderEmail);
  if (!me || !canSeeChat(chat, me)) return { ignored: 'not_allowed' };

  const message: ChatTypingMessage = {
    type: 'chat.typing',
    properties: { org_id: orgId, chat_id, email: me.email, member_name: me.member_name, state, at: nowMs },
  };
  const nowS = Math.floor(nowMs / 1000);
  const targets = connections.filter((c) => {
    const email = c.email.toLowerCase();
    if (email === senderEmail || c.connection_id === connectionId) return false;
    if (c.expires_at != null && c.expires_at < nowS) return false;
    const viewer = viewers.get(email);
    return !!viewer && canSeeChat(chat, viewer);
  });
  const results = await Promise.all(
    targets.map(async (c) => {
      try {
        if ((await postToConnection(c.connection_id, message)) === 'ok') return 1;
        await db().entities.connection.delete({ org_id: c.org_id, connection_id: c.connection_id }).go();
      } catch (e) {
        // ephemeral: a lost typing frame is not worth a retry
        log('warn', 'realtime.typing_post_failed', { connection_id: c.connection_id, error: String(e) });
      }
      return 0;
    }),
  );
  return { sent: results.reduce<number>((a, b) => a + b, 0) };
}
