/**
 * The pieces the message actions open: the reaction picker (a popover of common emoji), the pin
 * duration dialog (24 hours, 7 days, 30 days), the forward dialog (up to 5 chats of the loaded
 * list, with search) and the pinned-messages bar at the top of a thread.
 */
import { useEffect, useLayoutEffect, useMemo, useRef, useState, type FormEvent } from 'react';
import { createPortal } from 'react-dom';
import type { Chat } from '#shared/chat/chat.schemas.ts';
import type { Message } from '#shared/message/message.schemas.ts';
import { chatDisplayName, chatUsername, customerNumber, previewText } from '../../../lib/format.ts';
import { QUICK_REACTIONS, pinRemaining, type PinnedEntry } from '../api/messageActions.ts';
import { Dialog, DialogFooter } from '../../../components/ui/Dialog.tsx';
import { Avatar } from './Avatar.tsx';
import { Icon } from '../../../components/ui/Icon.tsx';

// ---- reaction picker -------------------------------------------------------------------

export function ReactionPicker({
  at,
  current,
  onPick,
  onClose,
}: {
  at: { x: number; y: number };
  /** our reaction now ('' none): picking it again removes it */
  current: string;
  onPick: (emoji: string) => void;
  onClose: (restoreFocus: boolean) => void;
}) {
  const ref = useRef<HTMLDivElement>(null);
  const [pos, setPos] = useState(at);
  useLayoutEffect(() => {
    const el = ref.current;
    if (!el) return;
    const r = el.getBoundingClientRect();
    setPos({ x: Math.max(8, Math.min(at.x, window.innerWidth - r.width - 8)), y: at.y + r.height > window.innerHeight - 8 ? Math.max(8, at.y - r.height - 8) : at.y });
  }, [at]);
  useEffect(() => {
    const first = ref.current?.querySelector<HTMLElement>('[aria-pressed="true"]') ?? ref.current?.querySelector<HTMLElement>('button');
    first?.focus();
    const onDown = (e: PointerEvent) => {
      if (ref.current && !ref.current.contains(e.target as Node)) onClose(false);
    };
    const onScroll = () => onClose(false);
    document.addEventListener('pointerdown', onDown, true);
    document.querySelector('.thread-scroll')?.addEventListener('scroll', onScroll);
    return () => {
      document.removeEventListener('pointerdown', onDown, true);
      document.querySelector('.thread-scroll')?.removeEventListener('scroll', onScroll);
    };
  }, [onClose]);
  const move = (d: number) => {
    const els = [...(ref.current?.querySelectorAll<HTMLElement>('button') ?? [])];
    const i = els.indexOf(document.activeElement as HTMLElement);
    els[(i + d + els.length) % els.length]?.focus();
  };
  return createPortal(
    <div
      ref={ref}
      className="reaction-picker"
      role="toolbar"
      aria-label="Pick a reaction"
      data-testid="reaction-picker"
      style={{ left: pos.x, top: pos.y }}
      onKeyDown={(e) => {
        if (e.key === 'ArrowRight' || e.key === 'ArrowDown') move(1);
        else if (e.key === 'ArrowLeft' || e.key === 'ArrowUp') move(-1);
        else if (e.key === 'Escape' || e.key === 'Tab') onClose(true);
        else return;
        e.preventDefault();
        e.stopPropagation();
      }}
    >
      {QUICK_REACTIONS.map((emoji) => (
        <button
          key={emoji}
          type="button"
          className={`reaction-option ${current === emoji ? 'on' : ''}`}
          data-testid="reaction-option"
          data-emoji={emoji}
          aria-pressed={current === emoji}
          aria-label={current === emoji ? `Remove your ${emoji} reaction` : `React with ${emoji}`}
          title={current === emoji ? 'Remove your reaction' : `React with ${emoji}`}
          onClick={() => {
            onClose(true);
            onPick(current === emoji ? '' : emoji);
          }}
        >
          {emoji}
        </button>
      ))}
      {current && !(QUICK_REACTIONS as readonly string[]).includes(current) && (
        <button
          type="button"
          className="reaction-option on"
          data-testid="reaction-remove"
          aria-label={`Remove your ${current} reaction`}
          title="Remove your reaction"
          onClick={() => {
            onClose(true);
            onPick('');
          }}
        >
          {current}
        </button>
      )}
    </div>,
    document.body,
  );
}

// ---- pin duration --------------------------------------------------------------------------

export type PinDuration = '24h' | '7d' | '30d';
export const PIN_CHOICES: Array<[PinDuration, string]> = [
  ['24h', '24 hours'],
  ['7d', '7 days'],
  ['30d', '30 days'],
];

export function PinDialog({ message, onClose, onPin }: { message: Message; onClose: () => void; onPin: (d: PinDuration) => Promise<boolean> }) {
  const [duration, setDuration] = useState<PinDuration>('7d');
  const [busy, setBusy] = useState(false);
  const submit = async (e: FormEvent) => {
    e.preventDefault();
    setBusy(true);
    const ok = await onPin(duration);
    setBusy(false);
    if (ok) onClose();
  };
  const text = previewText(message) || 'Message';
  return (
    <Dialog title="Pin message" onClose={onClose} testId="pin-dialog" className="dialog-narrow">
      <form className="dialog-body form-grid" onSubmit={submit}>
        <blockquote className="dialog-excerpt">
          <span>{text.length > 160 ? `${text.slice(0, 159)}…` : text}</span>
        </blockquote>
        <fieldset className="ticket-choices">
          <legend>Keep it pinned for</legend>
          {PIN_CHOICES.map(([value, label]) => (
            <label key={value} className={`ticket-choice ${duration === value ? 'on' : ''}`}>
              <input type="radio" name="pin-duration" value={value} checked={duration === value} onChange={() => setDuration(value)} data-testid={`pin-duration-${value}`} />
              <span>{label}</span>
            </label>
          ))}
        </fieldset>
        <DialogFooter error={null} onCancel={onClose} submitLabel="Pin" busyLabel="Pinning…" busy={busy} disabled={busy} submitTestId="pin-submit" />
      </form>
    </Dialog>
  );
}

