import { httpHandler } from '../../lib/http.ts';
import { OrgParams } from '../chats/params.ts';
import { QuickReplyInput } from '../../../shared/reply/reply.schemas.ts';
import { createReply } from '../../../shared/reply/reply.ts';

/** POST /api/orgs/{org_id}/replies `{ shortcut, text, scope?, attachment? }` -> 201 `{ reply }` (team: admins; personal: anyone). */
export const handler = httpHandler({ params: OrgParams, body: QuickReplyInput }, async ({ actor, body }) => ({ status: 201, body: { reply: await createReply(actor, body) } }));
