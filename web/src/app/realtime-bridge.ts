/**
 * The one realtime bridge (issue 12): the organization's socket (lib/socket.ts) feeds the query
 * cache. Each event (realtime-events.ts) is written into the features' query keys with
 * setQueryData, or invalidates what it cannot patch, and is then re-broadcast to subscribers that
 * react to it rather than store it (typing, toasts, the pages not on queries yet).
 *
 * What each event does to the cache: realtime-cache.ts. Besides, the bridge debounces the
 * follow-ups events ask for (counts, a stale chat's refetch, unknown labels).
 */
import type { QueryClient } from '@tanstack/react-query';
import { api, errorMessage } from '../lib/api.ts';
import { getConfig } from '../lib/config.ts';
import { getIdToken } from '../lib/auth.ts';
import { RealtimeSocket, type SocketState } from '../lib/socket.ts';
import { chatKeys } from '../features/chats/api/keys.ts';
import { parseRealtimeEvent, type InboxEvent } from './realtime-events.ts';
import { applyToCache, mergeLive, type CacheEffects } from './realtime-cache.ts';
import { triggerSessionExpired } from './sessionExpiry.ts';
import { attachSocket, handleSessionEvent, sessionId } from './activeSession.ts';

export interface RealtimeBridgeOptions {
  qc: QueryClient;
  orgId: string;
  /** the signed-in user's email (what 'mine' means in task lists) */
  me: string;
  /** every event, after the cache has it */
  emit: (e: InboxEvent) => void;
  onState: (s: SocketState) => void;
}

/** Debounce of the folder counts after chat events (one GET /chats/counts per burst), ms. */
const COUNTS_DELAY_MS = 1000;
/** Debounce of a stale chat's refetch, per chat, ms. */
const REFETCH_CHAT_MS = 250;

/**
 * Open the org's socket and bridge it into the cache until `stop`. `send` puts a client frame
 * (typing) on the socket; it returns false (frame dropped) while the socket is not open.
 */
export function startRealtimeBridge({ qc, orgId, me, emit, onState }: RealtimeBridgeOptions): { stop: () => void; send: (frame: unknown) => boolean } {
  let countsTimer: ReturnType<typeof setTimeout> | null = null;
  const chatTimers = new Map<string, ReturnType<typeof setTimeout>>();
  const labelsAsked = new Set<string>();

  const follow = (fx: CacheEffects) => {
    if (fx.counts && !countsTimer) {
      countsTimer = setTimeout(() => {
        countsTimer = null;
        void qc.invalidateQueries({ queryKey: chatKeys.counts(orgId) });
      }, COUNTS_DELAY_MS);
    }
    const chatId = fx.refetchChat;
    if (chatId && !chatTimers.has(chatId)) {
      chatTimers.set(
        chatId,
        setTimeout(() => {
          chatTimers.delete(chatId);
          api
            .getChat(orgId, chatId)
            .then((c) => mergeLive(qc, orgId, [c]))
            .catch((err) => console.warn('chat refetch failed', errorMessage(err)));
        }, REFETCH_CHAT_MS),
      );
    }
    const fresh = fx.unknownLabels.filter((id) => !labelsAsked.has(id));
    if (fresh.length) {
      for (const id of fresh) labelsAsked.add(id);
      void qc.invalidateQueries({ queryKey: chatKeys.labels(orgId) });
    }
  };
  const dispatch = (e: InboxEvent) => {
    const fx = applyToCache(qc, orgId, e, Date.now(), me);
    follow(fx);
    emit(e.kind === 'notification' ? { ...e, fresh: fx.fresh ?? true } : e);
  };

  let detachSession = () => {};
  const socket = new RealtimeSocket({
    wsUrl: getConfig().wsUrl,
    orgId,
    getToken: (force) => getIdToken(force),
    onEvent: (ev) => {
      if (handleSessionEvent(ev)) return;
      const e = parseRealtimeEvent(ev, orgId);
      if (e) dispatch(e);
    },
    onState,
    onReconnected: () => dispatch({ kind: 'resync' }),
    onAuthLost: triggerSessionExpired,
    // single active session (app/activeSession.ts): claim or check on every open
    sessionId: sessionId(),
    onOpen: () => {
      detachSession();
      detachSession = attachSocket((frame) => socket.send(frame));
    },
  });
  socket.start();
  return {
    send: (frame) => socket.send(frame),
    stop: () => {
      detachSession();
      socket.stop();
      if (countsTimer) clearTimeout(countsTimer);
      for (const t of chatTimers.values()) clearTimeout(t);
      chatTimers.clear();
    },
  };
}


