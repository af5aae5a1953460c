/**
 * The /contacts API (issue 15) and its TanStack Query keys (`['orgs', orgId, 'contacts', …]`).
 * Ids are opaque to the app: masked members get sealed ids (`cx_…`) from the API.
 */
import type { ContactDetail, ContactListQuery, ContactListResponse, ContactView, CreateContactInput, UpdateContactInput } from '#shared/contact/contact.schemas.ts';
import { ApiError, apiRequest } from '../../../lib/api.ts';
import { getIdToken, SESSION_EXPIRED_MESSAGE } from '../../../lib/auth.ts';
import { getConfig } from '../../../lib/config.ts';

export type ContactFilters = Omit<ContactListQuery, 'limit' | 'cursor'>;

export const contactKeys = {
  all: (orgId: string) => ['orgs', orgId, 'contacts'] as const,
  list: (orgId: string, f: ContactFilters) => ['orgs', orgId, 'contacts', 'list', f] as const,
  detail: (orgId: string, id: string) => ['orgs', orgId, 'contacts', 'detail', id] as const,
  merges: (orgId: string, id: string) => ['orgs', orgId, 'contacts', 'merges', id] as const,
};

const base = (orgId: string) => `/api/orgs/${encodeURIComponent(orgId)}/contacts`;

/** The query string of a list request (empty values left out). */
export function listQuery(f: ContactFilters & { limit?: number; cursor?: string | null }): string {
  const p = new URLSearchParams();
  for (const [k, v] of Object.entries(f)) if (v !== undefined && v !== null && v !== '') p.set(k, String(v));
  const s = p.toString();
  return s ? `?${s}` : '';
}

export const contactsApi = {
  list: (orgId: string, f: ContactFilters & { limit?: number; cursor?: string | null }) => apiRequest<ContactListResponse>('GET', `${base(orgId)}${listQuery(f)}`),
  get: (orgId: string, id: string) => apiRequest<ContactDetail>('GET', `${base(orgId)}/${encodeURIComponent(id)}`),
  create: (orgId: string, input: CreateContactInput) => apiRequest<{ contact: ContactView }>('POST', base(orgId), input),
  update: (orgId: string, id: string, input: UpdateContactInput) => apiRequest<{ contact: ContactView }>('PATCH', `${base(orgId)}/${encodeURIComponent(id)}`, input),
  remove: (orgId: string, id: string) => apiRequest<{ deleted: true }>('DELETE', `${base(orgId)}/${encodeURIComponent(id)}`),
  // merge / unmerge (issue 15 item 2)
  merge: (orgId: string, id: string, otherId: string) => apiRequest<{ contact: ContactView }>('POST', `${base(orgId)}/${encodeURIComponent(id)}/merge`, { other_contact_id: otherId }),
  unmerge: (orgId: string, id: string, otherId: string) => apiRequest<{ contact: ContactView; restored: ContactView }>('POST', `${base(orgId)}/${encodeURIComponent(id)}/unmerge`, { other_contact_id: otherId }),
  merges: (orgId: string, id: string) => apiRequest<{ merged: ContactView[]; audit: Array<{ audit_id: string; action: string; actor: string; other_contact_id: string | null; at: number }> }>('GET', `${base(orgId)}/${encodeURIComponent(id)}/merges`),
};

/**
 * Download the filtered contacts as CSV (GET /contacts/export.csv, issue 15 item 3): the browser
 * saves the file. @throws ApiError with the server's message
 */
export async function downloadContactsCsv(orgId: string, f: ContactFilters): Promise<void> {
  const token = await getIdToken();
  if (!token) throw new ApiError(401, 'unauthorized', SESSION_EXPIRED_MESSAGE);
  const res = await fetch(`${getConfig().apiUrl}${base(orgId)}/export.csv${listQuery(f)}`, { headers: { authorization: `Bearer ${token}` } });
  if (!res.ok) {
    const err = ((await res.json().catch(() => null)) as { error?: { code?: string; message?: string } } | null)?.error;
    throw new ApiError(res.status, err?.code ?? `http_${res.status}`, err?.message ?? `The server answered HTTP ${res.status}. Please try again.`);
  }
  const name = /filename="([^"]+)"/.exec(res.headers.get('content-disposition') ?? '')?.[1] ?? 'contacts.csv';
  const url = URL.createObjectURL(await res.blob());
  const a = document.createElement('a');
  a.href = url;
  a.download = name;
  document.body.appendChild(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}
