/**
 * Our reaction to a message (spec §5, §8), as a mutation: the bubble shows it at once
 * (onMutate), the POST answer settles it, and a failure puts the previous reaction back
 * (onError) with spec §8's 'Failed to send reaction!'. A later message.updated with a
 * `reaction_error` newer than our action means WhatsApp refused it (the server has already put
 * the reaction back; the snapshot shows that): same toast. Our reaction marked sent (ack 1)
 * settles it for good.
 */
import { useCallback, useEffect, useRef } from 'react';
import { useMutation } from '@tanstack/react-query';
import type { Message } from '#shared/message/message.schemas.ts';
import { api, errorMessage } from '../../../lib/api.ts';
import { useToast } from '../../../app/toast.tsx';
import { useInbox } from '../../../app/inbox.tsx';
import { withOurReaction, withReactionRestored } from '../api/messageActions.ts';
import { findInThread, mapThreadMessage, upsertThread, type ThreadData } from '../api/thread-cache.ts';

/** spec §8 */
export const REACTION_FAILED = 'Failed to send reaction!';

interface Pending {
  /** when we reacted (epoch ms, this browser) */
  startedAt: number;
  /** the server's timestamp of our reaction, once the POST answered */
  serverAt: number | null;
  /** the reaction error the message had when we reacted */
  errAt: number | null;
}

interface ReactVars {
  m: Message;
  emoji: string;
  /** our number in this chat (the reactions map's key) */
  ours: string;
  at: number;
  previous: NonNullable<Message['reactions']>[string] | null;
}

/**
 * @param update writes into the thread's cached messages (useThreadMessages)
 * @param current the message as loaded now, if it is
 */
export function useReaction(orgId: string, chatId: string, email: string, update: (fn: (d: ThreadData | undefined) => ThreadData | undefined) => void, current: (uniqueId: string) => Message | undefined) {
  const toast = useToast();
  const { subscribe } = useInbox();
  const pending = useRef(new Map<string, Pending>());

  // still showing what this action put there (no newer snapshot arrived meanwhile)?
  const untouched = (v: ReactVars, x: Message | undefined) => !!x && (v.emoji ? x.reactions?.[v.ours]?.timestamp === v.at : !x.reactions?.[v.ours]);

  const mutation = useMutation({
    mutationFn: (v: ReactVars) => api.reactToMessage(orgId, chatId, v.m.unique_id, v.emoji),
    onMutate: (v) => {
      pending.current.set(v.m.unique_id, { startedAt: v.at, serverAt: null, errAt: current(v.m.unique_id)?.reaction_error?.at ?? v.m.reaction_error?.at ?? null });
      update((d) => mapThreadMessage(d, v.m.unique_id, (x) => withOurReaction(x, v.ours, v.emoji, email, v.at)));
    },
    onSuccess: (stored, v) => {
      const p = pending.current.get(v.m.unique_id);
      if (p?.startedAt === v.at) p.serverAt = stored.reactions?.[v.ours]?.timestamp ?? v.at;
      if (!v.emoji) pending.current.delete(v.m.unique_id);
      update((d) => (untouched(v, findInThread(d, v.m.unique_id)) ? upsertThread(d, [stored]) : d));
    },
    onError: (e, v) => {
      console.warn('reaction failed', errorMessage(e));
      if (pending.current.get(v.m.unique_id)?.startedAt === v.at) pending.current.delete(v.m.unique_id);
      update((d) => mapThreadMessage(d, v.m.unique_id, (x) => (untouched(v, x) ? withReactionRestored(x, v.ours, v.previous) : x)));
      toast.show(REACTION_FAILED, 'error');
    },
  });

  const { mutate } = mutation;
  /** React with `emoji` ('' removes ours); `ours` is our number in the chat. */
  const react = useCallback(
    (m: Message, emoji: string, ours: string) => {
      const cur = current(m.unique_id) ?? m;
      const previous = cur.reactions?.[ours] ?? null;
      if ((previous?.reaction ?? '') === emoji) return;
      mutate({ m: cur, emoji, ours, at: Date.now(), previous });
    },
    [current, mutate],
  );

  // WhatsApp's later verdict on a reaction in flight
  useEffect(
    () =>
      subscribe((e) => {
        if (e.kind !== 'message' || e.chatId !== chatId || e.type !== 'message.updated') return;
        const m = e.message;
        const p = pending.current.get(m.unique_id);
        if (!p) return;
        const err = m.reaction_error;
        if (err && err.at !== p.errAt && err.at >= (p.serverAt ?? p.startedAt - 60_000)) {
          pending.current.delete(m.unique_id);
          toast.show(REACTION_FAILED, 'error');
          return;
        }
        const ours = Object.values(m.reactions ?? {}).find((r) => r.timestamp === p.serverAt);
        if (p.serverAt !== null && ours?.ack === 1) pending.current.delete(m.unique_id);
      }),
    [subscribe, chatId, toast],
  );

  return react;
}
