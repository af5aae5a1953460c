import { httpHandler } from '../../lib/http.ts';
import { OrgParams } from '../chats/params.ts';
import { ListNotificationsQuery } from '../../../shared/notification/notification.schemas.ts';
import { listNotifications } from '../../../shared/notification/notification.ts';

/** GET /api/orgs/{org_id}/notifications?limit&cursor -> `{ notifications (newest first), cursor, unread_count }` of the caller. */
export const handler = httpHandler({ params: OrgParams, query: ListNotificationsQuery }, async ({ actor, query }) => ({ body: await listNotifications(actor, query) }));
