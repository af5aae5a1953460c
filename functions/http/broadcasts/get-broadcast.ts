import { httpHandler } from '../../lib/http.ts';
import { BroadcastParams } from './params.ts';
import { getBroadcast } from '../../../shared/broadcast/broadcast.ts';

/** GET /api/orgs/{org_id}/broadcasts/{broadcast_id} -> `{ broadcast }` with live stats (the page polls it). 403, 404. */
export const handler = httpHandler({ params: BroadcastParams }, async ({ actor, params }) => ({ body: { broadcast: await getBroadcast(actor, params.broadcast_id) } }));
