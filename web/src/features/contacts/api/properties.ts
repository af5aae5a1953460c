/** Custom property definitions (spec §3; issue 15) and chat values: API calls and query keys. */
import type { Chat } from '#shared/chat/chat.schemas.ts';
import type { BulkJob } from '#shared/bulk/bulk-job.schemas.ts';
import type { PropertyDef, PropertyInput } from '#shared/property/property.schemas.ts';
import { apiRequest } from '../../../lib/api.ts';

export const propertyKeys = {
  all: (orgId: string) => ['orgs', orgId, 'properties'] as const,
};

const base = (orgId: string) => `/api/orgs/${encodeURIComponent(orgId)}/properties`;

export const propertiesApi = {
  list: (orgId: string) => apiRequest<{ properties: PropertyDef[] }>('GET', base(orgId)).then((r) => r.properties),
  create: (orgId: string, input: PropertyInput) => apiRequest<{ property: PropertyDef }>('POST', base(orgId), input),
  /** `jobs`: background jobs clearing the values of removed dropdown options (chats, then contacts) */
  update: (orgId: string, id: string, input: PropertyInput) => apiRequest<{ property: PropertyDef; jobs: Array<{ job_id: string }> }>('PATCH', `${base(orgId)}/${encodeURIComponent(id)}`, input),
  /** `job`: the background job clearing the property's values on chats, then contacts */
  remove: (orgId: string, id: string) => apiRequest<{ deleted: true; job: { job_id: string } }>('DELETE', `${base(orgId)}/${encodeURIComponent(id)}`),
  /** a clean-up job's progress (GET /chats/bulk-jobs/{job_id}) */
  job: (orgId: string, jobId: string) => apiRequest<{ job: BulkJob }>('GET', `/api/orgs/${encodeURIComponent(orgId)}/chats/bulk-jobs/${encodeURIComponent(jobId)}`).then((r) => r.job),
  setChatValues: (orgId: string, chatId: string, values: Record<string, string>) =>
    apiRequest<{ chat: Chat }>('PUT', `/api/orgs/${encodeURIComponent(orgId)}/chats/${encodeURIComponent(chatId)}/properties`, { custom_properties: values }),
};
