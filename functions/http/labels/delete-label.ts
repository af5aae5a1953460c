import { httpHandler } from '../../lib/http.ts';
import { LabelParams } from './params.ts';
import { deleteChatLabel } from '../../../shared/chat/chat-workflow.ts';
import { recordAdminAction } from '../../../shared/audit/audit.ts';

/** DELETE /api/orgs/{org_id}/labels/{label_id} -> `{ removed_from }` (admins; the label comes off every chat). */
export const handler = httpHandler({ params: LabelParams }, async ({ actor, params }) => {
  const out = await deleteChatLabel(actor, params.label_id);
  await recordAdminAction(actor, 'labels', 'label.deleted', params.label_id); // issue 19: audit log
  return { body: out };
});
