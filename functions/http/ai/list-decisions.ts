import { httpHandler } from '../../lib/http.ts';
import { OrgParams } from '../chats/params.ts';
import { ListDecisionsQuery } from '../../../shared/ai/ai.schemas.ts';
import { listDecisions } from '../../../shared/ai/agent.ts';

/** GET /api/orgs/{org_id}/ai/decisions?limit&cursor -> `{ decisions, cursor }`: the agent's audit, newest first (for /logs' AI tab). */
export const handler = httpHandler({ params: OrgParams, query: ListDecisionsQuery }, async ({ actor, query }) => ({ body: await listDecisions(actor, query) }));
