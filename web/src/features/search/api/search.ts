/**
 * The search API for the web app (issue 14): a query-key factory under ['orgs', orgId, 'search']
 * and the pure helpers of the dialog (params from the form, where a hit opens, close delays).
 */
import type { SearchItem, SearchKind } from '#shared/search-api/search.schemas.ts';

export const searchKeys = {
  all: (orgId: string) => ['orgs', orgId, 'search'] as const,
  query: (orgId: string, params: SearchParams) => ['orgs', orgId, 'search', params] as const,
};

export interface SearchFilters {
  phone_id?: string;
  label_id?: string;
  sender?: string;
  message_type?: string;
  /** yyyy-mm-dd (local day), inclusive */
  from?: string;
  to?: string;
}

export interface SearchParams extends Record<string, string | number | undefined> {
  q: string;
  limit: number;
  phone_id?: string;
  label_id?: string;
  sender?: string;
  message_type?: string;
  from?: number;
  to?: number;
}

/** spec §9: 500 ms debounce, 500 results per kind, close 500 ms after choosing (1 s for tickets) */
export const DEBOUNCE_MS = 500;
export const PAGE_LIMIT = 500;
export const closeDelay = (kind: SearchKind): number => (kind === 'tickets' ? 1000 : 500);

/** The API params of the dialog's text and filters (dates as local-day bounds in epoch ms). */
export function searchParams(q: string, f: SearchFilters): SearchParams {
  const day = (d: string, end: boolean) => {
    const t = new Date(`${d}T00:00:00`).getTime();
    return Number.isNaN(t) ? undefined : end ? t + 86_400_000 - 1 : t;
  };
  return {
    q: q.trim(),
    limit: PAGE_LIMIT,
    phone_id: f.phone_id || undefined,
    label_id: f.label_id || undefined,
    sender: f.sender?.trim() || undefined,
    message_type: f.message_type || undefined,
    from: f.from ? day(f.from, false) : undefined,
    to: f.to ? day(f.to, true) : undefined,
  };
}

/** Where a hit opens: its message in its thread (messages, notes, media), its chat, or its ticket. */
export function hitPath(kind: SearchKind, item: SearchItem): string {
  const chat = `/chats/${encodeURIComponent(item.chat_id)}`;
  if (kind === 'tickets' && item.ticket_id) return `/tickets?ticket=${encodeURIComponent(item.ticket_id)}`;
  if ((kind === 'messages' || kind === 'notes' || kind === 'media') && item.unique_id) return `${chat}?message=${encodeURIComponent(item.unique_id)}`;
  return chat;
}

export const KIND_LABELS: Record<SearchKind, string> = { messages: 'Messages', chats: 'Chats', contacts: 'Contacts', notes: 'Notes', tickets: 'Tickets', media: 'Media' };
export const KIND_ORDER: SearchKind[] = ['messages', 'chats', 'contacts', 'notes', 'tickets', 'media'];

/** Count text of a tab: the page's hits, '500+' when there is a next page. */
export const countText = (n: number, more: boolean): string => (more ? `${n}+` : String(n));
