import { httpHandler } from '../../lib/http.ts';
import { OrgParams } from '../chats/params.ts';
import { SyncTemplatesInput } from '../../../shared/template/template.schemas.ts';
import { syncTemplatesFor } from '../../../shared/template/template.ts';

/**
 * POST /api/orgs/{org_id}/templates/sync `{ phone_id? }` -> 200 `{ results: [{ phone_id, waba_id, synced, removed, skipped, pages, synced_at }] }`
 * (admins; 403 members; 400 a WhatsApp Web number or no WABA id; 502 when Meta refuses the list).
 */
export const handler = httpHandler({ params: OrgParams, body: SyncTemplatesInput }, async ({ actor, body }) => ({ body: { results: await syncTemplatesFor(actor, body.phone_id) } }));
