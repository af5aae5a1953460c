import { httpHandler } from '../../lib/http.ts';
import { OrgParams } from '../chats/params.ts';
import { ChatLabelInput } from '../../../shared/chat/chat.schemas.ts';
import { createChatLabel } from '../../../shared/chat/chat-workflow.ts';

/** POST /api/orgs/{org_id}/labels `{ name, color }` -> 201 `{ label }` (admins). */
export const handler = httpHandler({ params: OrgParams, body: ChatLabelInput }, async ({ actor, body }) => {
  const label = await createChatLabel(actor, body);
  return { status: 201, body: { label } };
});
