/**
 * Clients of the /logs tabs (issue 19): the audit log (GET /logs/audit), the public API request
 * log (GET /api-keys/logs, issue 20) and the webhook delivery logs (GET /webhooks/{id}/deliveries,
 * issue 20), with their TanStack Query keys under ['orgs', orgId, 'logs', …].
 */
import { apiRequest } from '../../lib/api.ts';
import type { AuditEntry } from '#shared/audit/audit.rules.ts';
import type { ApiRequestLog } from '#shared/apikey/api-key.schemas.ts';
import type { DeliveryView, EndpointView } from '#shared/webhooks/webhook.schemas.ts';

export type { AuditEntry };
export interface AuditFilters {
  area: string;
  actor: string;
  /** 'YYYY-MM-DD' or '' */
  from: string;
  to: string;
}

const enc = encodeURIComponent;
const base = (orgId: string) => `/api/orgs/${enc(orgId)}`;
const qs = (o: Record<string, string | number | undefined>) => {
  const p = new URLSearchParams();
  for (const [k, v] of Object.entries(o)) if (v !== undefined && v !== '') p.set(k, String(v));
  const s = p.toString();
  return s ? `?${s}` : '';
};

export const logKeys = {
  audit: (orgId: string, f: AuditFilters) => ['orgs', orgId, 'logs', 'audit', f] as const,
  api: (orgId: string) => ['orgs', orgId, 'logs', 'api'] as const,
  endpoints: (orgId: string) => ['orgs', orgId, 'logs', 'webhook-endpoints'] as const,
  deliveries: (orgId: string, endpointId: string) => ['orgs', orgId, 'logs', 'deliveries', endpointId] as const,
};

export const logsApi = {
  audit: (orgId: string, f: AuditFilters, cursor?: string) =>
    apiRequest<{ entries: AuditEntry[]; cursor: string | null }>(
      'GET',
      `${base(orgId)}/logs/audit${qs({ area: f.area, actor: f.actor.trim(), from: f.from ? Date.parse(`${f.from}T00:00:00`) : undefined, to: f.to ? Date.parse(`${f.to}T23:59:59.999`) : undefined, cursor, limit: 50 })}`,
    ),
  api: (orgId: string, cursor?: string) => apiRequest<{ logs: ApiRequestLog[]; cursor: string | null }>('GET', `${base(orgId)}/api-keys/logs${qs({ cursor })}`),
  endpoints: async (orgId: string) => (await apiRequest<{ endpoints: EndpointView[] }>('GET', `${base(orgId)}/webhooks`)).endpoints,
  deliveries: (orgId: string, endpointId: string, cursor?: string) => apiRequest<{ deliveries: DeliveryView[]; cursor: string | null }>('GET', `${base(orgId)}/webhooks/${enc(endpointId)}/deliveries${qs({ cursor })}`),
};
