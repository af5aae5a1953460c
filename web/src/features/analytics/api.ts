/**
 * Client of GET /api/orgs/{org_id}/analytics, /analytics/breakdown, /analytics/groups and /analytics/export.csv (issue 19) and the
 * TanStack Query keys (['orgs', orgId, 'analytics', from, to]).
 */
import { apiRequest, ApiError } from '../../lib/api.ts';
import { getIdToken, SESSION_EXPIRED_MESSAGE } from '../../lib/auth.ts';
import { getConfig } from '../../lib/config.ts';
import type { AnalyticsBreakdown, AnalyticsGroups, AnalyticsReport } from '#shared/analytics/analytics.schemas.ts';

export type { AnalyticsBreakdown, AnalyticsGroups, AnalyticsReport };
export type Figures = AnalyticsReport['totals'];

const enc = encodeURIComponent;
export const analyticsKeys = {
  report: (orgId: string, from: string, to: string) => ['orgs', orgId, 'analytics', from, to] as const,
  groups: (orgId: string, from: string, to: string) => ['orgs', orgId, 'analytics', 'groups', from, to] as const,
  breakdown: (orgId: string, from: string, to: string) => ['orgs', orgId, 'analytics', 'breakdown', from, to] as const,
  phones: (orgId: string) => ['orgs', orgId, 'analytics', 'phones'] as const,
  labels: (orgId: string) => ['orgs', orgId, 'analytics', 'labels'] as const,
};

export const analyticsApi = {
  report: (orgId: string, from: string, to: string) => apiRequest<AnalyticsReport>('GET', `/api/orgs/${enc(orgId)}/analytics?from=${from}&to=${to}`),
  breakdown: (orgId: string, from: string, to: string) => apiRequest<AnalyticsBreakdown>('GET', `/api/orgs/${enc(orgId)}/analytics/breakdown?from=${from}&to=${to}`),
  groups: (orgId: string, from: string, to: string) => apiRequest<AnalyticsGroups>('GET', `/api/orgs/${enc(orgId)}/analytics/groups?from=${from}&to=${to}`),
  phones: async (orgId: string) => (await apiRequest<{ phones: Array<{ phone_id: string; org_phone: string; verified_name?: string | null }> }>('GET', `/api/orgs/${enc(orgId)}/phones`)).phones,
  labels: async (orgId: string) => (await apiRequest<{ labels: Array<{ label_id: string; name: string }> }>('GET', `/api/orgs/${enc(orgId)}/labels`)).labels,
  /** Download the range's figures as CSV (the browser saves the file). */
  async exportCsv(orgId: string, from: string, to: string): Promise<void> {
    const token = await getIdToken();
    if (!token) throw new ApiError(401, 'unauthorized', SESSION_EXPIRED_MESSAGE);
    const res = await fetch(`${getConfig().apiUrl}/api/orgs/${enc(orgId)}/analytics/export.csv?from=${from}&to=${to}`, { headers: { authorization: `Bearer ${token}` } });
    if (!res.ok) throw new ApiError(res.status, 'export_failed', 'Could not export the figures. Please try again.');
    const url = URL.createObjectURL(await res.blob());
    const a = document.createElement('a');
    a.href = url;
    a.download = `chorus-analytics-${from}-${to}.csv`;
    document.body.appendChild(a);
    a.click();
    a.remove();
    setTimeout(() => URL.revokeObjectURL(url), 10_000);
  },
};
