import { httpHandler } from '../../lib/http.ts';
import { GroupTemplateParams } from './params.ts';
import { deleteGroupTemplate } from '../../../shared/group-template/group-template.ts';

/** DELETE /api/orgs/{org_id}/group-templates/{template_id} -> `{ deleted: true }` (admins; groups created from it stay). */
export const handler = httpHandler({ params: GroupTemplateParams }, async ({ actor, params }) => ({ body: await deleteGroupTemplate(actor, params.template_id) }));
