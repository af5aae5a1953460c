/**
 * Client of the broadcasts API (issue 16 part B: /api/orgs/{org_id}/broadcasts…) and its TanStack
 * Query keys (`['orgs', orgId, 'broadcasts', …]`).
 */
import { ApiError, apiRequest } from '../../lib/api.ts';
import { getIdToken, SESSION_EXPIRED_MESSAGE } from '../../lib/auth.ts';
import { getConfig } from '../../lib/config.ts';
import type { Broadcast, BroadcastPreview, BroadcastUploadResponse, CreditUsage, Recipient } from '#shared/broadcast/broadcast.schemas.ts';
import { mimeOf, putUpload } from '../chats/index.ts';

export type { Broadcast, BroadcastPreview, CreditUsage, Recipient };
const enc = encodeURIComponent;
const base = (orgId: string) => `/api/orgs/${enc(orgId)}/broadcasts`;

export type RecipientFilter = 'all' | 'pending' | 'sent' | 'delivered' | 'read' | 'failed' | 'replied' | 'skipped';
export type AudienceInput =
  | { kind: 'chats'; chat_ids: string[] }
  | { kind: 'filter'; filter: { state?: string; label_id?: string; assignee?: string; type?: 'user' | 'group'; unread?: 'true' } }
  | { kind: 'csv'; rows: Array<{ phone: string; vars: Record<string, string> }> }
  | { kind: 'contacts'; filter: { q?: string; label_id?: string; property_id?: string; property_value?: string; phone_id?: string; seen_from?: number; seen_to?: number }; phone_id?: string };
/** Text, a template, or both (the template for Cloud API recipients outside the 24-hour window); see BroadcastContent. */
export interface ContentInput {
  body?: string;
  template?: { name: string; language: string; values: Record<string, string | { link: string } | { id: string }> };
  /** a media-library file (the message it is stored on) or a file uploaded from the computer, sent with the text as its caption */
  media?: { chat_id: string; unique_id: string } | { upload_id: string };
}
export interface BroadcastDraft {
  name: string;
  audience: AudienceInput;
  content: ContentInput;
  send_at?: number | null;
  options: { pace_ms?: number; quiet_hours?: { start: string; end: string } | null; opt_out_keyword?: string };
}

export const broadcastKeys = {
  all: (orgId: string) => ['orgs', orgId, 'broadcasts'] as const,
  list: (orgId: string) => ['orgs', orgId, 'broadcasts', 'list'] as const,
  one: (orgId: string, id: string) => ['orgs', orgId, 'broadcasts', 'one', id] as const,
  recipients: (orgId: string, id: string, filter: RecipientFilter) => ['orgs', orgId, 'broadcasts', 'recipients', id, filter] as const,
  credits: (orgId: string) => ['orgs', orgId, 'broadcasts', 'credits'] as const,
};

export const broadcastsApi = {
  list: (orgId: string) => apiRequest<{ broadcasts: Broadcast[]; cursor: string | null }>('GET', `${base(orgId)}?limit=50`),
  get: async (orgId: string, id: string) => (await apiRequest<{ broadcast: Broadcast }>('GET', `${base(orgId)}/${enc(id)}`)).broadcast,
  credits: (orgId: string) => apiRequest<CreditUsage>('GET', `${base(orgId)}/credits`),
  preview: (orgId: string, d: Omit<BroadcastDraft, 'name' | 'send_at'>) => apiRequest<BroadcastPreview>('POST', `${base(orgId)}/preview`, d),
  create: async (orgId: string, d: BroadcastDraft) => (await apiRequest<{ broadcast: Broadcast }>('POST', base(orgId), d)).broadcast,
  control: async (orgId: string, id: string, action: 'pause' | 'resume' | 'cancel') => (await apiRequest<{ broadcast: Broadcast }>('POST', `${base(orgId)}/${enc(id)}/actions`, { action })).broadcast,
  recipients: (orgId: string, id: string, filter: RecipientFilter, cursor?: string | null) =>
    apiRequest<{ recipients: Recipient[]; cursor: string | null }>('GET', `${base(orgId)}/${enc(id)}/recipients?filter=${filter}&limit=100${cursor ? `&cursor=${enc(cursor)}` : ''}`),
  /**
   * Upload a file from the computer for a broadcast: POST /broadcasts/uploads (type and size checked
   * there, like the composer's), then PUT the file straight to the blob store with progress (0..1).
   * @returns the upload (its `upload_id` goes into `content.media`)
   * @throws ApiError (refused type or size, upload failure), UploadCancelled
   */
  async upload(orgId: string, file: File, onProgress: (fraction: number) => void, signal: AbortSignal): Promise<BroadcastUploadResponse> {
    const target = await apiRequest<BroadcastUploadResponse>('POST', `${base(orgId)}/uploads`, { filename: file.name, mimetype: mimeOf(file), size: file.size });
    await putUpload(target, file, onProgress, signal);
    return target;
  },
  /** Download the per-recipient log as CSV (the browser saves the file). */
  async exportCsv(orgId: string, id: string): Promise<void> {
    const token = await getIdToken();
    if (!token) throw new ApiError(401, 'unauthorized', SESSION_EXPIRED_MESSAGE);
    const res = await fetch(`${getConfig().apiUrl}${base(orgId)}/${enc(id)}/recipients.csv`, { headers: { authorization: `Bearer ${token}` } });
    if (!res.ok) throw new ApiError(res.status, `http_${res.status}`, 'The export could not be downloaded. Please try again.');
    const url = URL.createObjectURL(await res.blob());
    const a = document.createElement('a');
    a.href = url;
    a.download = `broadcast-${id}.csv`;
    document.body.appendChild(a);
    a.click();
    a.remove();
    setTimeout(() => URL.revokeObjectURL(url), 10_000);
  },
};
