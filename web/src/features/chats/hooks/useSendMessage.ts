/**
 * Sending a text from the composer, as a mutation with an optimistic bubble: the bubble
 * (ack 0, id `local:<client_id>`) shows at once (onMutate); the POST answer replaces it and
 * becomes the chat's preview (onSuccess); a failure removes it and gives the quote back
 * (onError), and `send` rejects so the composer shows the error and keeps the text. The stored
 * copy may come over the socket first: `client_id` lets it replace the bubble wherever it lands.
 */
import { useCallback } from 'react';
import { useMutation } from '@tanstack/react-query';
import type { Chat } from '#shared/chat/chat.schemas.ts';
import type { Message } from '#shared/message/message.schemas.ts';
import { ACK } from '#shared/message/message.schemas.ts';
import { api } from '../../../lib/api.ts';
import { useInbox } from '../../../app/inbox.tsx';
import { LOCAL_PREFIX } from '../api/messages.ts';
import { removeFromThread, settleInThread, upsertThread, type ThreadData } from '../api/thread-cache.ts';

/** id of an optimistic bubble, sent as `client_id` so the stored copy replaces it wherever it arrives first */
const clientId = (): string =>
  typeof crypto !== 'undefined' && 'randomUUID' in crypto ? crypto.randomUUID() : `${Date.now()}-${Math.random().toString(36).slice(2)}`;

interface SendVars {
  text: string;
  cid: string;
  /** the message replied to (in this chat, or a group's for Reply Privately) */
  quoted: Message | null;
}

export interface SendOptions {
  orgId: string;
  chatId: string;
  chat: Chat | null;
  update: (fn: (d: ThreadData | undefined) => ThreadData | undefined) => void;
  /** the group's name when the quote is a group message (Reply Privately) */
  groupName: string | null;
  /** the quote is gone from the composer while sending; a failure gives it back */
  restoreReply: (m: Message) => void;
}

export function useSendMessage({ orgId, chatId, chat, update, groupName, restoreReply }: SendOptions) {
  const { noteMessage } = useInbox();
  const { mutateAsync } = useMutation({
    mutationFn: ({ text, cid, quoted }: SendVars) =>
      api.sendMessage(orgId, chatId, {
        body: text,
        client_id: cid,
        ...(quoted?.message_id ? { quoted_message_id: quoted.message_id } : {}),
        // reply privately: the quote is a group message (stored for the team, not sent to WhatsApp as context)
        ...(quoted?.message_id && quoted.chat_id !== chatId ? { quoted_chat_id: quoted.chat_id } : {}),
      }),
    onMutate: ({ text, cid, quoted }) => {
      const optimistic: Message = {
        org_id: orgId,
        chat_id: chatId,
        unique_id: LOCAL_PREFIX + cid,
        org_phone: chat?.org_phone ?? '',
        phone_id: chat?.phone_id ?? '',
        body: text,
        timestamp: Date.now(),
        from_me: true,
        ack: ACK.PENDING,
        message_type: 'text',
        quoted_message: quoted?.message_id
          ? { message_id: quoted.message_id, unique_id: quoted.unique_id, body: quoted.body, author: quoted.author, from_me: quoted.from_me, ...(quoted.chat_id !== chatId ? { chat_id: quoted.chat_id, chat_name: groupName } : {}) }
          : null,
      };
      update((d) => upsertThread(d, [optimistic]));
    },
    onSuccess: (stored, { cid }) => {
      update((d) => settleInThread(d, LOCAL_PREFIX + cid, stored));
      noteMessage(chatId, stored);
    },
    onError: (_e, { cid, quoted }) => {
      update((d) => removeFromThread(d, LOCAL_PREFIX + cid));
      if (quoted) restoreReply(quoted);
    },
  });

  /** Send `text` quoting `quoted`. @throws the API error (the composer shows it) */
  return useCallback(async (text: string, quoted: Message | null): Promise<void> => void (await mutateAsync({ text, cid: clientId(), quoted })), [mutateAsync]);
}
