import type { Chat, LatestMessage } from './chat.schemas.ts';
import { SERVICE_WINDOW_HOURS } from '../whatsapp/capabilities.ts';

/**
 * Pure chat-state rules: how a new message changes the chat row. Used by ingest and send,
 * tested beside this file. Timestamps are epoch ms.
 */

/** 24-hour customer service window (Meta "Send messages"; whatsapp-protocols.md A.8), in ms; defined in hours in shared/whatsapp/capabilities.ts. */
export const SERVICE_WINDOW_MS = SERVICE_WINDOW_HOURS * 3_600_000;

export interface ChatMessageFacts {
  latest: LatestMessage;
  org_phone: string;
  phone_id: string;
  /** counts toward unread (customer messages that are not reactions) */
  countsAsUnread: boolean;
  /** a customer message: opens the service window */
  fromCustomer: boolean;
}

type ChatState = Pick<
  Chat,
  | 'latest_message'
  | 'latest_message_timestamp'
  | 'latest_message_timestamp_map'
  | 'unread_count'
  | 'message_unread_count'
  | 'chat_org_phones'
  | 'last_customer_message_at'
>;

/**
 * Apply one message to a chat's row state. Out-of-order arrivals (an older message after a
 * newer one) still count as unread but never replace the newer `latest_message`.
 */
export function applyMessageToChat<C extends ChatState>(chat: C, m: ChatMessageFacts): C {
  const ts = m.latest.timestamp;
  const newer = !chat.latest_message || ts >= chat.latest_message_timestamp;
  const phones = new Set(chat.chat_org_phones ?? []);
  phones.add(m.org_phone);
  const unread = { ...(chat.unread_count ?? {}) };
  if (m.countsAsUnread) unread[m.org_phone] = (unread[m.org_phone] ?? 0) + 1;
  const tsMap = { ...(chat.latest_message_timestamp_map ?? {}) };
  tsMap[m.org_phone] = Math.max(tsMap[m.org_phone] ?? 0, ts);
  const window = { ...(chat.last_customer_message_at ?? {}) };
  if (m.fromCustomer) window[m.org_phone] = Math.max(window[m.org_phone] ?? 0, ts);
  return {
    ...chat,
    latest_message: newer ? m.latest : chat.latest_message,
    latest_message_timestamp: newer ? ts : chat.latest_message_timestamp,
    latest_message_timestamp_map: tsMap,
    unread_count: unread,
    message_unread_count: (chat.message_unread_count ?? 0) + (m.countsAsUnread ? 1 : 0),
    chat_org_phones: [...phones],
    last_customer_message_at: window,
  };
}

/** Reset unread counters (all phones) when a member reads the chat. */
export function markRead<C extends Pick<Chat, 'unread_count' | 'message_unread_count'>>(chat: C): C {
  const unread: Record<string, number> = {};
  for (const k of Object.keys(chat.unread_count ?? {})) unread[k] = 0;
  return { ...chat, unread_count: unread, message_unread_count: 0 };
}

/**
 * When the free-form service window of this phone closes (epoch ms), as the chat row says now; null
 * when no customer message opened one. It only ever moves later (a newer customer message), so a
 * window seen open until T stays open until at least T.
 */
export function serviceWindowEnd(chat: Pick<Chat, 'last_customer_message_at'>, orgPhone: string): number | null {
  const last = chat.last_customer_message_at?.[orgPhone];
  return last != null ? last + SERVICE_WINDOW_MS : null;
}

/** Is the free-form service window open for this phone at `now` (epoch ms)? */
export function isServiceWindowOpen(chat: Pick<Chat, 'last_customer_message_at'>, orgPhone: string, now: number): boolean {
  const last = chat.last_customer_message_at?.[orgPhone];
  return last != null && now - last < SERVICE_WINDOW_MS;
}
