import { httpHandler } from '../../lib/http.ts';
import { GroupRequestParams } from './params.ts';
import { getGroupRequest } from '../../../shared/group-template/group-template.ts';

/** GET /api/orgs/{org_id}/group-templates/{template_id}/groups/{request_id} -> `{ request }`: requested | creating | created (group_chat_id) | failed (detail) (admins). */
export const handler = httpHandler({ params: GroupRequestParams }, async ({ actor, params }) => ({ body: { request: await getGroupRequest(actor, params.template_id, params.request_id) } }));
