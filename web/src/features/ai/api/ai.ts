/**
 * Calls and query keys of the AI agent (issue 18): the FAQ pairs, the settings, the test panel and
 * per-chat take-over. Server state through TanStack Query under ['orgs', orgId, 'ai', …].
 */
import { apiRequest } from '../../../lib/api.ts';
import type { AiSettings, AiSettingsInput, Faq, FaqInput } from '#shared/ai/ai.schemas.ts';
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
