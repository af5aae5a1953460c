import { httpHandler } from '../../lib/http.ts';
import { OrgParams } from '../chats/params.ts';
import { listReplies } from '../../../shared/reply/reply.ts';

/** GET /api/orgs/{org_id}/replies -> `{ replies: QuickReply[] }`: the team's and the caller's personal quick replies (any member). */
export const handler = httpHandler({ params: OrgParams }, async ({ actor }) => ({ body: { replies: await listReplies(actor) } }));
