/**
 * One message in the thread: bubble (right for from_me, left otherwise) with author (groups),
 * forwarded label, quoted reply, content, time and ticks; reactions as chips under it; the failure
 * reason under failed outgoing messages; a Reply action on hover/focus when the message has a wamid.
 */
import { memo } from 'react';
import type { Chat } from '#shared/chat/chat.schemas.ts';
import type { Message } from '#shared/message/message.schemas.ts';
import { ACK } from '#shared/message/message.schemas.ts';
import { authorName, bubbleTime, exactTime, formatPhone, isGroupChat } from '../lib/format.ts';
import { Ack } from './Ack.tsx';
import { MessageContent } from './MessageContent.tsx';
import { Icon } from '../layout/Icon.tsx';

function scrollToMessage(messageId: string) {
  const el = document.querySelector<HTMLElement>(`[data-message-id="${CSS.escape(messageId)}"]`);
  if (!el) return;
  el.scrollIntoView({ block: 'center', behavior: window.matchMedia('(prefers-reduced-motion: reduce)').matches ? 'auto' : 'smooth' });
  el.classList.remove('flash');
  void el.offsetWidth;
  el.classList.add('flash');
}

function Quoted({ q, chat }: { q: NonNullable<Message['quoted_message']>; chat: Chat | null }) {
  const who = q.from_me ? 'You' : q.author ? authorName(chat, { author: q.author, sender_phone: q.author }) : null;
  return (
    <button type="button" className="quoted" onClick={() => scrollToMessage(q.message_id)} title="Show the original message">
      {who && <span className="quoted-author">{who}</span>}
      <span className={`quoted-body ${q.body ? '' : 'muted'}`}>{q.body || 'Original message not available'}</span>
    </button>
  );
}

export const MessageBubble = memo(function MessageBubble({
  m,
  chat,
  onReply,
}: {
  m: Message;
  chat: Chat | null;
  onReply: (m: Message) => void;
}) {
  const out = m.from_me;
  const group = chat ? isGroupChat(chat) : false;
  const reactions = Object.entries(m.reactions ?? {}).filter(([, r]) => r.reaction);
  const failed = out && m.ack === ACK.FAILED;
  const canReply = !!m.message_id && !m.is_deleted;
  const system = m.message_type === 'system';

  if (system) {
    return (
      <div className="msg msg-system" data-testid="message" data-unique-id={m.unique_id} data-ack={m.ack} data-from-me={String(out)}>
        <span>{m.body ?? 'System message'}</span>
      </div>
    );
  }

  return (
    <div
      className={`msg ${out ? 'msg-out' : 'msg-in'} ${m.is_private_note ? 'msg-note' : ''} ${failed ? 'msg-failed' : ''}`}
      data-testid="message"
      data-unique-id={m.unique_id}
      data-message-id={m.message_id ?? undefined}
      data-ack={m.ack}
      data-from-me={String(out)}
    >
      <div className="bubble">
        {m.is_private_note && <div className="note-label">Private note</div>}
        {group && !out && <div className="msg-author">{authorName(chat, m)}</div>}
        {m.forwarded && <div className="forwarded">↪ {m.forwarded === 'frequently_forwarded' ? 'Forwarded many times' : 'Forwarded'}</div>}
        {m.quoted_message && <Quoted q={m.quoted_message} chat={chat} />}
        <MessageContent m={m} />
        <div className="msg-meta">
          <time dateTime={new Date(m.timestamp).toISOString()} title={exactTime(m.timestamp)}>
            {bubbleTime(m.timestamp)}
          </time>
          {out && <Ack ack={m.ack} />}
        </div>
        {canReply && (
          <button type="button" className="msg-action" onClick={() => onReply(m)} aria-label="Reply to this message" title="Reply">
            <Icon name="reply" size={16} />
            <span>Reply</span>
          </button>
        )}
      </div>
      {reactions.length > 0 && (
        <ul className="reactions" aria-label="Reactions">
          {reactions.map(([sender, r]) => (
            <li key={sender} className="reaction" title={`${r.reaction} from ${formatPhone(sender)}`}>
              {r.reaction}
            </li>
          ))}
        </ul>
      )}
      {failed && (
        <div className="delivery-error" data-testid="delivery-error" role="note">
          Failed: {m.delivery_error?.reason ?? 'the message could not be delivered'}
        </div>
      )}
    </div>
  );
});
