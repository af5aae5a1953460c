import { httpHandler } from '../../lib/http.ts';
import { GroupTemplateParams } from './params.ts';
import { GroupTemplateInput } from '../../../shared/group-template/group-template.schemas.ts';
import { updateGroupTemplate } from '../../../shared/group-template/group-template.ts';

/** PATCH /api/orgs/{org_id}/group-templates/{template_id} (the whole template; picture omitted = kept, null = removed) -> `{ group_template }` (admins). */
export const handler = httpHandler({ params: GroupTemplateParams, body: GroupTemplateInput }, async ({ actor, params, body }) => ({ body: { group_template: await updateGroupTemplate(actor, params.template_id, body) } }));
