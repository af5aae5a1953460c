/**
 * The writes of the open chat's header actions (issue 4). Optimistic: the chat changes at once
 * (and may leave the list's folder) and is put back with the API's message when the call fails;
 * a failed label change says 'Error while updating labels' (spec §8). When the API refuses a
 * member the assignee change (member_permissions.chat_assignee, spec §6) `assignRefused` keeps its
 * message for the rest of the session. A chat a teammate marked unread is read again on opening.
 */
import { useCallback, useEffect, useRef, useState } from 'react';
import { useLocation, useNavigate } from 'react-router-dom';
import type { Chat } from '#shared/chat/chat.schemas.ts';
import { totalUnread } from '#shared/chat/chat.schemas.ts';
import { inboxState, isClosed } from '#shared/chat/chat-state.rules.ts';
import { api, ApiError, errorMessage, type ChatBatchAction } from '../../../lib/api.ts';
import { useInbox } from '../../../app/inbox.tsx';
import { useSession } from '../../../app/session.tsx';
import { useToast } from '../../../app/toast.tsx';

/** spec §8 'Label update' */
export const LABELS_FAILED = 'Error while updating labels';

/** A chat with some fields changed and its folder recomputed (for optimistic updates). */
const changed = (c: Chat, patch: Partial<Chat>, now = Date.now()): Chat => {
  const next = { ...c, ...patch };
  return { ...next, inbox_state: inboxState(next, now) };
};

/** The chat `chatId` of the inbox and every write its header offers. */
export function useChatWrites(chatId: string) {
  const inbox = useInbox();
  const { org, user } = useSession();
  const toast = useToast();
  const navigate = useNavigate();
  const location = useLocation();
  const chat = inbox.chats.find((c) => c.chat_id === chatId) ?? null;
  const chatRef = useRef(chat);
  chatRef.current = chat;
  const [assignRefused, setAssignRefused] = useState<string | null>(null);
  const { upsertChat } = inbox;

  /** Apply `patch` at once, make the call, and put the chat back with the error when it fails. */
  const write = useCallback(
    async (action: ChatBatchAction, input: Record<string, unknown>, patch: Partial<Chat> | null, failText?: string): Promise<boolean> => {
      const before = chatRef.current;
      if (!before) return false;
      if (patch) upsertChat(changed(before, patch));
      try {
        const r = await api.chatBatch(org.org_id, action, { chat_ids: [chatId], ...input });
        if (r.failed.length) throw new Error(r.failed[0].reason);
        for (const c of r.chats) upsertChat(c);
        return true;
      } catch (e) {
        if (patch) upsertChat(before);
        if (action === 'assign' && e instanceof ApiError && e.status === 403) setAssignRefused(e.message);
        toast.show(failText ?? errorMessage(e), 'error');
        return false;
      }
    },
    [org.org_id, chatId, upsertChat, toast],
  );

  // a chat a teammate marked unread is read again when it is opened here
  const readOnce = useRef(false);
  useEffect(() => {
    if (readOnce.current || !chat?.marked_unread || totalUnread(chat) > 0 || chat.has_access === false) return;
    readOnce.current = true;
    api
      .markRead(org.org_id, chatId)
      .then(upsertChat)
      .catch((e) => console.warn('mark read failed', errorMessage(e)));
  }, [chat, org.org_id, chatId, upsertChat]);

  const toggleClose = useCallback(() => {
    const c = chatRef.current;
    if (!c) return;
    const close = !isClosed(c);
    void write('close', { is_closed: close, type: 'all' }, close ? { closed_at: Math.max(Date.now(), c.latest_message_timestamp + 1), closed_by: user.email } : { closed_at: null, closed_by: null });
  }, [write, user.email]);

  const markUnread = useCallback(async () => {
    const c = chatRef.current;
    if (!c) return;
    upsertChat({ ...c, marked_unread: true });
    try {
      upsertChat(await api.markChatUnread(org.org_id, chatId));
      // leave the chat so opening it does not read it straight away
      navigate({ pathname: '/chats', search: location.search });
    } catch (e) {
      upsertChat(c);
      toast.show(errorMessage(e), 'error');
    }
  }, [org.org_id, chatId, upsertChat, navigate, location.search, toast]);

  const assign = (email: string | null) => {
    if ((email ?? null) === (chat?.assigned_to ?? null)) return;
    void write('assign', { assigned_to: email }, { assigned_to: email });
  };
  /** @returns whether the write succeeded */
  const toggleLabel = (labelId: string, on: boolean): Promise<boolean> => {
    const labelIds = chat?.label_ids ?? [];
    const next = on ? [...labelIds, labelId] : labelIds.filter((l) => l !== labelId);
    return write('labels', on ? { add: [labelId] } : { remove: [labelId] }, { label_ids: next }, LABELS_FAILED);
  };
  const snooze = (until: number | null) => {
    void write('snooze', { snooze_until: until }, { snooze_metadata: until === null ? null : { snooze_until: until, snoozed_by: user.email, snoozed_at: Date.now() } });
  };
  const replyFrom = async (p: string) => {
    if (!chat || p === chat.org_phone) return;
    upsertChat({ ...chat, org_phone: p });
    try {
      upsertChat(await api.setActivePhone(org.org_id, chatId, p));
    } catch (e) {
      upsertChat(chat);
      toast.show(errorMessage(e), 'error');
    }
  };
  const saveAccess = async (access: Record<string, boolean>): Promise<string | null> => {
    try {
      upsertChat(await api.setChatAccess(org.org_id, chatId, access));
      toast.show(Object.keys(access).length ? 'Only the chosen members can see this chat now' : 'Everyone can see this chat now', 'success');
      return null;
    } catch (e) {
      return errorMessage(e);
    }
  };

  return { chat, chatRef, write, toggleClose, markUnread, assign, toggleLabel, snooze, replyFrom, saveAccess, assignRefused };
}
