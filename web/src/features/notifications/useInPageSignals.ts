/**
 * In-page signals of the open app (issue 21): the optional chime for a customer's new message
 * (preference `push.sound`; not for the chat being read in a visible tab), and the service worker's
 * requests to show a chat after a notification click (`chorus.navigate`, public/sw.js), handled
 * with the router so the app does not reload. (The unread count in the tab title is the shell's.)
 */
import { useEffect, useRef } from 'react';
import { useLocation, useNavigate } from 'react-router-dom';
import { useInbox } from '../../app/inbox.tsx';
import { useUserPrefs } from '../../app/preferences.tsx';

export function useInPageSignals(): void {
  const { subscribe } = useInbox();
  const { prefs } = useUserPrefs();
  const navigate = useNavigate();
  const location = useLocation();
  const soundOn = useRef(false);
  const path = useRef(location.pathname);
  soundOn.current = !!prefs?.push.sound;
  path.current = location.pathname;

  useEffect(
    () =>
      subscribe((e) => {
        if (!soundOn.current || e.kind !== 'message' || e.type !== 'message.received') return;
        if (e.message.from_me || e.message.is_private_note) return;
        const reading = !document.hidden && path.current === `/chats/${encodeURIComponent(e.chatId)}`;
        // the chime is its own small chunk, loaded the first time it plays
        if (!reading) void import('./sound.ts').then((m) => m.playMessageSound());
      }),
    [subscribe],
  );

  useEffect(() => {
    if (!('serviceWorker' in navigator)) return;
    const onMessage = (ev: MessageEvent) => {
      const m = ev.data as { type?: string; url?: string } | null;
      if (m?.type === 'chorus.navigate' && typeof m.url === 'string' && m.url.startsWith('/')) navigate(m.url);
    };
    navigator.serviceWorker.addEventListener('message', onMessage);
    return () => navigator.serviceWorker.removeEventListener('message', onMessage);
  }, [navigate]);
}
