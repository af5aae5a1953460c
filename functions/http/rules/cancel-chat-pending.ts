import { httpHandler } from '../../lib/http.ts';
import { PendingParams } from './params.ts';
import { cancelPending } from '../../../shared/rules/engine.ts';
import { AppError } from '../../../shared/errors.ts';

/** DELETE /api/orgs/{org_id}/chats/{chat_id}/rule-pending/{key} -> `{ cancelled: true }` (a member who can see the chat cancels a follow-up or delayed action). */
export const handler = httpHandler({ params: PendingParams }, async ({ guard, params }) => {
  await guard.requireChat(params.chat_id);
  const done = await cancelPending(guard.actor.org_id, params.chat_id, (r) => r.action_key === params.key, `cancelled by ${guard.actor.email}`);
  if (!done.length) throw new AppError('rule_pending.not_found', 'That follow-up is no longer pending.', { status: 404 });
  return { body: { cancelled: true } };
});
