/**
 * Client of the outbound webhook admin API (issue 20: /api/orgs/{org_id}/webhooks…, /hooks…,
 * /integrations/slack; admins only) and its TanStack Query keys (`['orgs', orgId, 'webhooks', …]`).
 */
import { apiRequest } from '../../lib/api.ts';
import type { DeliveryView, EndpointView } from '#shared/webhooks/webhook.schemas.ts';
import type { WebhookPayload } from '#shared/webhooks/webhook.rules.ts';

export type Endpoint = EndpointView;
export type Delivery = DeliveryView;
export interface EventCatalogue {
  events: Array<{ type: string; sample: WebhookPayload }>;
  slack_events: string[];
}

const enc = encodeURIComponent;
const base = (orgId: string) => `/api/orgs/${enc(orgId)}`;

export const webhookKeys = {
  all: (orgId: string) => ['orgs', orgId, 'webhooks'] as const,
  endpoints: (orgId: string) => ['orgs', orgId, 'webhooks', 'endpoints'] as const,
  deliveries: (orgId: string, endpointId: string) => ['orgs', orgId, 'webhooks', 'deliveries', endpointId] as const,
  catalogue: (orgId: string) => ['orgs', orgId, 'webhooks', 'catalogue'] as const,
  slack: (orgId: string) => ['orgs', orgId, 'webhooks', 'slack'] as const,
};

export const webhooksApi = {
  endpoints: async (orgId: string) => (await apiRequest<{ endpoints: Endpoint[] }>('GET', `${base(orgId)}/webhooks`)).endpoints,
  create: async (orgId: string, input: { url: string; description?: string; events: string[] }) => (await apiRequest<{ endpoint: Endpoint }>('POST', `${base(orgId)}/webhooks`, input)).endpoint,
  update: async (orgId: string, id: string, input: { url?: string; description?: string; events?: string[]; enabled?: boolean }) =>
    (await apiRequest<{ endpoint: Endpoint }>('PATCH', `${base(orgId)}/webhooks/${enc(id)}`, input)).endpoint,
  remove: (orgId: string, id: string) => apiRequest<{ deleted: string }>('DELETE', `${base(orgId)}/webhooks/${enc(id)}`),
  rotate: async (orgId: string, id: string) => (await apiRequest<{ endpoint: Endpoint }>('POST', `${base(orgId)}/webhooks/${enc(id)}/rotate-secret`)).endpoint,
  test: async (orgId: string, id: string) => (await apiRequest<{ delivery: Delivery }>('POST', `${base(orgId)}/webhooks/${enc(id)}/test`)).delivery,
  deliveries: (orgId: string, id: string, cursor?: string) =>
    apiRequest<{ deliveries: Delivery[]; cursor: string | null }>('GET', `${base(orgId)}/webhooks/${enc(id)}/deliveries${cursor ? `?cursor=${enc(cursor)}` : ''}`),
  replay: async (orgId: string, id: string, deliveryId: string) => (await apiRequest<{ delivery: Delivery }>('POST', `${base(orgId)}/webhooks/${enc(id)}/deliveries/${enc(deliveryId)}/replay`)).delivery,
  catalogue: (orgId: string) => apiRequest<EventCatalogue>('GET', `${base(orgId)}/webhooks/events`),
  unsubscribe: (orgId: string, id: string) => apiRequest<{ deleted: string }>('DELETE', `${base(orgId)}/hooks/${enc(id)}`),
  slack: async (orgId: string) => (await apiRequest<{ slack: Endpoint | null }>('GET', `${base(orgId)}/integrations/slack`)).slack,
  putSlack: async (orgId: string, input: { url: string; events: string[]; enabled: boolean }) => (await apiRequest<{ slack: Endpoint }>('PUT', `${base(orgId)}/integrations/slack`, input)).slack,
  deleteSlack: (orgId: string) => apiRequest<{ deleted: boolean }>('DELETE', `${base(orgId)}/integrations/slack`),
};
