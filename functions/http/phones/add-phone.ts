import { httpHandler } from '../../lib/http.ts';
import { OrgParams } from '../chats/params.ts';
import { AddPhoneInput } from '../../../shared/phone/phone.schemas.ts';
import { addPhone } from '../../../shared/phone/phone.ts';

/**
 * POST /api/orgs/{org_id}/phones `{ phone_number_id, waba_id, access_token }` -> 201 `{ phone }`
 * (the token checked with the Graph API, stored encrypted, never returned); 403 for members,
 * 400 when Meta refuses the token or id, 409 when the id is connected already.
 */
export const handler = httpHandler({ params: OrgParams, body: AddPhoneInput }, async ({ actor, body }) => {
  const phone = await addPhone(actor, body);
  return { status: 201, body: { phone } };
});
