import { httpHandler } from '../../lib/http.ts';
import { OrgParams } from '../chats/params.ts';
import { AnalyticsQuery } from '../../../shared/analytics/analytics.schemas.ts';
import { readAnalytics } from '../../../shared/analytics/analytics.ts';

/**
 * GET /api/orgs/{org_id}/analytics?from=YYYY-MM-DD&to=YYYY-MM-DD -> AnalyticsReport (shared/analytics/analytics.ts):
 * totals and per day for every plan; the previous period's and busiest hours with advanced analytics
 * (spec §9; `advanced: false` on Starter). Per member/number/label: GET /analytics/breakdown; groups:
 * GET /analytics/groups (second requests of the page).
 * 403 for members when member_permissions.analytics is off (spec §6); 400 for a bad or reversed range.
 */
export const handler = httpHandler({ params: OrgParams, query: AnalyticsQuery }, async ({ actor, query }) => ({ body: await readAnalytics(actor, query.from, query.to) }));
