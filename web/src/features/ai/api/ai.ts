/**
 * Calls and query keys of the AI agent (issue 18): the FAQ pairs, the settings, the test panel and
 * per-chat take-over. Server state through TanStack Query under ['orgs', orgId, 'ai', …].
 */
import { ApiError, apiRequest } from '../../../lib/api.ts';
import { getConfig } from '../../../lib/config.ts';
import { FAQ_UPLOAD_FAILED_MESSAGE } from '#shared/ai/faq.rules.ts';

import type { AiSettings, AiSettingsInput, Faq, FaqAttachment, FaqInput, FaqUploadResponse } from '#shared/ai/ai.schemas.ts';
import type { Chat } from '#shared/chat/chat.schemas.ts';

const enc = encodeURIComponent;

export const aiKeys = {
  all: (orgId: string) => ['orgs', orgId, 'ai'] as const,
  faqs: (orgId: string, q: string) => ['orgs', orgId, 'ai', 'faqs', q] as const,
  settings: (orgId: string) => ['orgs', orgId, 'ai', 'settings'] as const,
};

export interface AiTestResult {
  answer: string | null;
  confidence: number;
  faq_ids: string[];
  handoff: boolean;
  reason: string | null;
  candidates: Array<{ faq_id: string; question: string; score: number }>;
}

export const aiApi = {
  listFaqs: (orgId: string, q: string, cursor?: string | null) =>
    apiRequest<{ faqs: Faq[]; cursor: string | null }>('GET', `/api/orgs/${enc(orgId)}/ai/faqs?limit=100${q ? `&q=${enc(q)}` : ''}${cursor ? `&cursor=${enc(cursor)}` : ''}`),
  createFaq: async (orgId: string, input: FaqInput) => (await apiRequest<{ faq: Faq }>('POST', `/api/orgs/${enc(orgId)}/ai/faqs`, input)).faq,
  updateFaq: async (orgId: string, id: string, input: FaqInput) => (await apiRequest<{ faq: Faq }>('PUT', `/api/orgs/${enc(orgId)}/ai/faqs/${enc(id)}`, input)).faq,
  deleteFaq: (orgId: string, id: string) => apiRequest<{ deleted: true }>('DELETE', `/api/orgs/${enc(orgId)}/ai/faqs/${enc(id)}`),
  getSettings: async (orgId: string) => (await apiRequest<{ settings: AiSettings }>('GET', `/api/orgs/${enc(orgId)}/ai/settings`)).settings,
  saveSettings: async (orgId: string, input: AiSettingsInput) => (await apiRequest<{ settings: AiSettings }>('PUT', `/api/orgs/${enc(orgId)}/ai/settings`, input)).settings,
  test: (orgId: string, question: string) => apiRequest<AiTestResult>('POST', `/api/orgs/${enc(orgId)}/ai/test`, { question }),
  setChatAi: async (orgId: string, chatId: string, state: 'active' | 'paused' | 'inactive') => (await apiRequest<{ chat: Chat }>('PUT', `/api/orgs/${enc(orgId)}/chats/${enc(chatId)}/ai`, { activation_state: state })).chat,
};

/** The MIME type to declare: the browser's, else one guessed from the extension (some systems leave it empty). */
export function faqFileMime(file: File): string {
  if (file.type) return file.type;
  const ext = file.name.slice(file.name.lastIndexOf('.') + 1).toLowerCase();
  const byExt: Record<string, string> = {
    jpg: 'image/jpeg', jpeg: 'image/jpeg', png: 'image/png', mp4: 'video/mp4', '3gp': 'video/3gpp', txt: 'text/plain', pdf: 'application/pdf',
    doc: 'application/msword', xls: 'application/vnd.ms-excel', ppt: 'application/vnd.ms-powerpoint',
    docx: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
    xlsx: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
    pptx: 'application/vnd.openxmlformats-officedocument.presentationml.presentation',
  };
  return byExt[ext] ?? 'application/octet-stream';
}

/**
 * Upload a FAQ pair's file (spec §7: to `{org_id}/ai_assets/{context_id}/`): ask the API for a
 * presigned PUT (`faqId` of the pair being edited; none for a new pair: the API mints its id), then
 * PUT the file straight to the store.
 * @returns the pair id to save with and the attachment `{ url, type, name }`
 * @throws ApiError: the API's refusal (audio, type, size) as it is; a failed PUT as 'Unable to upload file' (spec §8)
 */
export async function uploadFaqFile(orgId: string, faqId: string | undefined, file: File): Promise<{ faq_id: string; attachment: FaqAttachment }> {
  const target = await apiRequest<FaqUploadResponse>('POST', `/api/orgs/${enc(orgId)}/ai/faqs/uploads`, { filename: file.name, mimetype: faqFileMime(file), size: file.size, ...(faqId ? { faq_id: faqId } : {}) });
  const url = /^https?:/i.test(target.upload_url) ? target.upload_url : `${getConfig().apiUrl || window.location.origin}${target.upload_url}`;
  let ok = false;
  try {
    ok = (await fetch(url, { method: 'PUT', headers: target.headers, body: file })).ok;
  } catch {
    ok = false;
  }
  if (!ok) throw new ApiError(0, 'ai.upload_failed', FAQ_UPLOAD_FAILED_MESSAGE);
  return { faq_id: target.faq_id, attachment: target.attachment };
}
