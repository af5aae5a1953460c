/**
 * What the open thread does to edit a message or delete it for everyone (issue 5; spec §5, §8).
 * Edit: the bubble's inline editor saves through PATCH …/messages/{id}; the answer (new body,
 * 'edited · sending…') replaces the bubble. Delete: after the confirmation, 'Deleting message...',
 * DELETE …/messages/{id}, the bubble shows the deleted state at once. Both are settled by the
 * number's WhatsApp session, whose result arrives as `message.updated` over the socket: a confirmed
 * delete says 'Message deleted successfully!'; a refused one (undone by the server) says
 * 'Error while deleting message'; a refused edit (reverted by the server) says why. Only the
 * browser that made the change shows these toasts; every other screen just updates.
 */
import { useCallback, useEffect, useRef, useState } from 'react';
import type { Message } from '#shared/message/message.schemas.ts';
import { api, ApiError, errorMessage } from '../../../lib/api.ts';
import { useInbox, type InboxEvent } from '../../../app/inbox.tsx';
import { useSession } from '../../../app/session.tsx';
import { useToast } from '../../../app/toast.tsx';

/** spec §8 'Delete message' */
export const DELETE_WORDS = { busy: 'Deleting message...', ok: 'Message deleted successfully!', error: 'Error while deleting message' } as const;
/** No spec words for edits: said plainly, with the reason. */
const EDIT_FAILED = 'Error while editing message';
/** how far the server's clock may be behind this browser's when matching a result to our action */
const SKEW_MS = 60_000;

type Pending = { startedAt: number; serverAt: number | null };

/**
 * @param applyMessage upserts a snapshot into the thread (lib/messages.ts keeps a settled edit or
 *   delete settled when an older 'pending' snapshot arrives after it)
 */
export function useEditActions(chatId: string, applyMessage: (m: Message) => void) {
  const { org } = useSession();
  const { subscribe } = useInbox();
  const toast = useToast();
  const [editingId, setEditingId] = useState<string | null>(null);
  const [deleteFor, setDeleteFor] = useState<Message | null>(null);
  const edits = useRef(new Map<string, Pending>());
  const deletes = useRef(new Map<string, Pending>());

  useEffect(() => setEditingId(null), [chatId]);

  /** A snapshot of a message we changed from this browser: is our change settled? */
  const settle = useCallback(
    (m: Message) => {
      const d = deletes.current.get(m.unique_id);
      if (d) {
        const since = d.serverAt ?? d.startedAt - SKEW_MS;
        if (m.delete_status === 'sent' && m.is_deleted && (m.deleted_at ?? 0) >= since) {
          deletes.current.delete(m.unique_id);
          toast.show(DELETE_WORDS.ok, 'success');
        } else if (m.delete_status === 'failed' && (m.delete_error?.at ?? 0) >= since) {
          deletes.current.delete(m.unique_id);
          console.warn('delete refused', m.delete_error?.reason);
          toast.show(DELETE_WORDS.error, 'error');
        }
      }
      const e = edits.current.get(m.unique_id);
      if (e) {
        const since = e.serverAt ?? e.startedAt - SKEW_MS;
        if (m.edit_status === 'sent' && (m.edited_at ?? 0) >= since) edits.current.delete(m.unique_id);
        else if (m.edit_status === 'failed' && (m.edit_error?.at ?? 0) >= since) {
          edits.current.delete(m.unique_id);
          toast.show(`${EDIT_FAILED}: ${m.edit_error?.reason ?? 'WhatsApp did not accept it'}`, 'error');
        }
      }
    },
    [toast],
  );

  useEffect(
    () =>
      subscribe((e: InboxEvent) => {
        if (e.kind === 'message' && e.chatId === chatId && e.type === 'message.updated') settle(e.message);
      }),
    [subscribe, chatId, settle],
  );

  const startEdit = useCallback((m: Message) => setEditingId(m.unique_id), []);
  const cancelEdit = useCallback(() => setEditingId(null), []);

  /** @returns whether the server took the edit (the editor then closes) */
  const saveEdit = useCallback(
    async (m: Message, text: string): Promise<boolean> => {
      const p: Pending = { startedAt: Date.now(), serverAt: null };
      edits.current.set(m.unique_id, p);
      try {
        const stored = await api.editMessage(org.org_id, chatId, m.unique_id, text);
        p.serverAt = stored.edited_at ?? null;
        applyMessage(stored);
        settle(stored);
        return true;
      } catch (e) {
        edits.current.delete(m.unique_id);
        toast.show(e instanceof ApiError && e.status < 500 ? errorMessage(e) : EDIT_FAILED, 'error');
        return false;
      }
    },
    [org.org_id, chatId, applyMessage, settle, toast],
  );

  const askDelete = useCallback((m: Message) => setDeleteFor(m), []);
  const closeDelete = useCallback(() => setDeleteFor(null), []);

  const deleteMessage = useCallback(
    async (m: Message) => {
      const p: Pending = { startedAt: Date.now(), serverAt: null };
      deletes.current.set(m.unique_id, p);
      toast.show(DELETE_WORDS.busy, 'info');
      try {
        const stored = await api.deleteMessage(org.org_id, chatId, m.unique_id);
        p.serverAt = stored.deleted_at ?? null;
        applyMessage(stored);
        settle(stored);
      } catch (e) {
        deletes.current.delete(m.unique_id);
        console.warn('delete failed', errorMessage(e));
        // a rule's refusal has its own words (e.g. 'Cannot delete messages older than 48 hrs', spec §5)
        toast.show(e instanceof ApiError && e.status === 400 ? errorMessage(e) : DELETE_WORDS.error, 'error');
      }
    },
    [org.org_id, chatId, applyMessage, settle, toast],
  );

  return { editingId, startEdit, cancelEdit, saveEdit, deleteFor, askDelete, closeDelete, deleteMessage };
}
