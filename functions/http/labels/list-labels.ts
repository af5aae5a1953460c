import { httpHandler } from '../../lib/http.ts';
import { OrgParams } from '../chats/params.ts';
import { listChatLabels } from '../../../shared/chat/chat-workflow.ts';

/** GET /api/orgs/{org_id}/labels -> `{ labels: [{ label_id, name, color, usage_count }] }`. */
export const handler = httpHandler({ params: OrgParams }, async ({ actor }) => ({ body: await listChatLabels(actor) }));
