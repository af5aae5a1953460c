import { httpFileHandler } from '../../lib/http.ts';
import { OrgParams } from '../chats/params.ts';
import { AnalyticsQuery } from '../../../shared/analytics/analytics.schemas.ts';
import { requireFeature } from '../../../shared/plan/gate.ts';
import { analyticsCsv, readAnalytics, readAnalyticsBreakdown } from '../../../shared/analytics/analytics.ts';

/**
 * GET /api/orgs/{org_id}/analytics/export.csv?from&to -> text/csv (totals, previous period, days,
 * members, numbers, labels); same access as GET /analytics, and the plan's `exports` feature
 * (403 plan_feature on Starter, spec §9).
 */
export const handler = httpFileHandler({ params: OrgParams, query: AnalyticsQuery }, async ({ actor, query }) => {
  const report = await readAnalytics(actor, query.from, query.to);
  await requireFeature(actor.org_id, 'exports'); // spec §9: Starter lacks exports (after the access check: a member without access gets 403 analytics.forbidden)
  const breakdown = await readAnalyticsBreakdown(actor, query.from, query.to);
  return { contentType: 'text/csv; charset=utf-8', filename: `chorus-analytics-${query.from}-${query.to}.csv`, body: analyticsCsv({ ...report, ...breakdown }) };
});
