import { httpHandler } from '../../lib/http.ts';
import { BroadcastParams } from './params.ts';
import { ListRecipientsQuery } from '../../../shared/broadcast/broadcast.schemas.ts';
import { listRecipients } from '../../../shared/broadcast/broadcast.ts';

/** GET /api/orgs/{org_id}/broadcasts/{broadcast_id}/recipients?filter&limit&cursor -> `{ recipients, cursor }` (the per-recipient log). 403, 404. */
export const handler = httpHandler({ params: BroadcastParams, query: ListRecipientsQuery }, async ({ actor, guard, params, query }) => ({ body: await listRecipients(actor, guard, params.broadcast_id, query) }));
