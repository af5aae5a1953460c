import { httpHandler } from '../../lib/http.ts';
import { OrgParams } from '../chats/params.ts';
import { GroupTemplateInput } from '../../../shared/group-template/group-template.schemas.ts';
import { createGroupTemplate } from '../../../shared/group-template/group-template.ts';

/** POST /api/orgs/{org_id}/group-templates `{ name, description?, picture?, only_admins_send?, only_admins_edit_info? }` -> 201 `{ group_template }` (admins). */
export const handler = httpHandler({ params: OrgParams, body: GroupTemplateInput }, async ({ actor, body }) => ({ status: 201, body: { group_template: await createGroupTemplate(actor, body) } }));
