import { httpHandler } from '../../lib/http.ts';
import { WebhookRejectionParams } from '../../../shared/whatsapp/webhook-rejection.schemas.ts';
import { getWebhookRejection } from '../../../shared/whatsapp/webhook-rejection.ts';

/** GET /api/orgs/{org_id}/logs/webhook-rejections/{rejection_id} -> `{ rejection }` with its whole kept body; admins only (403), 404 when the org has no such rejection. */
export const handler = httpHandler({ params: WebhookRejectionParams }, async ({ actor, params }) => ({ body: await getWebhookRejection(actor, params.rejection_id) }));
