/**
 * Client of the templates API (issue 16: GET /templates, POST /templates/sync, POST
 * /chats/{chat_id}/templates) and its TanStack Query keys (`['orgs', orgId, 'templates', …]`).
 */
import { apiRequest } from '../../lib/api.ts';
import type { Message } from '#shared/message/message.schemas.ts';
import type { TemplateValues, TemplateView } from '#shared/template/template.schemas.ts';

export type { TemplateView, TemplateValues };
const enc = encodeURIComponent;
const base = (orgId: string) => `/api/orgs/${enc(orgId)}`;

/** What one sync did (per phone). */
export interface SyncResult {
  phone_id: string;
  waba_id: string;
  synced: number;
  removed: number;
  skipped: number;
  pages: number;
  synced_at: number;
}

export const templateKeys = {
  all: (orgId: string) => ['orgs', orgId, 'templates'] as const,
  list: (orgId: string, phoneId: string | null, status?: string) => ['orgs', orgId, 'templates', 'list', phoneId ?? 'default', status ?? 'any'] as const,
};

/** Every page of a phone's templates (a WABA holds at most a few hundred in practice). */
async function listAll(orgId: string, phoneId: string | null, status?: string): Promise<{ phone_id: string | null; templates: TemplateView[] }> {
  const out: TemplateView[] = [];
  let cursor: string | null = null;
  let phone: string | null = phoneId;
  for (let i = 0; i < 20; i++) {
    const q = new URLSearchParams();
    if (phone) q.set('phone_id', phone);
    if (status) q.set('status', status);
    if (cursor) q.set('cursor', cursor);
    const page: { phone_id: string | null; templates: TemplateView[]; cursor: string | null } = await apiRequest('GET', `${base(orgId)}/templates${q.size ? `?${q}` : ''}`);
    out.push(...page.templates);
    phone = page.phone_id;
    cursor = page.cursor;
    if (!cursor || !phone) break;
  }
  return { phone_id: phone, templates: out };
}

export const templatesApi = {
  list: listAll,
  sync: async (orgId: string, phoneId?: string) => (await apiRequest<{ results: SyncResult[] }>('POST', `${base(orgId)}/templates/sync`, phoneId ? { phone_id: phoneId } : {})).results,
  send: async (orgId: string, chatId: string, input: { name: string; language: string; values: TemplateValues; client_id?: string }) =>
    (await apiRequest<{ message: Message }>('POST', `${base(orgId)}/chats/${enc(chatId)}/templates`, input)).message,
};
