import { httpHandler } from '../../lib/http.ts';
import { OrgParams } from '../chats/params.ts';
import { listPhoneViews } from '../../../shared/phone/phone.ts';

/** GET /api/orgs/{org_id}/phones -> `{ phones, connected, limit }` (any member, spec §2 settings/phones; §9 counter). */
export const handler = httpHandler({ params: OrgParams }, async ({ actor }) => ({ body: await listPhoneViews(actor) }));
