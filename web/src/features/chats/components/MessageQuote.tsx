/**
 * The quote block of a reply inside a bubble (see {@link Quoted}).
 */
import { useNavigate } from 'react-router-dom';
import type { Chat } from '#shared/chat/chat.schemas.ts';
import type { Message } from '#shared/message/message.schemas.ts';
import { quoteAuthor, quoteLine } from './Composer.tsx';

function scrollToMessage(messageId: string) {
  const el = document.querySelector<HTMLElement>(`[data-message-id="${CSS.escape(messageId)}"]`);
  if (!el) return;
  el.scrollIntoView({ block: 'center', behavior: window.matchMedia('(prefers-reduced-motion: reduce)').matches ? 'auto' : 'smooth' });
  el.classList.remove('flash');
  void el.offsetWidth;
  el.classList.add('flash');
}

/**
 * The quote block of a reply: who wrote the quoted message ('You' for ours) and its text (or, when
 * the stored quote has none, the type of the original if it is loaded). Clicking it shows the
 * original: through the thread (`onJump`, which loads older pages like the pinned bar) when its
 * unique_id is known, else by scrolling to it when it is on screen.
 */
export function Quoted({ q, chat, chatId, original, onJump }: { q: NonNullable<Message['quoted_message']>; chat: Chat | null; chatId: string; original?: Message; onJump?: (uniqueId: string) => void }) {
  const navigate = useNavigate();
  const who = quoteAuthor(chat, { from_me: !!q.from_me, author: q.author ?? original?.author ?? null, sender_phone: original?.sender_phone ?? q.author ?? null });
  const body = q.body || (original ? quoteLine(original) : '');
  const uniqueId = q.unique_id ?? original?.unique_id ?? null;
  return (
    <button
      type="button"
      className="quoted"
      data-testid="message-quote"
      data-quoted-id={q.message_id}
      onClick={(e) => {
        e.stopPropagation();
        if (q.chat_id && q.chat_id !== chatId) navigate(`/chats/${encodeURIComponent(q.chat_id)}${uniqueId ? `?message=${encodeURIComponent(uniqueId)}` : ''}`);
        else if (uniqueId && onJump) onJump(uniqueId);
        else scrollToMessage(q.message_id);
      }}
      title="Show the original message"
      aria-label={`Reply to ${who}: ${body || 'original message not available'}. Show the original message`}
    >
      <span className="quoted-author">
        {who}
        {/* reply privately: the quote came from a group chat */}
        {q.chat_id && q.chat_id !== chatId && (
          <span className="quoted-from" data-testid="message-quote-from">
            {' '}
            · from the group {q.chat_name || 'chat'}
          </span>
        )}
      </span>
      <span className={`quoted-body ${body ? '' : 'muted'}`}>{body || 'Original message not available'}</span>
    </button>
  );
}
