import { httpHandler } from '../../lib/http.ts';
import { FaqParams } from '../../../shared/ai/ai.schemas.ts';
import { deleteFaq } from '../../../shared/ai/faq.ts';

/** DELETE /api/orgs/{org_id}/ai/faqs/{faq_id} -> `{ deleted: true }`; 404 unknown pair; 403 for members. */
export const handler = httpHandler({ params: FaqParams }, async ({ actor, params }) => ({ body: await deleteFaq(actor, params.faq_id) }));
