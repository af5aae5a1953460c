import { httpHandler } from '../../lib/http.ts';
import { OrgParams } from '../chats/params.ts';
import { CreateBroadcastInput } from '../../../shared/broadcast/broadcast.schemas.ts';
import { createBroadcast } from '../../../shared/broadcast/broadcast.ts';

/**
 * POST /api/orgs/{org_id}/broadcasts -> 201 `{ broadcast }`: stores the recipients and starts now or
 * at `send_at`. 403 broadcast.forbidden (spec §6 bulk_message), 403 for a picked chat the member may
 * not see, 400 broadcast.credits_exceeded (spec §9) / broadcast.no_recipients / validation.
 */
export const handler = httpHandler({ params: OrgParams, body: CreateBroadcastInput }, async ({ actor, body }) => ({ status: 201, body: { broadcast: await createBroadcast(actor, body) } }));
