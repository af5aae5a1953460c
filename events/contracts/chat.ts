import { z } from 'zod';
import { ChatSnapshot } from './message.ts';

/** chat.read v1: a member marked a chat read; unread counters were reset. */
export const ChatReadV1 = z.object({ org_id: z.string(), chat: ChatSnapshot, email: z.string() });

/** chat.updated v1: chat fields other than messages changed (`changes` names them: flags, pins, ...). */
export const ChatUpdatedV1 = z.object({
  org_id: z.string(),
  chat: ChatSnapshot,
  changes: z.array(z.string()),
  /** issue 17: the changed fields' values before the change (member changes through chat-workflow), for rule triggers */
  previous: z.record(z.unknown()).optional(),
});
