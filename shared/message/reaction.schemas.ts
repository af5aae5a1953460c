import { z } from 'zod';
import { PageCursor } from './message.schemas.ts';

/**
 * Wire shapes of 'who reacted' (GET /api/orgs/{org_id}/chats/{chat_id}/messages/{unique_id}/reactions),
 * browser-safe. Times epoch **ms**.
 */
export const ReactionEntry = z.object({
  /** the customer's number (masked for members when masking is on) or, for ours, the chat's number */
  sender_id: z.string(),
  /** who, in words: the customer's profile name, or the member's email for ours */
  name: z.string().nullable(),
  reaction: z.string(),
  timestamp: z.number(),
  from_me: z.boolean(),
  /** ours: 0 pending, 1 sent, 2 delivered, 3 read; inbound: 0 */
  ack: z.number(),
});
export type ReactionEntry = z.infer<typeof ReactionEntry>;

/** Query of the list: page size (1..100) and an opaque cursor. */
export const ReactionsQuery = z.object({
  limit: z.coerce.number({ invalid_type_error: 'must be a number' }).int('must be a whole number').min(1, 'must be at least 1').max(100, 'must be at most 100').default(50),
  cursor: PageCursor.optional(),
});
export type ReactionsQuery = z.infer<typeof ReactionsQuery>;

export interface ReactionsResponse {
  reactions: ReactionEntry[];
  cursor: string | null;
}
