import { httpHandler } from '../../lib/http.ts';
import { ChatParams } from './params.ts';
import { listPending } from '../../../shared/rules/engine.ts';

/** GET /api/orgs/{org_id}/chats/{chat_id}/rule-pending -> `{ pending: [{ key, rule_id, rule_name, summary, due_at }] }`: follow-ups and delayed rule actions waiting in this chat (the guard checks the chat). */
export const handler = httpHandler({ params: ChatParams }, async ({ guard, params }) => {
  await guard.requireChat(params.chat_id);
  return { body: { pending: await listPending(guard.actor.org_id, params.chat_id) } };
});
