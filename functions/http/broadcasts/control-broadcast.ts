import { httpHandler } from '../../lib/http.ts';
import { BroadcastParams } from './params.ts';
import { BroadcastAction } from '../../../shared/broadcast/broadcast.schemas.ts';
import { controlBroadcast } from '../../../shared/broadcast/broadcast.ts';

/** POST /api/orgs/{org_id}/broadcasts/{broadcast_id}/actions `{ action: pause | resume | cancel }` -> `{ broadcast }`. 403, 404, 409 broadcast.invalid_action. */
export const handler = httpHandler({ params: BroadcastParams, body: BroadcastAction }, async ({ actor, params, body }) => ({ body: { broadcast: await controlBroadcast(actor, params.broadcast_id, body.action) } }));
