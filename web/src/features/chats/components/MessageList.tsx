/**
 * The thread's scrolling message log: skeleton while loading, the error or 'missing' box, then
 * the messages (reactions left out: they show on their message) with a day separator before
 * each new day, and at the top the older-pages state ('Loading older messages…', Retry, or the
 * start of the conversation).
 */
import { Fragment, useMemo, type RefObject } from 'react';
import { useNavigate } from 'react-router-dom';
import type { Chat } from '#shared/chat/chat.schemas.ts';
import type { Message } from '#shared/message/message.schemas.ts';
import type { Ticket } from '#shared/ticket/ticket.schemas.ts';
import type { ActorInfo } from '../api/messageActions.ts';
import { dayKey, dayLabel } from '../../../lib/format.ts';
import { MessageBubble, type BubbleAction, type TicketAction } from './MessageBubble.tsx';
import type { ThreadStatus } from '../hooks/useThreadMessages.ts';

export interface MessageListProps {
  scrollRef: RefObject<HTMLDivElement | null>;
  onScroll: () => void;
  status: ThreadStatus;
  error: string | null;
  onRetry: () => void;
  messages: Message[];
  chat: Chat | null;
  cursor: string | null;
  loadingOlder: boolean;
  olderError: string | null;
  onLoadOlder: () => void;
  onReply: (m: Message) => void;
  onJump: (uniqueId: string) => void;
  chatTickets: Ticket[] | null;
  onTicketAction: (kind: TicketAction, m: Message) => void;
  actor: ActorInfo;
  onAction: (action: BubbleAction, m: Message, emoji?: string) => void;
  editingId: string | null;
  onSaveEdit: (m: Message, text: string) => Promise<boolean>;
  onCancelEdit: () => void;
}

export function MessageList(p: MessageListProps) {
  const navigate = useNavigate();
  const { status, messages } = p;
  const visible = useMemo(() => messages.filter((m) => m.message_type !== 'reaction'), [messages]);
  // quoted messages by wamid: the quote block names the original's type when the quote has no text
  const byWamid = useMemo(() => new Map(messages.filter((m) => m.message_id).map((m) => [m.message_id!, m])), [messages]);
  return (
    <div className="thread-scroll" ref={p.scrollRef} onScroll={p.onScroll} role="log" aria-label="Messages" aria-busy={status === 'loading'}>
      {status === 'loading' && (
        <div className="thread-skeleton" aria-label="Loading messages">
          {[0, 1, 2, 3, 4, 5].map((i) => (
            <div key={i} className={`skeleton-bubble ${i % 2 ? 'out' : 'in'}`} />
          ))}
        </div>
      )}
      {(status === 'error' || status === 'missing') && (
        <div className="state-box" role="alert">
          <p>{status === 'missing' ? 'This chat does not exist, or you cannot see it.' : `Could not load this chat: ${p.error}`}</p>
          {status === 'error' ? (
            <button type="button" className="btn" onClick={p.onRetry}>
              Retry
            </button>
          ) : (
            <button type="button" className="btn" onClick={() => navigate('/chats')}>
              Back to chats
            </button>
          )}
        </div>
      )}
      {status === 'ready' && (
        <>
          <div className="thread-top">
            {p.loadingOlder && <span className="muted small">Loading older messages…</span>}
            {p.olderError && (
              <span className="small">
                Could not load older messages.{' '}
                <button type="button" className="link-btn" onClick={p.onLoadOlder}>
                  Retry
                </button>
              </span>
            )}
            {!p.cursor && !p.loadingOlder && <span className="muted small">{visible.length ? 'Start of the conversation' : 'No messages yet. Send the first one below.'}</span>}
          </div>
          {visible.map((m, i) => {
            const prev = visible[i - 1];
            const newDay = !prev || dayKey(prev.timestamp) !== dayKey(m.timestamp);
            return (
              <Fragment key={m.unique_id}>
                {newDay && (
                  <div className="day-sep" role="separator">
                    <span>{dayLabel(m.timestamp)}</span>
                  </div>
                )}
                <MessageBubble
                  m={m}
                  chat={p.chat}
                  onReply={p.onReply}
                  onJump={p.onJump}
                  quotedOriginal={m.quoted_message ? byWamid.get(m.quoted_message.message_id) : undefined}
                  chatTickets={p.chatTickets}
                  onTicketAction={p.onTicketAction}
                  actor={p.actor}
                  onAction={p.onAction}
                  editing={p.editingId === m.unique_id}
                  onSaveEdit={p.onSaveEdit}
                  onCancelEdit={p.onCancelEdit}
                />
              </Fragment>
            );
          })}
        </>
      )}
    </div>
  );
}
