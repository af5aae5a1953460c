import { z } from 'zod';
import { httpHandler } from '../../lib/http.ts';
import { OrgParams } from '../chats/params.ts';
import { getWaWebSessionView } from '../../../shared/whatsapp/web/wa-web-phone.ts';

export const PhoneParams = OrgParams.extend({ phone_id: z.string().min(1).max(64) });

/** GET /api/orgs/{org_id}/phones/{phone_id}/wa-web-session -> 200 `{ session }` (state, QR while linking); admins only (403), 404 for other orgs' numbers. */
export const handler = httpHandler({ params: PhoneParams }, async ({ actor, params }) => ({ status: 200, body: { session: await getWaWebSessionView(actor, params.phone_id) } }));
