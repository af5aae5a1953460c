/**
 * Typing indicator of the open chat (spec §4 'Typing indicator'), over the realtime socket.
 *
 * Out: while the member types in the composer, `{ type: 'typing', chat_id, state: 'start' }` is
 * sent at most once per TYPING_CLIENT_START_EVERY_MS (3 s); `state: 'stop'` when the input is
 * cleared, the message is sent (`onSent`), after TYPING_IDLE_STOP_MS (5 s) without a keystroke,
 * or when the chat is left. Frames are dropped while the socket is down (nothing is queued).
 * In: `typing` inbox events (chat.typing) of this chat keep email -> expiry, TYPING_SHOW_FOR_MS
 * (6 s) after the teammate's last 'start', removed on their 'stop'; `text` is the indicator line
 * ('Alan is typing...', 'Alan + 2 are typing...', shared/chat/typing.rules.ts) or null.
 */
import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { TYPING_CLIENT_START_EVERY_MS, TYPING_IDLE_STOP_MS, TYPING_SHOW_FOR_MS, typingText, type Typer } from '#shared/chat/typing.rules.ts';
import { useInbox, type InboxEvent } from '../../../app/inbox.tsx';
import { useSession } from '../../../app/session.tsx';

export interface TypingState {
  /** the indicator line, or null when no teammate types in this chat */
  text: string | null;
  /** the composer's text after each keystroke */
  onInput: (text: string) => void;
  /** the message was sent: stop at once */
  onSent: () => void;
}

/** A teammate typing here; `at` and `expires` are epoch ms on this device's clock. */
type Shown = Typer & { expires: number };

export function useTyping(chatId: string): TypingState {
  const { send, subscribe } = useInbox();
  const { user } = useSession();
  const self = user.email.toLowerCase();

  // ---- out ---------------------------------------------------------------------------------
  const out = useRef<{ started: boolean; lastStart: number; idle: ReturnType<typeof setTimeout> | null }>({ started: false, lastStart: 0, idle: null });

  const stop = useCallback(() => {
    const o = out.current;
    if (o.idle) clearTimeout(o.idle);
    o.idle = null;
    if (!o.started) return;
    o.started = false;
    send({ type: 'typing', chat_id: chatId, state: 'stop' });
  }, [send, chatId]);

  const onInput = useCallback(
    (text: string) => {
      if (!text.trim()) return stop();
      const o = out.current;
      const now = Date.now();
      if ((!o.started || now - o.lastStart >= TYPING_CLIENT_START_EVERY_MS) && send({ type: 'typing', chat_id: chatId, state: 'start' })) {
        o.started = true;
        o.lastStart = now;
      }
      if (o.idle) clearTimeout(o.idle);
      o.idle = setTimeout(stop, TYPING_IDLE_STOP_MS);
    },
    [send, chatId, stop],
  );

  // leaving the chat (or the page) stops
  useEffect(() => stop, [stop]);

  // ---- in ----------------------------------------------------------------------------------
  const [typers, setTypers] = useState<ReadonlyMap<string, Shown>>(() => new Map());

  useEffect(() => {
    setTypers(new Map());
    return subscribe((e: InboxEvent) => {
      if (e.kind === 'resync') return setTypers(new Map());
      if (e.kind !== 'typing' || e.chatId !== chatId) return;
      const email = e.email.toLowerCase();
      if (email === self) return;
      setTypers((prev) => {
        if (e.state === 'stop' && !prev.has(email)) return prev;
        const next = new Map(prev);
        if (e.state === 'stop') next.delete(email);
        else {
          const now = Date.now();
          next.set(email, { email: e.email, member_name: e.memberName, at: now, expires: now + TYPING_SHOW_FOR_MS });
        }
        return next;
      });
    });
  }, [subscribe, chatId, self]);

  // drop teammates whose last 'start' is older than TYPING_SHOW_FOR_MS (their 'stop' may be lost)
  useEffect(() => {
    if (typers.size === 0) return;
    const soonest = Math.min(...Array.from(typers.values(), (t) => t.expires));
    const timer = setTimeout(
      () =>
        setTypers((prev) => {
          const now = Date.now();
          const next = new Map(Array.from(prev).filter(([, t]) => t.expires > now));
          return next.size === prev.size ? prev : next;
        }),
      Math.max(0, soonest - Date.now()) + 25,
    );
    return () => clearTimeout(timer);
  }, [typers]);

  const text = useMemo(() => typingText(Array.from(typers.values())), [typers]);
  return { text, onInput, onSent: stop };
}
