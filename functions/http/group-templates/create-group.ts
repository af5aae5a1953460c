import { httpHandler } from '../../lib/http.ts';
import { GroupTemplateParams } from './params.ts';
import { CreateGroupInput } from '../../../shared/group-template/group-template.schemas.ts';
import { requestGroup } from '../../../shared/group-template/group-template.ts';

/**
 * POST /api/orgs/{org_id}/group-templates/{template_id}/groups `{ phone_id, chat_ids?, contact_ids?, name? }`
 * -> 202 `{ request }` (admins): the session worker of the WhatsApp Web number creates the group;
 * 400 for a Cloud API number, in plain words.
 */
export const handler = httpHandler({ params: GroupTemplateParams, body: CreateGroupInput }, async ({ actor, params, body }) => ({ status: 202, body: { request: await requestGroup(actor, params.template_id, body) } }));
