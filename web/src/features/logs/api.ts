/**
 * Clients of the /logs tabs (issue 19): the audit log (GET /logs/audit), the public API request
 * log (GET /api-keys/logs, issue 20), the webhook endpoints (GET /webhooks, issue 20; their
 * deliveries: the webhooks feature's DeliveryLog), the rules log (GET /logs/rules, issue 17) and the
 * AI agent's decisions (GET /ai/decisions, issue 18), the broadcast runs (GET /broadcasts, issue 16) and the
 * rejected WhatsApp webhooks (GET /logs/webhook-rejections: signed bodies no schema accepted, kept with their
 * reason), with their TanStack Query keys under ['orgs', orgId, 'logs', …].
 */
import { apiRequest } from '../../lib/api.ts';
import type { AuditEntry } from '#shared/audit/audit.rules.ts';
import type { ApiRequestLog } from '#shared/apikey/api-key.schemas.ts';
import type { EndpointView } from '#shared/webhooks/webhook.schemas.ts';
import type { RuleLog } from '#shared/rules/rule.schemas.ts';
import type { AiDecisionWire } from '#shared/ai/ai.schemas.ts';
import type { Broadcast } from '#shared/broadcast/broadcast.schemas.ts';
import type { WebhookRejection } from '#shared/whatsapp/webhook-rejection.schemas.ts';

export type { RuleLog, WebhookRejection };

/** One AI agent decision as GET /ai/decisions returns it (shared/ai/ai.schemas.ts; epoch ms). */
export type AiDecision = AiDecisionWire;

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
  rules: (orgId: string, outcome: string) => ['orgs', orgId, 'logs', 'rules', outcome] as const,
  ai: (orgId: string) => ['orgs', orgId, 'logs', 'ai'] as const,
  broadcasts: (orgId: string) => ['orgs', orgId, 'logs', 'broadcasts'] as const,
  rejections: (orgId: string) => ['orgs', orgId, 'logs', 'webhook-rejections'] as const,
  rejection: (orgId: string, rejectionId: string) => ['orgs', orgId, 'logs', 'webhook-rejections', rejectionId] as const,
};

export const logsApi = {
  audit: (orgId: string, f: AuditFilters, cursor?: string) =>
    apiRequest<{ entries: AuditEntry[]; cursor: string | null }>(
      'GET',
      `${base(orgId)}/logs/audit${qs({ area: f.area, actor: f.actor.trim(), from: f.from ? Date.parse(`${f.from}T00:00:00`) : undefined, to: f.to ? Date.parse(`${f.to}T23:59:59.999`) : undefined, cursor, limit: 50 })}`,
    ),
  api: (orgId: string, cursor?: string) => apiRequest<{ logs: ApiRequestLog[]; cursor: string | null }>('GET', `${base(orgId)}/api-keys/logs${qs({ cursor })}`),
  endpoints: async (orgId: string) => (await apiRequest<{ endpoints: EndpointView[] }>('GET', `${base(orgId)}/webhooks`)).endpoints,
  rules: (orgId: string, outcome: string, cursor?: string) => apiRequest<{ logs: RuleLog[]; cursor: string | null }>('GET', `${base(orgId)}/logs/rules${qs({ outcome, cursor, limit: 50 })}`),
  broadcasts: (orgId: string, cursor?: string) => apiRequest<{ broadcasts: Broadcast[]; cursor: string | null }>('GET', `${base(orgId)}/broadcasts${qs({ cursor, limit: 50 })}`),
  ai: (orgId: string, cursor?: string) => apiRequest<{ decisions: AiDecision[]; cursor: string | null }>('GET', `${base(orgId)}/ai/decisions${qs({ cursor, limit: 50 })}`),
  /** bodies cut to previews (`truncated`); `rejection` has the whole one */
  rejections: (orgId: string, cursor?: string) => apiRequest<{ rejections: WebhookRejection[]; cursor: string | null }>('GET', `${base(orgId)}/logs/webhook-rejections${qs({ cursor, limit: 50 })}`),
  rejection: async (orgId: string, rejectionId: string) => (await apiRequest<{ rejection: WebhookRejection }>('GET', `${base(orgId)}/logs/webhook-rejections/${enc(rejectionId)}`)).rejection,
};
