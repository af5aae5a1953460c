import { httpHandler } from '../../lib/http.ts';
import { OrgParams } from './params.ts';
import { deleteSlack } from '../../../shared/webhooks/webhooks.ts';

/** DELETE /api/orgs/{org_id}/integrations/slack -> `{ deleted: true }` (admins). */
export const handler = httpHandler({ params: OrgParams }, async ({ actor }) => {
  await deleteSlack(actor);
  return { body: { deleted: true } };
});
