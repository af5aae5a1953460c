/**
 * What a message's menu does in the open thread (spec §5, §8): react (useReaction.ts), flag /
 * unflag / remove flag, pin (with a duration) / unpin, refresh, copy id, forward (dialog),
 * download, reply privately, edit and delete (useEditActions.ts), delete a note
 * (useNoteActions.ts). Every outcome toasts spec §8's words; results go into the thread's cache
 * and the chat store.
 */
import { useCallback, useState } from 'react';
import { useNavigate } from 'react-router-dom';
import type { Chat } from '#shared/chat/chat.schemas.ts';
import type { Message } from '#shared/message/message.schemas.ts';
import { api, errorMessage } from '../../../lib/api.ts';
import { useToast } from '../../../app/toast.tsx';
import { useInbox } from '../../../app/inbox.tsx';
import { chatDisplayName, chatIdLabel } from '../../../lib/format.ts';
import { useDownload } from '../../media/index.ts';
import type { BubbleAction } from '../components/MessageBubble.tsx';
import type { PinDuration } from '../components/MessageActionsUI.tsx';
import { copyText } from '../api/clipboard.ts';
import type { ThreadData } from '../api/thread-cache.ts';
import { useReaction } from './useReaction.ts';
import { useNoteActions } from './useNoteActions.ts';
import { useEditActions } from './useEditActions.ts';

/** spec §8 'Flag': flagged, and the unflag and remove-flag equivalents */
const FLAG_WORDS = {
  flag: { ok: 'Message flagged successfully!', error: 'Error while flagging message' },
  unflag: { ok: 'Message unflagged successfully!', error: 'Error while unflagging message' },
  remove: { ok: 'Message flag removed successfully!', error: 'Error while removing message flag' },
} as const;

export interface MessageActionsOptions {
  orgId: string;
  chatId: string;
  chat: Chat | null;
  email: string;
  applyMessage: (m: Message) => void;
  applyChat: (c: Chat) => void;
  update: (fn: (d: ThreadData | undefined) => ThreadData | undefined) => void;
  current: (uniqueId: string) => Message | undefined;
}

export function useMessageActions({ orgId, chatId, chat, email, applyMessage, applyChat, update, current }: MessageActionsOptions) {
  const navigate = useNavigate();
  const toast = useToast();
  const download = useDownload();
  const { chats, noteMessage } = useInbox();
  const [pinFor, setPinFor] = useState<Message | null>(null);
  const [forwardFor, setForwardFor] = useState<Message | null>(null);
  const react = useReaction(orgId, chatId, email, update, current);
  const notes = useNoteActions(chatId, applyMessage);
  const edits = useEditActions(chatId, applyMessage);
  const ours = chat?.org_phone;
  const groupName = chat ? chatDisplayName(chat) : 'group';

  const setFlag = useCallback(
    async (m: Message, status: boolean | null) => {
      const words = status === true ? FLAG_WORDS.flag : status === false ? FLAG_WORDS.unflag : FLAG_WORDS.remove;
      try {
        const r = await api.flagMessage(orgId, chatId, m.unique_id, status);
        applyMessage(r.message);
        applyChat(r.chat);
        toast.show(words.ok, 'success');
      } catch (e) {
        console.warn('flag failed', errorMessage(e));
        toast.show(words.error, 'error');
      }
    },
    [orgId, chatId, applyMessage, applyChat, toast],
  );

  const setPin = useCallback(
    async (m: Message, pin: boolean, duration: PinDuration = '7d'): Promise<boolean> => {
      try {
        const r = await api.pinMessage(orgId, chatId, m.unique_id, pin, duration);
        applyMessage(r.message);
        applyChat(r.chat);
        toast.show(pin ? 'Message pinned successfully!' : 'Message unpinned successfully!', 'success');
        return true;
      } catch (e) {
        console.warn('pin failed', errorMessage(e));
        toast.show(pin ? 'Error while pinning message' : 'Error while unpinning message', 'error');
        return false;
      }
    },
    [orgId, chatId, applyMessage, applyChat, toast],
  );

  const { deleteNote } = notes;
  const { startEdit, askDelete } = edits;
  const onAction = useCallback(
    (action: BubbleAction, m: Message, emoji?: string) => {
      switch (action) {
        case 'react':
          return react(m, emoji ?? '', ours ?? m.org_phone);
        case 'flag':
          return void setFlag(m, true);
        case 'unflag':
          return void setFlag(m, false);
        case 'remove_flag':
          return void setFlag(m, null);
        case 'pin':
          return setPinFor(m);
        case 'unpin':
          return void setPin(m, false);
        case 'forward':
          return setForwardFor(m);
        case 'reply_privately':
          return void api
            .replyPrivately(orgId, chatId, m.unique_id)
            .then((r) => navigate(`/chats/${encodeURIComponent(r.chat.chat_id)}`, { state: { replyPrivately: { to: r.chat.chat_id, message: m, group: groupName } } }))
            .catch((e) => toast.show(errorMessage(e), 'error'));
        case 'download':
          return void download(m);
        case 'delete_note':
          return void deleteNote(m);
        case 'edit':
          return startEdit(m);
        case 'delete':
          return askDelete(m);
        case 'copy_id': {
          const id = m.message_id || m.unique_id;
          return void copyText(id).then((ok) => toast.show(ok ? `Message ID - ${id} copied to clipboard` : 'Could not copy the message ID', ok ? 'success' : 'error'));
        }
        case 'retry':
          return void api
            .retryMessage(orgId, chatId, m.unique_id)
            .then((fresh) => applyMessage(fresh))
            .catch((e) => toast.show(errorMessage(e), 'error'));
        case 'refresh':
          return void api
            .refreshMessage(orgId, chatId, m.unique_id)
            .then((fresh) => {
              applyMessage(fresh);
              toast.show('Message refreshed successfully!', 'success');
            })
            .catch((e) => {
              console.warn('refresh failed', errorMessage(e));
              toast.show('Error while refreshing message', 'error');
            });
      }
    },
    [react, ours, setFlag, setPin, download, toast, orgId, chatId, applyMessage, deleteNote, startEdit, askDelete, navigate, groupName],
  );

  /** Forward to chats; @returns the dialog's error line (chats not reached, with why), or null */
  const forward = useCallback(
    async (m: Message, chatIds: string[]): Promise<string | null> => {
      try {
        const { messages: sent, failed } = await api.forwardMessage(orgId, chatId, m.unique_id, chatIds);
        for (const x of sent) {
          noteMessage(x.chat_id, x);
          if (x.chat_id === chatId) applyMessage(x);
        }
        if (sent.length) toast.show(sent.length > 1 ? `Message forwarded to ${sent.length} chats` : 'Message forwarded', 'success');
        // chats the forward did not reach stay in the dialog with the reason, the rest went out
        if (failed.length) {
          const name = (id: string) => {
            const c = chats.find((x) => x.chat_id === id);
            return c ? chatDisplayName(c) : chatIdLabel(id);
          };
          return `Not forwarded to ${failed.map((f) => `${name(f.chat_id)}: ${f.reason}`).join('; ')}`;
        }
        return null;
      } catch (e) {
        return errorMessage(e);
      }
    },
    [orgId, chatId, noteMessage, applyMessage, toast, chats],
  );

  return { onAction, forward, setPin, pinFor, setPinFor, forwardFor, setForwardFor, notes, edits };
}
