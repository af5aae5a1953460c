import { z } from 'zod';
import { ClientId, MessageBody, type Message } from './message.schemas.ts';
import { MAX_MENTIONS } from './private-note.rules.ts';

/**
 * POST /api/orgs/{org_id}/chats/{chat_id}/notes: a private note (issue 4). `body` follows the
 * text rules of SendMessageInput (same reasons); `mentions` are member emails (each must be an
 * active member of the org who may see the chat); `client_id` as for messages.
 */
export const CreateNoteInput = z.object({
  body: MessageBody,
  mentions: z
    .array(z.string({ invalid_type_error: 'must be text' }).trim().toLowerCase().email('must be email addresses'), { invalid_type_error: 'must be a list of emails' })
    .max(MAX_MENTIONS, `must be at most ${MAX_MENTIONS} members`)
    .optional(),
  client_id: ClientId.optional(),
});
export type CreateNoteInput = z.infer<typeof CreateNoteInput>;

/** Answer of POST …/notes (201) and DELETE …/notes/{unique_id} (200). */
export interface NoteResponse {
  message: Message;
}
