import { httpHandler } from '../../lib/http.ts';
import { OrgParams } from '../chats/params.ts';
import { ListWebhookRejectionsQuery } from '../../../shared/whatsapp/webhook-rejection.schemas.ts';
import { listWebhookRejections } from '../../../shared/whatsapp/webhook-rejection.ts';

/** GET /api/orgs/{org_id}/logs/webhook-rejections?cursor&limit -> `{ rejections, cursor }`: signed WhatsApp webhooks no schema accepted, newest first, bodies cut to 2,000 characters, 90 days; admins only (403). */
export const handler = httpHandler({ params: OrgParams, query: ListWebhookRejectionsQuery }, async ({ actor, query }) => ({ body: await listWebhookRejections(actor, query) }));
