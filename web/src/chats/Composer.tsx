/**
 * Message composer: Enter sends, Shift+Enter breaks the line, Esc cancels a reply. The text is
 * cleared optimistically; when sending fails the error is shown and the text comes back.
 * Drafts are kept per chat for the life of the tab.
 */
import { forwardRef, useEffect, useImperativeHandle, useLayoutEffect, useRef, useState, type KeyboardEvent } from 'react';
import type { Chat } from '#shared/chat/chat.schemas.ts';
import type { Message } from '#shared/message/message.schemas.ts';
import { MAX_TEXT_BODY } from '#shared/message/message.schemas.ts';
import { errorMessage } from '../lib/api.ts';
import { authorName, chatDisplayName, typeLabel } from '../lib/format.ts';
import { Icon } from '../layout/Icon.tsx';

const drafts = new Map<string, string>();

export interface ComposerHandle {
  focus: () => void;
}

interface Props {
  chatId: string;
  chat: Chat | null;
  replyTo: Message | null;
  onCancelReply: () => void;
  onSend: (text: string) => Promise<void>;
}

export const Composer = forwardRef<ComposerHandle, Props>(function Composer({ chatId, chat, replyTo, onCancelReply, onSend }, ref) {
  const [value, setValue] = useState(() => drafts.get(chatId) ?? '');
  const [error, setError] = useState<string | null>(null);
  const inputRef = useRef<HTMLTextAreaElement>(null);

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

  const tooLong = value.length > MAX_TEXT_BODY;
  const canSend = value.trim().length > 0 && !tooLong;

  async function submit() {
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
    if (e.key === 'Enter' && !e.shiftKey && !e.nativeEvent.isComposing) {
      e.preventDefault();
      void submit();
    } else if (e.key === 'Escape' && replyTo) {
      e.preventDefault();
      e.stopPropagation();
      onCancelReply();
    }
  }

  return (
    <div className="composer-wrap">
      {replyTo && (
        <div className="composer-quote" aria-label="Replying to a message">
          <div className="composer-quote-text">
            <span className="quoted-author">Replying to {replyTo.from_me ? 'yourself' : authorName(chat, replyTo) || (chat ? chatDisplayName(chat) : 'the customer')}</span>
            <span className="quoted-body">{replyTo.body || typeLabel(replyTo.message_type) || 'Message'}</span>
          </div>
          <button type="button" className="icon-btn" aria-label="Cancel reply" onClick={onCancelReply}>
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
      <form
        className="composer"
        onSubmit={(e) => {
          e.preventDefault();
          void submit();
        }}
      >
        <label className="visually-hidden" htmlFor={`composer-${chatId}`}>
          Type a message
        </label>
        <textarea
          id={`composer-${chatId}`}
          ref={inputRef}
          data-testid="composer-input"
          rows={1}
          placeholder="Type a message"
          value={value}
          onChange={(e) => {
            setValue(e.target.value);
            if (error) setError(null);
          }}
          onKeyDown={onKeyDown}
          aria-invalid={tooLong || undefined}
        />
        {value.length > MAX_TEXT_BODY - 200 && (
          <span className={`char-count ${tooLong ? 'over' : ''}`} aria-live="polite">
            {value.length}/{MAX_TEXT_BODY}
          </span>
        )}
        <button type="submit" className="send-btn" data-testid="composer-send" disabled={!canSend} aria-label="Send message" title="Send (Enter)">
          <Icon name="send" />
        </button>
      </form>
    </div>
  );
});
