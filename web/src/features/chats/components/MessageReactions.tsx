/**
 * A message's reactions as emoji + count chips (tooltip: who); a chip opens 'who reacted'
 * (ReactionsPopover) under it.
 */
import { useState } from 'react';
import type { Chat } from '#shared/chat/chat.schemas.ts';
import type { Message } from '#shared/message/message.schemas.ts';
import { groupReactions } from '../api/messageActions.ts';
import { isLocal } from '../api/messages.ts';
import { ReactionsPopover } from './ReactionsPopover.tsx';

/** The chips of `m` (nothing when it has no reactions); `ours` is the org number of the chat. */
export function MessageReactions({ m, chat, ours }: { m: Message; chat: Chat | null; ours: string | undefined }) {
  const [whoAt, setWhoAt] = useState<{ anchor: HTMLElement; emoji: string } | null>(null);
  const closeWho = (restoreFocus: boolean) => {
    if (restoreFocus) whoAt?.anchor.focus();
    setWhoAt(null);
  };
  const reactions = groupReactions(m, chat, ours);
  if (reactions.length === 0 && !whoAt) return null;
  return (
    <>
      {reactions.length > 0 && (
        <ul className="reactions" aria-label="Reactions" data-testid="message-reactions">
          {reactions.map((g) => {
            const who = g.who.join(', ');
            return (
              <li
                key={g.emoji}
                className={`reaction ${g.mine ? 'mine' : ''} ${g.pending ? 'pending' : ''}`}
                data-testid="reaction"
                data-emoji={g.emoji}
                data-mine={String(g.mine)}
                title={`${g.emoji} ${who}${g.pending ? ' (sending…)' : ''}`}
              >
                <button
                  type="button"
                  className="reaction-chip"
                  data-testid="reaction-chip"
                  aria-label={`${g.emoji} from ${who}. Show who reacted`}
                  aria-haspopup="dialog"
                  aria-expanded={whoAt?.emoji === g.emoji}
                  onClick={(e) => setWhoAt(whoAt?.emoji === g.emoji ? null : { anchor: e.currentTarget, emoji: g.emoji })}
                >
                  <span className="reaction-emoji">{g.emoji}</span>
                  {g.count > 1 && <span className="reaction-count">{g.count}</span>}
                </button>
              </li>
            );
          })}
        </ul>
      )}
      {whoAt && !isLocal(m) && <ReactionsPopover anchor={whoAt.anchor} chatId={m.chat_id} uniqueId={m.unique_id} emoji={whoAt.emoji} onClose={closeWho} />}
    </>
  );
}
