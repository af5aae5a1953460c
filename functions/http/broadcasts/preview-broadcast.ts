import { httpHandler } from '../../lib/http.ts';
import { OrgParams } from '../chats/params.ts';
import { PreviewBroadcastInput } from '../../../shared/broadcast/broadcast.schemas.ts';
import { previewBroadcast } from '../../../shared/broadcast/broadcast.ts';

/** POST /api/orgs/{org_id}/broadcasts/preview -> BroadcastPreview (nothing stored): per-recipient text, skips (opt-out, needs a template), credits. 403 broadcast.forbidden. */
export const handler = httpHandler({ params: OrgParams, body: PreviewBroadcastInput }, async ({ actor, guard, body }) => ({ body: await previewBroadcast(actor, guard, body) }));
