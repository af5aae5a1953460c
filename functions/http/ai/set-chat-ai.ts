import { httpHandler } from '../../lib/http.ts';
import { ChatParams } from '../chats/params.ts';
import { ChatAiInput } from '../../../shared/ai/ai.schemas.ts';
import { setChatAi } from '../../../shared/ai/agent.ts';

/** PUT /api/orgs/{org_id}/chats/{chat_id}/ai `{ activation_state: 'active' | 'paused' | 'inactive' }` -> `{ chat }`: take over (cancels a pending reply) or hand back. */
export const handler = httpHandler({ params: ChatParams, body: ChatAiInput }, async ({ actor, params, body }) => ({ body: { chat: await setChatAi(actor, params.chat_id, body.activation_state) } }));
