import { httpHandler } from '../../lib/http.ts';
import { ChatParams } from '../chats/params.ts';
import { CreateNoteInput } from '../../../shared/message/private-note.schemas.ts';
import { createPrivateNote } from '../../../shared/message/private-note.ts';

/** POST /api/orgs/{org_id}/chats/{chat_id}/notes `{ body, mentions?, client_id? }` -> 201 `{ message }` (a private note, never sent to WhatsApp). */
export const handler = httpHandler({ params: ChatParams, body: CreateNoteInput }, async ({ actor, params, body }) => ({
  status: 201,
  body: { message: await createPrivateNote(actor, params.chat_id, body) },
}));
