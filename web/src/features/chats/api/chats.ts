/**
 * Pure helpers for the chat list: merge by chat_id and keep the list newest first
 * (latest_message_timestamp desc); the list's filters (URL query <-> GET /chats filters) and the
 * client-side test that moves pushed chats in and out of the filtered list. Used by the list
 * pages and by realtime events.
 */
import type { Chat } from '#shared/chat/chat.schemas.ts';
import { totalUnread } from '#shared/chat/chat.schemas.ts';
import { assigneeKey, inboxState, INBOX_STATES, isClosed, isUnread, type InboxState } from '#shared/chat/chat-state.rules.ts';
import type { Message } from '#shared/message/message.schemas.ts';

export const compareChats = (a: Chat, b: Chat): number =>
  b.latest_message_timestamp - a.latest_message_timestamp || (a.chat_id < b.chat_id ? -1 : a.chat_id > b.chat_id ? 1 : 0);

/**
 * A newer (or same-age) snapshot replaces the stored one; an older snapshot never overwrites a newer one.
 * Realtime pushes carry no per-member fields (the viewer's pin and 'close for me'): the ones we hold are kept.
 */
function pick(existing: Chat | undefined, incoming: Chat): Chat {
  if (!existing) return incoming;
  if (incoming.latest_message_timestamp < existing.latest_message_timestamp) return existing;
  if (incoming.is_pinned !== undefined && incoming.closed_for_me_at !== undefined) return incoming;
  // 'close for me' holds while the latest message is the one the chat had then (chat-state.rules.ts isClosedFor)
  const sameLatest = (incoming.latest_message?.unique_id ?? null) === (existing.latest_message?.unique_id ?? null);
  return {
    ...incoming,
    is_pinned: incoming.is_pinned !== undefined ? incoming.is_pinned : existing.is_pinned,
    closed_for_me_at: incoming.closed_for_me_at !== undefined ? incoming.closed_for_me_at : sameLatest ? existing.closed_for_me_at : null,
  };
}

/** Merge chats into a list (by chat_id) and re-sort. Returns the same array when nothing changed. */
export function upsertChats(list: Chat[], incoming: Chat[]): Chat[] {
  if (incoming.length === 0) return list;
  const byId = new Map(list.map((c) => [c.chat_id, c]));
  let changed = false;
  for (const c of incoming) {
    const prev = byId.get(c.chat_id);
    const next = pick(prev, c);
    if (next !== prev) {
      byId.set(c.chat_id, next);
      changed = true;
    }
  }
  if (!changed) return list;
  return [...byId.values()].sort(compareChats);
}

/** Reflect a message's new state in its chat's preview when it is the chat's latest message. */
export function patchLatestMessage(list: Chat[], chatId: string, m: Message): Chat[] {
  const i = list.findIndex((c) => c.chat_id === chatId);
  if (i < 0) return list;
  const chat = list[i];
  const lm = chat.latest_message;
  const isLatest = lm ? lm.unique_id === m.unique_id : false;
  const isNewer = m.timestamp > chat.latest_message_timestamp;
  if (!isLatest && !isNewer) return list;
  const next: Chat = {
    ...chat,
    latest_message: {
      unique_id: m.unique_id,
      message_id: m.message_id,
      body: m.body,
      message_type: m.message_type,
      from_me: m.from_me,
      ack: m.ack,
      timestamp: m.timestamp,
      author: m.author,
    },
    latest_message_timestamp: Math.max(chat.latest_message_timestamp, m.timestamp),
  };
  const out = list.slice();
  out[i] = next;
  return isNewer ? out.sort(compareChats) : out;
}

/** Number of chats with at least one unread message. */
export const unreadChatCount = (list: Chat[]): number => list.reduce((n, c) => n + (totalUnread(c) > 0 ? 1 : 0), 0);

// ---- filters of the chat list (issue 4) --------------------------------------------------

/** The list's folder and filters, as GET /chats takes them (all combinable). */
export interface ChatFilter {
  state: InboxState;
  unread?: boolean;
  /** 'me', 'none' (Unassigned) or a member email */
  assignee?: string;
  label_id?: string;
  /** org_phone, digits */
  phone?: string;
  type?: 'user' | 'group';
  /** issue 15 item 4: a custom property and its value (both or neither) */
  property_id?: string;
  property_value?: string;
}

export const DEFAULT_FILTER: ChatFilter = { state: 'open' };
/** URL query keys of the filters (the API's names, so a URL reads like the request it makes). */
const FILTER_KEYS = ['state', 'unread', 'assignee', 'label_id', 'phone', 'type', 'property_id', 'property_value'] as const;

