import { httpHandler } from '../../lib/http.ts';
import { OrgParams } from '../chats/params.ts';
import { AnalyticsQuery } from '../../../shared/analytics/analytics.schemas.ts';
import { readGroupAnalytics } from '../../../shared/analytics/analytics.ts';

/**
 * GET /api/orgs/{org_id}/analytics/groups?from=YYYY-MM-DD&to=YYYY-MM-DD -> AnalyticsGroups: the most
 * active group chats the actor may see (the guard's visibleChatIds) with their most active senders.
 * A second request of /analytics (the first view does not wait for it). 403 analytics.forbidden
 * (spec §6), 403 plan_feature without advanced analytics (spec §9), 400 for a bad range.
 */
export const handler = httpHandler({ params: OrgParams, query: AnalyticsQuery }, async ({ actor, guard, query }) => ({
  body: await readGroupAnalytics(actor, query.from, query.to, (ids) => guard.visibleChatIds(ids)),
}));
