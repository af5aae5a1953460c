import { httpHandler } from '../../lib/http.ts';
import { LabelParams } from './params.ts';
import { deleteChatLabel } from '../../../shared/chat/chat-workflow.ts';

/** DELETE /api/orgs/{org_id}/labels/{label_id} -> `{ removed_from }` (admins; the label comes off every chat). */
export const handler = httpHandler({ params: LabelParams }, async ({ actor, params }) => {
  const { name, ...out } = await deleteChatLabel(actor, params.label_id);
  return { body: out, audit: { details: { name } } };
});
