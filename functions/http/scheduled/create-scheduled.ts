import { httpHandler } from '../../lib/http.ts';
import { OrgParams } from '../chats/params.ts';
import { CreateScheduledInput } from '../../../shared/schedule/scheduled.schemas.ts';
import { createScheduled } from '../../../shared/schedule/scheduled.ts';

/**
 * POST /api/orgs/{org_id}/scheduled `{ chat_id, body?, template?, recurrence }` -> 201 `{ scheduled }`
 * (any member with access to the chat; 400 with field + reason for a time in the past or a bad template).
 */
export const handler = httpHandler({ params: OrgParams, body: CreateScheduledInput }, async ({ actor, body }) => ({ status: 201, body: { scheduled: await createScheduled(actor, body) } }));