// ---- forward -------------------------------------------------------------------------------

export const MAX_FORWARD = 5;

export function ForwardDialog({
  message,
  chats,
  onClose,
  onForward,
}: {
  message: Message;
  chats: Chat[];
  onClose: () => void;
  /** @returns an error message, or null when forwarded */
  onForward: (chatIds: string[]) => Promise<string | null>;
}) {
  const [q, setQ] = useState('');
  const [picked, setPicked] = useState<string[]>([]);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const shown = useMemo(() => {
    const needle = q.trim().toLowerCase();
    const digits = needle.replace(/\D/g, '');
    return chats
      .filter((c) => !needle || chatDisplayName(c).toLowerCase().includes(needle) || (chatUsername(c)?.toLowerCase().includes(needle) ?? false) || (digits.length > 0 && (customerNumber(c) ?? '').includes(digits)))
      .slice(0, 200);
  }, [chats, q]);
  const full = picked.length >= MAX_FORWARD;
  const toggle = (id: string) => setPicked((p) => (p.includes(id) ? p.filter((x) => x !== id) : p.length >= MAX_FORWARD ? p : [...p, id]));
  const submit = async (e: FormEvent) => {
    e.preventDefault();
    if (!picked.length) return;
    setBusy(true);
    setError(null);
    const err = await onForward(picked);
    setBusy(false);
    if (err) setError(err);
    else onClose();
  };
  const text = previewText(message) || 'Message';
  return (
    <Dialog title="Forward message" onClose={onClose} testId="forward-dialog">
      <form className="dialog-body form-grid" onSubmit={submit}>
        <blockquote className="dialog-excerpt">
          <span>{text.length > 160 ? `${text.slice(0, 159)}…` : text}</span>
        </blockquote>
        <input
          type="search"
          className="forward-search"
          placeholder="Search chats by name or number"
          aria-label="Search chats"
          data-testid="forward-search"
          value={q}
          onChange={(e) => setQ(e.target.value)}
          autoFocus
        />
        <div className="muted small" aria-live="polite">
          {picked.length} of {MAX_FORWARD} chats chosen{full ? ' (the most you can forward to at once)' : ''}
        </div>
        <ul className="forward-list" aria-label="Chats">
          {shown.length === 0 && <li className="muted small forward-empty">No chats match “{q}”.</li>}
          {shown.map((c) => {
            const on = picked.includes(c.chat_id);
            const name = chatDisplayName(c);
            const number = customerNumber(c) ?? chatUsername(c);
            return (
              <li key={c.chat_id}>
                <label className={`forward-option ${on ? 'on' : ''} ${!on && full ? 'disabled' : ''}`} data-testid="forward-option" data-chat-id={c.chat_id}>
                  <input type="checkbox" checked={on} disabled={!on && full} onChange={() => toggle(c.chat_id)} />
                  <Avatar name={name} id={c.chat_id} size={32} />
                  <span className="forward-name">
                    <span>{name}</span>
                    {number && number !== name && <span className="muted small">{number}</span>}
                  </span>
                </label>
              </li>
            );
          })}
        </ul>
        <DialogFooter error={error} onCancel={onClose} submitLabel={picked.length > 1 ? `Forward to ${picked.length} chats` : 'Forward'} busyLabel="Forwarding…" busy={busy} disabled={busy || picked.length === 0} submitTestId="forward-submit" />
      </form>
    </Dialog>
  );
}

// ---- pinned bar ----------------------------------------------------------------------------

export function PinnedBar({ pins, onJump }: { pins: PinnedEntry[]; onJump: (uniqueId: string) => void }) {
  const [expanded, setExpanded] = useState(false);
  if (pins.length === 0) return null;
  const list = expanded ? pins : pins.slice(0, 1);
  return (
    <div className="pinned-bar" data-testid="pinned-bar" aria-label="Pinned messages" role="region">
      <Icon name="pushpin" size={16} />
      <ul className="pinned-list">
        {list.map((p) => (
          <li key={p.unique_id}>
            <button
              type="button"
              className="pinned-item"
              data-testid="pinned-item"
              data-unique-id={p.unique_id}
              title={`Pinned by ${p.pinned_by} · ${pinRemaining(p.expires_at)} · show the message`}
              onClick={() => onJump(p.unique_id)}
            >
              <span className="pinned-body">{p.body?.trim() || 'Pinned message'}</span>
              <span className="pinned-meta muted small">{pinRemaining(p.expires_at)}</span>
            </button>
          </li>
        ))}
      </ul>
      {pins.length > 1 && (
        <button type="button" className="link-btn small pinned-toggle" aria-expanded={expanded} onClick={() => setExpanded((x) => !x)}>
          {expanded ? 'Show less' : `+${pins.length - 1} more`}
        </button>
      )}
    </div>
  );
}
