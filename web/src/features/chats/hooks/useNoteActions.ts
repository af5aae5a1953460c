/**
 * What the open thread does with private notes (issue 4): save one (the stored note is put in the
 * thread as soon as the API answers; teammates get it over `note.created`) and delete one's own
 * (the tombstone replaces it; teammates get `note.deleted`).
 */
import { useCallback } from 'react';
import type { Message } from '#shared/message/message.schemas.ts';
import { api, errorMessage } from '../../../lib/api.ts';
import { useSession } from '../../../app/session.tsx';
import { useToast } from '../../../app/toast.tsx';

export function useNoteActions(chatId: string, applyMessage: (m: Message) => void) {
  const { org } = useSession();
  const toast = useToast();

  /** @throws the API error (the composer shows it and gives the text back) */
  const sendNote = useCallback(
    async (text: string, mentions: string[]) => {
      const stored = await api.createNote(org.org_id, chatId, { body: text, ...(mentions.length ? { mentions } : {}) });
      applyMessage(stored);
    },
    [org.org_id, chatId, applyMessage],
  );

  const deleteNote = useCallback(
    async (m: Message) => {
      try {
        applyMessage(await api.deleteNote(org.org_id, chatId, m.unique_id));
        toast.show('Note deleted', 'success');
      } catch (e) {
        toast.show(`Could not delete the note: ${errorMessage(e)}`, 'error');
      }
    },
    [org.org_id, chatId, applyMessage, toast],
  );

  return { sendNote, deleteNote };
}
