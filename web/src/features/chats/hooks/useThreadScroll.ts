/**
 * The thread's scrolling (ui.md): it opens at the bottom and stays there on new messages only if
 * the agent was already there; older pages load when scrolled near the top (or at once when the
 * first page does not fill the pane) and keep what was on screen in place; `?message=<unique_id>`
 * (a ticket's 'Jump to chat', the pinned bar, a quote) scrolls to that message once loaded,
 * loading older pages until it is, and flashes it.
 */
import { useCallback, useEffect, useLayoutEffect, useRef, useState } from 'react';
import { useSearchParams } from 'react-router-dom';
import type { Message } from '#shared/message/message.schemas.ts';
import type { ThreadStatus } from './useThreadMessages.ts';

const NEAR_BOTTOM_PX = 48;
const NEAR_TOP_PX = 120;

export interface ThreadScrollInput {
  messages: Message[];
  status: ThreadStatus;
  cursor: string | null;
  loadingOlder: boolean;
  olderError: string | null;
  loadOlder: () => void;
}

export function useThreadScroll({ messages, status, cursor, loadingOlder, olderError, loadOlder }: ThreadScrollInput) {
  const scrollRef = useRef<HTMLDivElement>(null);
  const atBottom = useRef(true);
  const forceBottom = useRef(true);
  /** what was on screen at the last render: the oldest message, the scroll height and offset */
  const anchor = useRef<{ first: string | null; height: number; top: number }>({ first: null, height: 0, top: 0 });
  const [showJump, setShowJump] = useState(false);
  const more = useRef({ cursor, loadingOlder });
  more.current = { cursor, loadingOlder };

  const onScroll = useCallback(() => {
    const el = scrollRef.current;
    if (!el) return;
    const bottom = el.scrollHeight - el.scrollTop - el.clientHeight < NEAR_BOTTOM_PX;
    atBottom.current = bottom;
    setShowJump(!bottom);
    anchor.current = { ...anchor.current, height: el.scrollHeight, top: el.scrollTop };
    if (el.scrollTop < NEAR_TOP_PX && more.current.cursor && !more.current.loadingOlder) loadOlder();
  }, [loadOlder]);

  useLayoutEffect(() => {
    const el = scrollRef.current;
    if (!el) return;
    const first = messages[0]?.unique_id ?? null;
    const prev = anchor.current;
    // older messages came in above: keep what was on screen where it was
    const prepended = prev.first !== null && first !== prev.first && messages.some((m) => m.unique_id === prev.first);
    if (prepended && !forceBottom.current) {
      el.scrollTop = el.scrollHeight - prev.height + prev.top;
    } else if (forceBottom.current || atBottom.current) {
      el.scrollTop = el.scrollHeight;
      if (status === 'ready') forceBottom.current = false;
      atBottom.current = true;
    }
    anchor.current = { first, height: el.scrollHeight, top: el.scrollTop };
  }, [messages, status]);

  // a first page that does not fill the pane: fetch older right away
  useEffect(() => {
    const el = scrollRef.current;
    if (status === 'ready' && el && cursor && !loadingOlder && !olderError && el.scrollHeight <= el.clientHeight + NEAR_TOP_PX) loadOlder();
  }, [status, cursor, messages, loadingOlder, olderError, loadOlder]);

  const jumpToBottom = useCallback(() => {
    const el = scrollRef.current;
    if (el) el.scrollTop = el.scrollHeight;
  }, []);
  /** Scroll to the bottom on the next render (our own message just went in). */
  const stickToBottom = useCallback(() => {
    forceBottom.current = true;
  }, []);

  // ?message=<unique_id>: show that message once it is loaded
  const [search, setSearch] = useSearchParams();
  const jumpTo = search.get('message');
  useEffect(() => {
    if (!jumpTo || status !== 'ready') return;
    const el = scrollRef.current?.querySelector<HTMLElement>(`[data-unique-id="${CSS.escape(jumpTo)}"]`);
    if (!el) {
      if (more.current.cursor && !more.current.loadingOlder) loadOlder();
      else if (!more.current.cursor) setSearch({}, { replace: true });
      return;
    }
    forceBottom.current = false;
    atBottom.current = false;
    el.scrollIntoView({ block: 'center' });
    el.classList.remove('flash');
    void el.offsetWidth;
    el.classList.add('flash');
    setSearch({}, { replace: true });
  }, [jumpTo, status, messages, loadOlder, setSearch]);
  const jumpToMessage = useCallback((uniqueId: string) => setSearch({ message: uniqueId }, { replace: true }), [setSearch]);

  return { scrollRef, onScroll, showJump, jumpToBottom, stickToBottom, jumpToMessage };
}
