import { httpHandler } from '../../lib/http.ts';
import { LabelParams } from './params.ts';
import { ChatLabelPatch } from '../../../shared/chat/chat.schemas.ts';
import { updateChatLabel } from '../../../shared/chat/chat-workflow.ts';

/** PATCH /api/orgs/{org_id}/labels/{label_id} `{ name?, color? }` -> `{ label }` (admins). */
export const handler = httpHandler({ params: LabelParams, body: ChatLabelPatch }, async ({ actor, params, body }) => {
  const label = await updateChatLabel(actor, params.label_id, body);
  return { body: { label } };
});
