import { httpHandler } from '../../lib/http.ts';
import { OrgParams } from '../chats/params.ts';
import { FaqInput } from '../../../shared/ai/ai.schemas.ts';
import { createFaq } from '../../../shared/ai/faq.ts';

/** POST /api/orgs/{org_id}/ai/faqs `{ question, answer, attachments? }` -> 201 `{ faq }`; 400 'Question and answer must be at least 10 characters long' (spec §5); 403 for members. */
export const handler = httpHandler({ params: OrgParams, body: FaqInput }, async ({ actor, body }) => ({ status: 201, body: { faq: await createFaq(actor, body) } }));
