import { httpHandler } from '../../lib/http.ts';
import { OrgParams } from '../chats/params.ts';
import { ListFaqsQuery } from '../../../shared/ai/ai.schemas.ts';
import { listFaqs } from '../../../shared/ai/faq.ts';

/** GET /api/orgs/{org_id}/ai/faqs?q&limit&cursor -> `{ faqs: [{ id, question, answer, attachments, … }], cursor }` (issue 18; spec §3 FAQ pair). */
export const handler = httpHandler({ params: OrgParams, query: ListFaqsQuery }, async ({ actor, query }) => ({ body: await listFaqs(actor, query) }));
