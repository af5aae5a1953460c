import { httpHandler } from '../../lib/http.ts';
import { OrgParams } from './params.ts';
import { chatCounts } from '../../../shared/chat/chat-list.ts';

/** GET /api/orgs/{org_id}/chats/counts -> `{ counts: { open|closed|snoozed|archived: { total, unread, mine, unassigned, labels, phones, types } } }`. */
export const handler = httpHandler({ params: OrgParams }, async ({ actor }) => ({ body: await chatCounts(actor) }));
