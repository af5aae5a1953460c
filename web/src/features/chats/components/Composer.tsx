/**
 * Message composer: Enter sends, Shift+Enter breaks the line. A reply shows its quote above the
 * input (author or 'You', the first line or the media type, × and Esc cancel); a file sent with a
 * caption carries the quote too (SendMessageInput takes quoted_message_id with media). The text is
 * cleared optimistically; when sending fails the error is shown and the text comes back.
 * Drafts are kept per chat for the life of the tab.
 * A file (paperclip, or pasted / dropped) is checked against WhatsApp's limits, previewed above the
 * input, whose text becomes its caption, and sent with upload progress (lib/uploads.ts); the sent
 * message reaches the thread through the `message.sent` event like a message from another tab.
 * With `onSendNote` it also writes private notes (Reply / Private note toggle, Ctrl/Cmd+Shift+N,
 * '@' mentions; notes/NoteComposer.tsx).
 * Typing '/' at the start opens the quick-reply picker (features/replies, issue 15).
 */
import { forwardRef, useEffect, useImperativeHandle, useLayoutEffect, useRef, useState, type DragEvent, type KeyboardEvent, type ReactNode } from 'react';
import type { Chat } from '#shared/chat/chat.schemas.ts';
import type { Message } from '#shared/message/message.schemas.ts';
import { MAX_CAPTION, MAX_TEXT_BODY } from '#shared/message/message.schemas.ts';
import { errorMessage } from '../../../lib/api.ts';
import { authorName, chatDisplayName, isGroupChat, previewText, typeLabel } from '../../../lib/format.ts';
import { checkFile, sendFile, UploadCancelled } from '../api/uploads.ts';
import { useSession } from '../../../app/session.tsx';
import { Icon } from '../../../components/ui/Icon.tsx';
import { AttachButton, AttachmentPreview, type Attachment } from './Attachments.tsx';
import { MentionPicker, NOTE_PLACEHOLDER, NoteModeToggle, useNoteComposer } from './NoteComposer.tsx';
import { ReplyPicker, useReplyPicker } from '../../replies/index.ts';

const drafts = new Map<string, string>();

/** Who wrote the message being replied to: 'You' for ours, else the author (groups) or the chat's name. */
export function quoteAuthor(chat: Chat | null, m: Pick<Message, 'from_me' | 'author' | 'sender_phone'>): string {
  if (m.from_me) return 'You';
  if (chat && isGroupChat(chat)) return authorName(chat, m) || 'Group member';
  return (chat ? chatDisplayName(chat) : '') || authorName(chat, m) || 'Customer';
}

/** The first line of the quoted message's text, or its type ('📷 Photo') when it has none. */
export function quoteLine(m: Pick<Message, 'body' | 'message_type'>): string {
  const first = (m.body ?? '').split('\n').map((l) => l.trim()).find(Boolean) ?? '';
  if (first) return m.message_type === 'text' ? first : previewText({ message_type: m.message_type, body: first });
  return typeLabel(m.message_type) || 'Message';
}

export interface ComposerHandle {
  focus: () => void;
}

interface Props {
  chatId: string;
  chat: Chat | null;
  replyTo: Message | null;
  /** reply privately: the name of the group the quoted message is from */
  replyFromGroup?: string | null;
  onCancelReply: () => void;
  onSend: (text: string) => Promise<void>;
  /** save a private note (issue 4); without it the composer offers no note mode */
  onSendNote?: (text: string, mentions: string[]) => Promise<void>;
  /** the input's text after each keystroke (typing indicator, chats/useTyping.ts) */
  onTyping?: (text: string) => void;
  /** issue 16: shown instead of the text input (not in note mode), e.g. the template picker when the 24-hour window is closed */
  templateSlot?: ReactNode;
  /** issue 16: the Schedule action (opens the schedule dialog with the current text) */
  onSchedule?: (text: string) => void;
}

