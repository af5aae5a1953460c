import { httpHandler } from '../../lib/http.ts';
import { ReplyParams } from './params.ts';
import { deleteReply } from '../../../shared/reply/reply.ts';

/** DELETE /api/orgs/{org_id}/replies/{reply_id} -> `{ deleted: true }` (team: admins; personal: its owner). */
export const handler = httpHandler({ params: ReplyParams }, async ({ actor, params }) => ({ body: await deleteReply(actor, params.reply_id) }));
