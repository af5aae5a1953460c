import { httpHandler } from '../../lib/http.ts';
import { MessageParams } from '../messages/params.ts';
import { deletePrivateNote } from '../../../shared/message/private-note.ts';

/** DELETE /api/orgs/{org_id}/chats/{chat_id}/notes/{unique_id} -> `{ message }` (the tombstone); its author only (403 otherwise). */
export const handler = httpHandler({ params: MessageParams }, async ({ actor, params }) => ({ body: { message: await deletePrivateNote(actor, params.chat_id, params.unique_id) } }));
