/**
 * Read receipts of the open thread: opening a chat with unread messages marks it read
 * (POST .../read); messages arriving while it is open are read only while the window is focused
 * and visible (the agent is looking). One request per (latest message, unread count).
 */
import { useEffect, useRef, useState } from 'react';
import type { Chat } from '#shared/chat/chat.schemas.ts';
import { totalUnread } from '#shared/chat/chat.schemas.ts';
import { api } from '../../../lib/api.ts';

function useWindowFocused(): boolean {
  const [focused, setFocused] = useState(() => document.hasFocus());
  useEffect(() => {
    const update = () => setFocused(document.hasFocus() && document.visibilityState === 'visible');
    window.addEventListener('focus', update);
    window.addEventListener('blur', update);
    document.addEventListener('visibilitychange', update);
    return () => {
      window.removeEventListener('focus', update);
      window.removeEventListener('blur', update);
      document.removeEventListener('visibilitychange', update);
    };
  }, []);
  return focused;
}

/** @param applyChat takes the chat as the read call returns it */
export function useReadReceipts(orgId: string, chatId: string, chat: Chat | null, applyChat: (c: Chat) => void): void {
  const focused = useWindowFocused();
  const unread = chat ? totalUnread(chat) : 0;
  const openedRef = useRef(false);
  const readKey = useRef<string | null>(null);
  useEffect(() => {
    if (!chat) return;
    const justOpened = !openedRef.current;
    openedRef.current = true;
    if (unread === 0) return;
    // opening a chat reads it; later arrivals are read only while the agent is looking
    if (!justOpened && !focused) return;
    const key = `${chat.latest_message_timestamp}:${unread}`;
    if (readKey.current === key) return;
    readKey.current = key;
    api
      .markRead(orgId, chatId)
      .then(applyChat)
      .catch((e) => console.warn('mark read failed', e));
  }, [chat, unread, focused, orgId, chatId, applyChat]);
}
