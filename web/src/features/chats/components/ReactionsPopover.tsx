/**
 * 'Who reacted': the popover a reaction chip opens under a bubble. It pages the message's Reaction
 * rows from GET …/messages/{unique_id}/reactions (spec §3 Reaction; one row per sender), shows each
 * sender's name (the member's email for ours) with the emoji and, for ours, whether it is still
 * being sent; the chip's emoji comes first. Esc or a click outside closes it.
 */
import { useCallback, useEffect, useLayoutEffect, useRef, useState } from 'react';
import { createPortal } from 'react-dom';
import type { ReactionEntry } from '#shared/message/reaction.schemas.ts';
import { api, errorMessage } from '../../../lib/api.ts';
import { useSession } from '../../../app/session.tsx';
import { formatPhone } from '../../../lib/format.ts';

const PAGE = 50;

export function ReactionsPopover({ at, chatId, uniqueId, emoji, onClose }: { at: { x: number; y: number }; chatId: string; uniqueId: string; emoji: string; onClose: (restoreFocus: boolean) => void }) {
  const { org } = useSession();
  const ref = useRef<HTMLDivElement>(null);
  const [pos, setPos] = useState(at);
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

  useLayoutEffect(() => {
    const el = ref.current;
    if (!el) return;
    const r = el.getBoundingClientRect();
    setPos({ x: Math.max(8, Math.min(at.x, window.innerWidth - r.width - 8)), y: at.y + r.height > window.innerHeight - 8 ? Math.max(8, at.y - r.height - 8) : at.y });
  }, [at, rows.length]);
  useEffect(() => {
    ref.current?.focus();
    const onDown = (e: PointerEvent) => {
      if (ref.current && !ref.current.contains(e.target as Node)) onClose(false);
    };
    const onKey = (e: KeyboardEvent) => {
      if (e.key === 'Escape') {
        e.preventDefault();
        onClose(true);
      }
    };
    document.addEventListener('pointerdown', onDown, true);
    document.addEventListener('keydown', onKey);
    return () => {
      document.removeEventListener('pointerdown', onDown, true);
      document.removeEventListener('keydown', onKey);
    };
  }, [onClose]);

  // the chip's emoji first, then the others; within one emoji, oldest first
  const shown = [...rows].sort((a, b) => Number(b.reaction === emoji) - Number(a.reaction === emoji) || a.timestamp - b.timestamp);
  return createPortal(
    <div ref={ref} className="reactions-popover" role="dialog" aria-label="Who reacted" data-testid="reactions-popover" tabIndex={-1} style={{ left: pos.x, top: pos.y }}>
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
    </div>,
    document.body,
  );
}
