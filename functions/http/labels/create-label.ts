import { httpHandler } from '../../lib/http.ts';
import { OrgParams } from '../chats/params.ts';
import { ChatLabelInput } from '../../../shared/chat/chat.schemas.ts';
import { createChatLabel } from '../../../shared/chat/chat-workflow.ts';
import { recordAdminAction } from '../../../shared/audit/audit.ts';

/** POST /api/orgs/{org_id}/labels `{ name, color }` -> 201 `{ label }` (admins). */
export const handler = httpHandler({ params: OrgParams, body: ChatLabelInput }, async ({ actor, body }) => {
  const label = await createChatLabel(actor, body);
  await recordAdminAction(actor, 'labels', 'label.created', label.label_id, { name: label.name, color: label.color }); // issue 19: audit log
  return { status: 201, body: { label } };
});
