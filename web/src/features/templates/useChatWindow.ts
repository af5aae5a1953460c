/**
 * The 24-hour customer service window of the open chat (issue 16; Meta A.8), re-read every 30 s:
 * only Cloud API 1:1 chats have one (WhatsApp Web numbers and groups send freely).
 */
import { useEffect, useState } from 'react';
import type { Chat } from '#shared/chat/chat.schemas.ts';
import { windowState } from '#shared/template/template.rules.ts';
import type { WindowState } from '#shared/template/template.schemas.ts';
import { useSession } from '../../app/session.tsx';
import { windowText } from './window.ts';

export interface ChatWindow {
  /** the chat answers from a Cloud API number (a 1:1 chat): the window applies */
  applies: boolean;
  state: WindowState;
  /** applies and closed: free text is refused, a template is needed */
  closed: boolean;
  text: string;
}

export function useChatWindow(chat: Chat | null): ChatWindow {
  const { org } = useSession();
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    const t = setInterval(() => setNow(Date.now()), 30_000);
    return () => clearInterval(t);
  }, []);
  const phone = chat ? (org.phones ?? []).find((p) => p.phone_id === chat.phone_id) : undefined;
  const applies = !!chat && chat.chat_type === 'user' && chat.has_access !== false && (phone?.connection_type ?? 'wa_cloud') !== 'wa_web';
  const state = chat ? windowState({ last_customer_message_at: chat.last_customer_message_at ?? null, org_phone: chat.org_phone }, now) : { open: false, closes_at: null };
  return { applies, state, closed: applies && !state.open, text: windowText(state, now) };
}
