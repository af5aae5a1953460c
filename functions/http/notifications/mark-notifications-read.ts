import { httpHandler } from '../../lib/http.ts';
import { OrgParams } from '../chats/params.ts';
import { MarkNotificationsReadInput } from '../../../shared/notification/notification.schemas.ts';
import { markNotificationsRead } from '../../../shared/notification/notification.ts';

/** POST /api/orgs/{org_id}/notifications/read `{ ids }` or `{ all: true }` -> `{ updated, unread_count }`. */
export const handler = httpHandler({ params: OrgParams, body: MarkNotificationsReadInput }, async ({ actor, body }) => ({
  body: await markNotificationsRead(actor, body.all ? 'all' : (body.ids ?? [])),
}));
