/**
 * The /list page's filter (the chat list's filters: folder, unread, mine / unassigned, label,
 * phone, type) as the API takes it, and how many chats it matches when the counters know
 * (GET /chats/counts has a count per folder and per single filter, not per combination).
 */
import type { BulkChatFilter } from '#shared/bulk/bulk-job.schemas.ts';
import type { FolderCounts, InboxState } from '#shared/chat/chat-state.rules.ts';

export interface ListFilter {
  state: InboxState;
  unread: boolean;
  /** '' any, 'me' mine, 'none' unassigned */
  assignee: '' | 'me' | 'none';
  label_id: string;
  phone: string;
  type: '' | 'user' | 'group';
  /** issue 15 item 4: a custom property and its value ('' both: none) */
  property_id: string;
  property_value: string;
}

export const NO_FILTER: ListFilter = { state: 'open', unread: false, assignee: '', label_id: '', phone: '', type: '', property_id: '', property_value: '' };

export const FOLDERS: Array<{ value: InboxState; label: string }> = [
  { value: 'open', label: 'All' },
  { value: 'closed', label: 'Closed' },
  { value: 'snoozed', label: 'Snoozed' },
  { value: 'archived', label: 'Archived' },
];

/** The filter as query parameters / a bulk job's `filter` (unset filters left out). */
export function toQuery(f: ListFilter): Record<string, string> {
  const q: Record<string, string> = { state: f.state };
  if (f.unread) q.unread = 'true';
  if (f.assignee) q.assignee = f.assignee;
  if (f.label_id) q.label_id = f.label_id;
  if (f.phone) q.phone = f.phone;
  if (f.type) q.type = f.type;
  if (f.property_id && f.property_value) Object.assign(q, { property_id: f.property_id, property_value: f.property_value });
  return q;
}

/** The filter as a bulk job's selection. */
export const toJobFilter = (f: ListFilter): BulkChatFilter => toQuery(f) as unknown as BulkChatFilter;

/** Filters set besides the folder. */
export const activeFilters = (f: ListFilter): number => [f.unread, f.assignee, f.label_id, f.phone, f.type, f.property_id && f.property_value].filter(Boolean).length;

/**
 * How many chats the filter matches, from the folder counters: known for the folder alone or the
 * folder plus one filter; null for combinations (the page says 'all matching').
 */
export function matchingCount(f: ListFilter, counts: Record<InboxState, FolderCounts> | null): number | null {
  const c = counts?.[f.state];
  if (!c) return null;
  const n = activeFilters(f);
  if (n === 0) return c.total;
  if (n > 1) return null;
  if (f.unread) return c.unread;
  if (f.assignee === 'me') return c.mine;
  if (f.assignee === 'none') return c.unassigned;
  if (f.label_id) return c.labels[f.label_id] ?? 0;
  if (f.phone) return c.phones[f.phone] ?? 0;
  if (f.type) return c.types[f.type] ?? 0;
  return null; // a property value has no counter
}
