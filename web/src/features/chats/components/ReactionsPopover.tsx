/**
 * 'Who reacted': the popover a reaction chip opens under a bubble. It pages the message's Reaction
 * rows from GET …/messages/{unique_id}/reactions (spec §3 Reaction; one row per sender), shows each
 * sender's name (the member's email for ours) with the emoji and, for ours, whether it is still
 * being sent; the chip's emoji comes first. The kit's AnchoredPopover places it under the chip;
 * Esc closes it and puts focus back on the chip, a click outside closes it.
 */
import { useCallback, useEffect, useState } from 'react';
import { AnchoredPopover } from '../../../components/ui/Popover.tsx';
import type { ReactionEntry } from '#shared/message/reaction.schemas.ts';
import { api, errorMessage } from '../../../lib/api.ts';
import { useSession } from '../../../app/session.tsx';
import { formatPhone } from '../../../lib/format.ts';

const PAGE = 50;

/** 'Who reacted' to message `uniqueId`, under `anchor` (the chip of `emoji`). */
export function ReactionsPopover({ anchor, chatId, uniqueId, emoji, onClose }: { anchor: HTMLElement; chatId: string; uniqueId: string; emoji: string; onClose: (restoreFocus: boolean) => void }) {
  const { org } = useSession();
  const [rows, setRows] = useState<ReactionEntry[]>([]);
  const [cursor, setCursor] = useState<string | null>(null);
  const [state, setState] = useState<'loading' | 'ready' | 'error'>('loading');
  const [error, setError] = useState<string | null>(null);

  const load = useCallback(
    async (from: string | null) => {
      setState('loading');
      try {
        const page = await api.listReactions(org.org_id, chatId, uniqueId, from, PAGE);
        setRows((r) => (from ? [...r, ...page.items] : page.items));
        setCursor(page.cursor);
        setState('ready');
      } catch (e) {
        setError(errorMessage(e));
        setState('error');
      }
    },
    [org.org_id, chatId, uniqueId],
  );
  useEffect(() => void load(null), [load]);

  // the chip's emoji first, then the others; within one emoji, oldest first
  const shown = [...rows].sort((a, b) => Number(b.reaction === emoji) - Number(a.reaction === emoji) || a.timestamp - b.timestamp);
  return (
    <AnchoredPopover anchor={anchor} onClose={onClose} label="Who reacted" testId="reactions-popover" className="reactions-popover" side="bottom" align="start">
      <div className="reactions-popover-title">Reactions</div>
      <ul className="reactions-popover-list">
        {shown.map((r) => (
          <li key={r.sender_id} data-testid="reactions-popover-row" data-sender={r.sender_id} data-emoji={r.reaction}>
            <span className="reaction-emoji" aria-hidden="true">
              {r.reaction}
            </span>
            <span className="reactions-popover-who">
              <span>{r.name ?? formatPhone(r.sender_id)}</span>
              <span className="muted small">{r.from_me ? `${formatPhone(r.sender_id)} · ${r.ack === 0 ? 'sending…' : r.ack >= 3 ? 'seen' : r.ack === 2 ? 'delivered' : r.ack < 0 ? 'failed' : 'sent'}` : r.name ? formatPhone(r.sender_id) : ''}</span>
            </span>
          </li>
        ))}
      </ul>
      {state === 'loading' && <div className="muted small">Loading…</div>}
      {state === 'ready' && rows.length === 0 && <div className="muted small">No reactions any more.</div>}
      {state === 'error' && (
        <div className="form-error" role="alert">
          {error}
        </div>
      )}
      {state !== 'loading' && cursor && (
        <button type="button" className="link-btn small" onClick={() => void load(cursor)}>
          Load more
        </button>
      )}
    </AnchoredPopover>
  );
}
