import { httpHandler } from '../../lib/http.ts';
import { OrgParams } from '../chats/params.ts';
import { AddWaWebPhoneInput } from '../../../shared/phone/phone.schemas.ts';
import { addWaWebPhone } from '../../../shared/whatsapp/web/wa-web-phone.ts';

/**
 * POST /api/orgs/{org_id}/phones/wa-web `{ phone }` -> 201 `{ phone }`: link a number as a WhatsApp
 * Web device (the session worker starts it; its QR reaches admins over the socket). 403 for members,
 * 400 for a malformed number, 409 when the number is connected already.
 */
export const handler = httpHandler({ params: OrgParams, body: AddWaWebPhoneInput }, async ({ actor, body }) => {
  const phone = await addWaWebPhone(actor, body);
  return { status: 201, body: { phone } };
});