/** Does this URL query say anything about the chat filters? */
export const hasFilterParams = (q: URLSearchParams): boolean => FILTER_KEYS.some((k) => q.has(k));

/** Filters from a URL query; unknown or malformed values are ignored. */
export function filterFromSearch(q: URLSearchParams): ChatFilter {
  const state = q.get('state');
  const f: ChatFilter = { state: (INBOX_STATES as readonly string[]).includes(state ?? '') ? (state as InboxState) : 'open' };
  const unread = q.get('unread');
  if (unread === 'true' || unread === 'false') f.unread = unread === 'true';
  const assignee = q.get('assignee')?.trim().toLowerCase();
  if (assignee) f.assignee = assignee;
  const label = q.get('label_id');
  if (label) f.label_id = label;
  const phone = q.get('phone');
  if (phone && /^\d{5,20}$/.test(phone)) f.phone = phone;
  const type = q.get('type');
  if (type === 'user' || type === 'group') f.type = type;
  const propertyId = q.get('property_id')?.trim();
  const propertyValue = q.get('property_value')?.trim();
  if (propertyId && propertyValue) Object.assign(f, { property_id: propertyId, property_value: propertyValue });
  return f;
}

/** The filters as query parameters (defaults left out). */
export function filterParams(f: ChatFilter): Record<string, string> {
  const out: Record<string, string> = {};
  if (f.state !== 'open') out.state = f.state;
  if (f.unread !== undefined) out.unread = String(f.unread);
  if (f.assignee) out.assignee = f.assignee;
  if (f.label_id) out.label_id = f.label_id;
  if (f.phone) out.phone = f.phone;
  if (f.type) out.type = f.type;
  if (f.property_id && f.property_value) Object.assign(out, { property_id: f.property_id, property_value: f.property_value });
  return out;
}

/** A URL query with the filters set and every other parameter kept. */
export function withFilterParams(q: URLSearchParams, f: ChatFilter): URLSearchParams {
  const next = new URLSearchParams(q);
  for (const k of FILTER_KEYS) next.delete(k);
  for (const [k, v] of Object.entries(filterParams(f))) next.set(k, v);
  return next;
}

/** Stable identity of a filter (for comparisons and effect keys). */
export const filterKey = (f: ChatFilter): string => new URLSearchParams(filterParams(f)).toString();

/** Any filter besides the default folder? */
export const isDefaultFilter = (f: ChatFilter): boolean => filterKey(f) === '';

/** Are filters other than the folder set? */
export const hasToggles = (f: ChatFilter): boolean => Object.keys(filterParams({ ...f, state: 'open' })).length > 0;

/** The folder a chat is in: the server's stored `inbox_state`, else computed from its facts. */
export const folderOf = (c: Chat, now: number): InboxState => c.inbox_state ?? inboxState(c, now);

/**
 * Does the chat belong in the list of filter `f` for the viewer `me`? The same test as the
 * server's (shared/chat/chat-list.ts), used to move chats pushed over the socket, or changed by
 * our own actions, in and out of the list. Stubs (`has_access: false`) carry only their folder,
 * phone and type, so only those are checked for them.
 */
export function chatMatchesFilter(c: Chat, f: ChatFilter, me: string, now: number): boolean {
  if (folderOf(c, now) !== f.state) return false;
  if (f.phone !== undefined && c.org_phone !== f.phone) return false;
  if (f.type !== undefined && c.chat_type !== f.type) return false;
  if (c.has_access === false) return true;
  if (f.unread !== undefined && isUnread(c) !== f.unread) return false;
  if (f.assignee !== undefined && assigneeKey(c.assigned_to) !== (f.assignee === 'me' ? assigneeKey(me) : f.assignee)) return false;
  if (f.label_id !== undefined && !(c.label_ids ?? []).includes(f.label_id)) return false;
  // as the server's ChatPropertyLink key: trimmed, whatever the case
  if (f.property_id !== undefined && f.property_value !== undefined && (c.custom_properties?.[f.property_id] ?? '').trim().toLowerCase() !== f.property_value.trim().toLowerCase()) return false;
  // the server gives `closed_for_me_at` only while the viewer's own close still holds
  if (f.state === 'open' && (isClosed(c) || c.closed_for_me_at != null)) return false;
  return true;
}

/** Pinned chats first (newest message first among them), then the rest newest first. */
export const comparePinnedFirst = (a: Chat, b: Chat): number => Number(!!b.is_pinned) - Number(!!a.is_pinned) || compareChats(a, b);

/** Is the chat unread for the list (an unread count, or marked unread by a teammate)? */
export const chatIsUnread = (c: Chat): boolean => totalUnread(c) > 0 || isUnread(c);
