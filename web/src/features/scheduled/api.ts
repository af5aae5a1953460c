/**
 * Client of the scheduled messages API (issue 16 item 6: /api/orgs/{org_id}/scheduled…) and its
 * TanStack Query keys (`['orgs', orgId, 'scheduled', …]`).
 */
import { apiRequest } from '../../lib/api.ts';
import type { ScheduledMessageView } from '#shared/schedule/scheduled.schemas.ts';
import type { Recurrence } from '#shared/schedule/recurrence.rules.ts';
import type { TemplateRef } from '#shared/template/template.schemas.ts';

export type { ScheduledMessageView, Recurrence };
const enc = encodeURIComponent;
const base = (orgId: string) => `/api/orgs/${enc(orgId)}/scheduled`;

export const scheduledKeys = {
  all: (orgId: string) => ['orgs', orgId, 'scheduled'] as const,
  list: (orgId: string) => ['orgs', orgId, 'scheduled', 'list'] as const,
};

type One = { scheduled: ScheduledMessageView };
export const scheduledApi = {
  list: (orgId: string) => apiRequest<{ scheduled: ScheduledMessageView[]; cursor: string | null; time_zone: string }>('GET', `${base(orgId)}?limit=100`),
  create: async (orgId: string, input: { chat_id: string; body?: string; template?: TemplateRef | null; recurrence: Recurrence }) => (await apiRequest<One>('POST', base(orgId), input)).scheduled,
  update: async (orgId: string, id: string, input: { body?: string; status?: 'active' | 'paused'; recurrence?: Recurrence }) => (await apiRequest<One>('PATCH', `${base(orgId)}/${enc(id)}`, input)).scheduled,
  skip: async (orgId: string, id: string) => (await apiRequest<One>('POST', `${base(orgId)}/${enc(id)}/skip`, {})).scheduled,
  remove: (orgId: string, id: string) => apiRequest<{ deleted: boolean }>('DELETE', `${base(orgId)}/${enc(id)}`),
};
