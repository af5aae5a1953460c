import { httpHandler } from '../../lib/http.ts';
import { FaqInput, FaqParams } from '../../../shared/ai/ai.schemas.ts';
import { updateFaq } from '../../../shared/ai/faq.ts';

/** PUT /api/orgs/{org_id}/ai/faqs/{faq_id} `{ question, answer, attachments? }` -> `{ faq }`; 404 unknown pair; 403 for members. */
export const handler = httpHandler({ params: FaqParams, body: FaqInput }, async ({ actor, params, body }) => ({ body: { faq: await updateFaq(actor, params.faq_id, body) } }));
