import { httpHandler } from '../../lib/http.ts';
import { PhoneParams } from './get-wa-web-session.ts';
import { relinkWaWebPhone } from '../../../shared/whatsapp/web/wa-web-phone.ts';

/** POST /api/orgs/{org_id}/phones/{phone_id}/wa-web-session/relink -> 200 `{ session }`: link a logged-out number again (a new QR follows); admins only. */
export const handler = httpHandler({ params: PhoneParams }, async ({ actor, params }) => {
  const session = await relinkWaWebPhone(actor, params.phone_id);
  return { status: 200, body: { session } };
});
