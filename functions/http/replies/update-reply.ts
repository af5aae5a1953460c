import { httpHandler } from '../../lib/http.ts';
import { ReplyParams } from './params.ts';
import { QuickReplyInput } from '../../../shared/reply/reply.schemas.ts';
import { updateReply } from '../../../shared/reply/reply.ts';

/** PATCH /api/orgs/{org_id}/replies/{reply_id} `{ shortcut, text, scope?, attachment? }` -> `{ reply }` (team: admins; personal: its owner). */
export const handler = httpHandler({ params: ReplyParams, body: QuickReplyInput }, async ({ actor, params, body }) => ({ body: { reply: await updateReply(actor, params.reply_id, body) } }));