export const Composer = forwardRef<ComposerHandle, Props>(function Composer({ chatId, chat, replyTo, replyFromGroup, onCancelReply, onSend, onTyping, onSendNote, templateSlot, onSchedule }, ref) {
  const [value, setValue] = useState(() => drafts.get(chatId) ?? '');
  const [error, setError] = useState<string | null>(null);
  const [attachment, setAttachment] = useState<Attachment | null>(null);
  /** upload progress 0..1 while a file is being sent */
  const [progress, setProgress] = useState<number | null>(null);
  const [dragging, setDragging] = useState(false);
  const abortRef = useRef<AbortController | null>(null);
  const inputRef = useRef<HTMLTextAreaElement>(null);
  const { org } = useSession();
  const note = useNoteComposer({ value, setValue, inputRef, setError, replyTo, onCancelReply, enabled: !!onSendNote });
  const replies = useReplyPicker({ value, setValue, inputRef, chat, setError, onAttach: (f) => attach(f), enabled: !note.active && progress === null });

  // leaving the chat stops an upload in flight
  useEffect(() => () => abortRef.current?.abort(), []);

  useImperativeHandle(ref, () => ({ focus: () => inputRef.current?.focus() }), []);

  useEffect(() => {
    if (value) drafts.set(chatId, value);
    else drafts.delete(chatId);
  }, [chatId, value]);

  // grow with the text up to a few lines
  useLayoutEffect(() => {
    const el = inputRef.current;
    if (!el) return;
    el.style.height = 'auto';
    el.style.height = `${Math.min(el.scrollHeight, 160)}px`;
  }, [value]);

  const maxLength = attachment ? MAX_CAPTION : MAX_TEXT_BODY;
  const tooLong = value.length > maxLength;
  const uploading = progress !== null;
  const canSend = attachment ? !tooLong && !uploading : value.trim().length > 0 && !tooLong;

  function attach(file: File) {
    if (uploading || note.active) return;
    const checked = checkFile(file);
    if ('error' in checked) {
      setError(checked.error);
      return;
    }
    setError(null);
    setAttachment({ file, type: checked.type });
    inputRef.current?.focus();
  }

  async function submitFile(a: Attachment) {
    if (tooLong) {
      setError(`Captions can be at most ${MAX_CAPTION} characters.`);
      return;
    }
    const controller = new AbortController();
    abortRef.current = controller;
    setError(null);
    setProgress(0);
    try {
      // WhatsApp shows no caption on audio
      const caption = a.type === 'audio' ? undefined : value;
      await sendFile(org.org_id, chatId, a.file, { caption, quotedMessageId: replyTo?.message_id ?? undefined, quotedChatId: replyTo && replyTo.chat_id !== chatId ? replyTo.chat_id : undefined, onProgress: setProgress, signal: controller.signal });
      setAttachment(null);
      if (caption !== undefined) setValue('');
      if (replyTo) onCancelReply();
    } catch (e) {
      if (!(e instanceof UploadCancelled)) setError(`Message not sent: ${errorMessage(e)}`);
    } finally {
      if (abortRef.current === controller) abortRef.current = null;
      setProgress(null);
    }
  }

  async function submit() {
    if (note.active && onSendNote) return note.submit(onSendNote);
    if (attachment) return submitFile(attachment);
    const text = value;
    if (!text.trim()) return;
    if (tooLong) {
      setError(`Messages can be at most ${MAX_TEXT_BODY} characters.`);
      return;
    }
    setValue('');
    setError(null);
    try {
      await onSend(text);
    } catch (e) {
      setValue((v) => (v === '' ? text : v));
      setError(`Message not sent: ${errorMessage(e)}`);
    }
  }

  function onKeyDown(e: KeyboardEvent<HTMLTextAreaElement>) {
    if (note.onInputKeyDown(e)) return;
    if (replies.onInputKeyDown(e)) return;
    if (e.key === 'Enter' && !e.shiftKey && !e.nativeEvent.isComposing) {
      e.preventDefault();
      void submit();
    }
  }

  /** cancel the reply and give the input its focus back (the × button goes away with the preview) */
  function cancelReply() {
    onCancelReply();
    inputRef.current?.focus();
  }

  // Esc anywhere in the composer (input, preview, × button) cancels the reply instead of closing the chat
  function onWrapKeyDown(e: KeyboardEvent<HTMLDivElement>) {
    if (note.onWrapKeyDown(e)) return;
    if (e.key === 'Escape' && replyTo && !e.defaultPrevented && !e.nativeEvent.isComposing) {
      e.preventDefault();
      e.stopPropagation();
      cancelReply();
    }
  }

  const dropFile = (e: DragEvent) => {
    if (!Array.from(e.dataTransfer.types).includes('Files')) return;
    e.preventDefault();
    setDragging(false);
    const file = e.dataTransfer.files[0];
    if (file) attach(file);
  };

  return (
    <div
      className={`composer-wrap${dragging ? ' dragging' : ''}`}
      onKeyDown={onWrapKeyDown}
      onDragOver={(e) => {
        if (!Array.from(e.dataTransfer.types).includes('Files')) return;
        e.preventDefault();
        setDragging(true);
      }}
      onDragLeave={(e) => {
        if (!e.currentTarget.contains(e.relatedTarget as Node | null)) setDragging(false);
      }}
      onDrop={dropFile}
    >
      {replyTo && (
        <div className="composer-quote" role="group" aria-label={`Replying to ${quoteAuthor(chat, replyTo)}`} data-testid="composer-quote">
          <div className="composer-quote-text">
            <span className="quoted-author" data-testid="composer-quote-author">
              {replyTo.chat_id !== chatId ? replyTo.author || 'Group member' : quoteAuthor(chat, replyTo)}
              {/* reply privately: the quoted message is from a group chat */}
              {replyTo.chat_id !== chatId && (
                <span className="quoted-from" data-testid="composer-quote-from">
                  {' '}
                  · from the group {replyFromGroup || 'chat'}
                </span>
              )}
            </span>
            <span className="quoted-body" data-testid="composer-quote-body">
              {quoteLine(replyTo)}
            </span>
          </div>
          <button type="button" className="icon-btn" aria-label="Cancel reply (Esc)" title="Cancel reply (Esc)" data-testid="composer-quote-cancel" onClick={cancelReply}>
            <Icon name="close" size={18} />
          </button>
        </div>
      )}
      {error && (
        <div className="composer-error" role="alert" data-testid="composer-error">
          {error}
          <button type="button" className="icon-btn" aria-label="Dismiss error" onClick={() => setError(null)}>
            <Icon name="close" size={16} />
          </button>
        </div>
      )}
      {attachment && (
        <AttachmentPreview
          attachment={attachment}
          progress={progress}
          onRemove={() => {
            setAttachment(null);
            setError(null);
          }}
          onCancel={() => abortRef.current?.abort()}
        />
      )}
      {onSendNote && <NoteModeToggle mode={note.mode} onChange={note.toggle} />}
      {replies.open && <ReplyPicker picker={replies} />}
      {note.open && <MentionPicker id={note.listId} options={note.options} index={note.index} onPick={note.pick} onHover={note.setIndex} />}
      {templateSlot && !note.active ? (
        <>
          {templateSlot}
          {onSchedule && (
            <button type="button" className="btn composer-schedule-alt" data-testid="composer-schedule" onClick={() => onSchedule('')}>
              <Icon name="clock" size={16} /> Schedule a message
            </button>
          )}
        </>
      ) : (
      <form
        className={`composer${note.active ? ' composer-note' : ''}`}
        data-mode={note.mode}
        onSubmit={(e) => {
          e.preventDefault();
          void submit();
        }}
      >
        <AttachButton disabled={uploading || note.active} onPick={attach} />
        <label className="visually-hidden" htmlFor={`composer-${chatId}`}>
          {note.active ? 'Write a private note' : attachment ? 'Add a caption' : 'Type a message'}
        </label>
        <textarea
          id={`composer-${chatId}`}
          ref={inputRef}
          data-testid="composer-input"
          rows={1}
          {...note.inputAria}
          {...replies.inputAria}
          placeholder={note.active ? NOTE_PLACEHOLDER : attachment ? (attachment.type === 'audio' ? 'Audio is sent without a caption' : 'Add a caption (optional)') : 'Type a message'}
          value={value}
          disabled={uploading || attachment?.type === 'audio'}
          onPaste={(e) => {
            const file = e.clipboardData.files[0];
            if (file) {
              e.preventDefault();
              attach(file);
            }
          }}
          onChange={(e) => {
            setValue(e.target.value);
            onTyping?.(e.target.value);
            note.sync(e.target.value, e.target.selectionStart);
            replies.sync(e.target.value, e.target.selectionStart);
            if (error) setError(null);
          }}
          onKeyDown={onKeyDown}
          onSelect={(e) => {
            note.sync(e.currentTarget.value, e.currentTarget.selectionStart);
            replies.sync(e.currentTarget.value, e.currentTarget.selectionStart);
          }}
          aria-invalid={tooLong || undefined}
        />
        {value.length > maxLength - 200 && (
          <span className={`char-count ${tooLong ? 'over' : ''}`} aria-live="polite">
            {value.length}/{maxLength}
          </span>
        )}
        {onSchedule && !note.active && !attachment && (
          <button type="button" className="icon-btn" aria-label="Schedule message" title="Schedule message" data-testid="composer-schedule" onClick={() => onSchedule(value)}>
            <Icon name="clock" />
          </button>
        )}
        <button type="submit" className="send-btn" data-testid="composer-send" disabled={!canSend} aria-label={note.active ? 'Save private note' : 'Send message'} title={note.active ? 'Save note (Enter)' : 'Send (Enter)'}>
          <Icon name="send" />
        </button>
      </form>
      )}
    </div>
  );
});
