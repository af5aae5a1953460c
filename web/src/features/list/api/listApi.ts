/**
 * API calls of the /list page: the filtered chat list, bulk jobs and
 * the CSV export (a file, so not through the JSON client). Same bearer token, error shape
 * (`ApiError`) and session-expiry handling as web/src/lib/api.ts.
 */
import type { Chat } from '#shared/chat/chat.schemas.ts';
import type { BulkJob, CreateBulkJobRequest } from '#shared/bulk/bulk-job.schemas.ts';
import { ApiError } from '../../../lib/api.ts';
import { getIdToken, SESSION_EXPIRED_MESSAGE } from '../../../lib/auth.ts';
import { getConfig } from '../../../lib/config.ts';
import { triggerSessionExpired } from '../../../app/sessionExpiry.ts';
import { toQuery, type ListFilter } from './filters.ts';

const enc = encodeURIComponent;

/** fetch with the ID token; 401 (or no token) ends the session; other errors as ApiError. */
async function send(method: 'GET' | 'POST', path: string, body?: unknown): Promise<Response> {
  const token = await getIdToken();
  if (!token) {
    triggerSessionExpired();
    throw new ApiError(401, 'unauthorized', SESSION_EXPIRED_MESSAGE);
  }
  let res: Response;
  try {
    res = await fetch(`${getConfig().apiUrl}${path}`, {
      method,
      headers: { authorization: `Bearer ${token}`, ...(body !== undefined ? { 'content-type': 'application/json' } : {}) },
      body: body !== undefined ? JSON.stringify(body) : undefined,
    });
  } catch {
    throw new ApiError(0, 'network', 'Could not reach the Chorus server. Check your connection and try again.');
  }
  if (res.status === 401) {
    triggerSessionExpired();
    throw new ApiError(401, 'unauthorized', SESSION_EXPIRED_MESSAGE);
  }
  if (!res.ok) {
    const err = ((await res.json().catch(() => null)) as { error?: { code?: string; message?: string; details?: unknown } } | null)?.error;
    throw new ApiError(res.status, err?.code ?? `http_${res.status}`, err?.message ?? `The server answered HTTP ${res.status}. Please try again.`, err?.details);
  }
  return res;
}

const json = async <T>(method: 'GET' | 'POST', path: string, body?: unknown): Promise<T> => (await send(method, path, body)).json() as Promise<T>;

export const listApi = {
  /** One page of chats matching the filter, newest first. */
  async chats(orgId: string, filter: ListFilter, cursor: string | null, limit = 100): Promise<{ chats: Chat[]; cursor: string | null }> {
    const q = new URLSearchParams({ ...toQuery(filter), limit: String(limit), ...(cursor ? { cursor } : {}) });
    const out = await json<{ chats?: Chat[]; cursor?: string | null }>('GET', `/api/orgs/${enc(orgId)}/chats?${q}`);
    return { chats: out.chats ?? [], cursor: out.cursor ?? null };
  },

  async startJob(orgId: string, input: CreateBulkJobRequest): Promise<BulkJob> {
    return (await json<{ job: BulkJob }>('POST', `/api/orgs/${enc(orgId)}/chats/bulk-jobs`, input)).job;
  },

  async job(orgId: string, jobId: string): Promise<BulkJob> {
    return (await json<{ job: BulkJob }>('GET', `/api/orgs/${enc(orgId)}/chats/bulk-jobs/${enc(jobId)}`)).job;
  },

  async undo(orgId: string, jobId: string): Promise<BulkJob> {
    return (await json<{ job: BulkJob }>('POST', `/api/orgs/${enc(orgId)}/chats/bulk-jobs/${enc(jobId)}/undo`)).job;
  },

  /** Download the filter's chats as CSV (the browser saves the file). */
  async exportCsv(orgId: string, filter: ListFilter): Promise<void> {
    const res = await send('GET', `/api/orgs/${enc(orgId)}/chats/export.csv?${new URLSearchParams(toQuery(filter))}`);
    const name = /filename="([^"]+)"/.exec(res.headers.get('content-disposition') ?? '')?.[1] ?? 'chats.csv';
    const url = URL.createObjectURL(await res.blob());
    const a = document.createElement('a');
    a.href = url;
    a.download = name;
    document.body.appendChild(a);
    a.click();
    a.remove();
    setTimeout(() => URL.revokeObjectURL(url), 10_000);
  },
};
