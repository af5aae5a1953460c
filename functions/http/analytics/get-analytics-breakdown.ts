import { httpHandler } from '../../lib/http.ts';
import { OrgParams } from '../chats/params.ts';
import { AnalyticsQuery } from '../../../shared/analytics/analytics.schemas.ts';
import { readAnalyticsBreakdown } from '../../../shared/analytics/analytics.ts';

/**
 * GET /api/orgs/{org_id}/analytics/breakdown?from=YYYY-MM-DD&to=YYYY-MM-DD -> AnalyticsBreakdown: the
 * range's figures per member, number and label (org-wide aggregates, no chat content). A second
 * request of /analytics. 403 analytics.forbidden (spec §6), 403 plan_feature without
 * advanced analytics (spec §9), 400 for a bad range.
 */
export const handler = httpHandler({ params: OrgParams, query: AnalyticsQuery }, async ({ actor, query }) => ({ body: await readAnalyticsBreakdown(actor, query.from, query.to) }));
