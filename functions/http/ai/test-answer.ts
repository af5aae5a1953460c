import { httpHandler } from '../../lib/http.ts';
import { OrgParams } from '../chats/params.ts';
import { AiTestInput } from '../../../shared/ai/ai.schemas.ts';
import { testAnswer } from '../../../shared/ai/faq.ts';

/** POST /api/orgs/{org_id}/ai/test `{ question }` -> `{ answer, confidence, faq_ids, handoff, reason, candidates }`; nothing is sent. */
export const handler = httpHandler({ params: OrgParams, body: AiTestInput }, async ({ actor, body }) => ({ body: await testAnswer(actor, body.question) }));
