import { httpFileHandler } from '../../lib/http.ts';
import { OrgParams } from '../chats/params.ts';
import { AnalyticsQuery } from '../../../shared/analytics/analytics.schemas.ts';
import { analyticsCsv, readAnalytics } from '../../../shared/analytics/analytics.ts';

/** GET /api/orgs/{org_id}/analytics/export.csv?from&to -> text/csv (totals, previous period, days, members, numbers, labels); same access as GET /analytics. */
export const handler = httpFileHandler({ params: OrgParams, query: AnalyticsQuery }, async ({ actor, guard, query }) => ({
  contentType: 'text/csv; charset=utf-8',
  filename: `chorus-analytics-${query.from}-${query.to}.csv`,
  body: analyticsCsv(await readAnalytics(actor, query.from, query.to, { visibleChatIds: (ids) => guard.visibleChatIds(ids) })),
}));
