/**
 * Private-note mode of the composer (issue 4): a 'Reply' / 'Private note' toggle (Ctrl/Cmd+Shift+N
 * switches), a yellow input with 'Write a private note… use @ to mention', and the '@' member
 * picker (arrow keys move, Enter or Tab picks, Esc closes) that writes '@Name' into the text and
 * records the member's email. A note is saved through `onSendNote`; it is never sent to WhatsApp.
 * Starting a reply switches back to Reply; switching to a note drops a pending reply quote.
 * Notes are text only: attachments are off in note mode.
 */
import { useCallback, useEffect, useId, useRef, useState, type KeyboardEvent, type RefObject } from 'react';
import { useCaretAfterInsert } from '../../../lib/useCaretAfterInsert.ts';
import { MAX_TEXT_BODY } from '#shared/message/message.schemas.ts';
import { activeMentionQuery, filterMentionMembers, insertMention, mentionLabel, mentionsInBody, type NoteMention } from '#shared/message/private-note.rules.ts';
import { errorMessage, type OrgMember } from '../../../lib/api.ts';
import { useMentionMembers } from '../hooks/useMentionMembers.ts';
import './notes.css';

export type ComposerMode = 'reply' | 'note';
export const NOTE_PLACEHOLDER = 'Write a private note… use @ to mention';
/** How many members the picker lists at once. */
const PICKER_SIZE = 8;

/** Is this Ctrl/Cmd+Shift+N (the note toggle)? */
export const isNoteShortcut = (e: { key: string; shiftKey: boolean; ctrlKey: boolean; metaKey: boolean; altKey: boolean }): boolean =>
  e.shiftKey && (e.ctrlKey || e.metaKey) && !e.altKey && e.key.toLowerCase() === 'n';

interface Options {
  value: string;
  setValue: (v: string | ((prev: string) => string)) => void;
  inputRef: RefObject<HTMLTextAreaElement | null>;
  setError: (e: string | null) => void;
  /** a reply being written (switches back to Reply mode) */
  replyTo: unknown;
  onCancelReply: () => void;
  /** note mode is offered only when the thread can save notes */
  enabled: boolean;
}

export function useNoteComposer({ value, setValue, inputRef, setError, replyTo, onCancelReply, enabled }: Options) {
  const [mode, setMode] = useState<ComposerMode>('reply');
  const [picked, setPicked] = useState<NoteMention[]>([]);
  const [picker, setPicker] = useState<{ start: number; query: string } | null>(null);
  const [index, setIndex] = useState(0);
  const active = enabled && mode === 'note';
  const members = useMentionMembers(active);
  const options: OrgMember[] = picker ? filterMentionMembers(members, picker.query).slice(0, PICKER_SIZE) : [];
  const listId = useId();
  // the caret after an inserted text, placed once the new text is in the input
  const { valueRef, caretAt: caretAfterPick } = useCaretAfterInsert(value, inputRef);
  const pickerRef = useRef(picker);
  pickerRef.current = picker;

  useEffect(() => {
    if (replyTo) setMode('reply');
  }, [replyTo]);
  useEffect(() => {
    if (!active) setPicker(null);
  }, [active]);

  const toggle = useCallback(
    (next?: ComposerMode) => {
      if (!enabled) return;
      const to = next ?? (mode === 'note' ? 'reply' : 'note');
      if (to === 'note' && replyTo) onCancelReply();
      setMode(to);
      setError(null);
      inputRef.current?.focus();
    },
    [enabled, mode, replyTo, onCancelReply, setError, inputRef],
  );

  /** follow the caret: open, narrow or close the picker */
  const sync = useCallback(
    (text: string, caret: number | null) => {
      const q = active && caret !== null ? activeMentionQuery(text, caret) : null;
      const prev = pickerRef.current;
      if (!q) {
        if (prev) setPicker(null);
        return;
      }
      if (!prev || prev.query !== q.query || prev.start !== q.start) {
        setIndex(0);
        setPicker(q);
      }
    },
    [active],
  );

  const pick = useCallback(
    (member: OrgMember) => {
      const el = inputRef.current;
      if (!picker || !el) return;
      const label = mentionLabel(member);
      const r = insertMention(valueRef.current, picker.start, el.selectionStart ?? valueRef.current.length, label);
      setValue(r.text);
      setPicked((p) => [...p, { email: member.email, name: label }]);
      setPicker(null);
      caretAfterPick.current = r.caret;
    },
    [picker, inputRef, setValue],
  );

  /** picker keys on the input; @returns true when the key was used */
  const onInputKeyDown = useCallback(
    (e: KeyboardEvent<HTMLTextAreaElement>): boolean => {
      if (!picker || options.length === 0 || e.nativeEvent.isComposing) return false;
      if (e.key === 'ArrowDown' || e.key === 'ArrowUp') setIndex((i) => (i + (e.key === 'ArrowDown' ? 1 : -1) + options.length) % options.length);
      else if ((e.key === 'Enter' && !e.shiftKey) || e.key === 'Tab') pick(options[Math.min(index, options.length - 1)]!);
      else if (e.key === 'Escape') setPicker(null);
      else return false;
      e.preventDefault();
      e.stopPropagation();
      return true;
    },
    [picker, options, index, pick],
  );

  /** Ctrl/Cmd+Shift+N anywhere in the composer; @returns true when used */
  const onWrapKeyDown = useCallback(
    (e: KeyboardEvent<HTMLElement>): boolean => {
      if (!enabled || !isNoteShortcut(e)) return false;
      e.preventDefault();
      e.stopPropagation();
      toggle();
      return true;
    },
    [enabled, toggle],
  );

  /** Save the note: the text is cleared at once and comes back (with its mentions) if saving fails. */
  const submit = useCallback(
    async (send: (text: string, mentions: string[]) => Promise<void>) => {
      const text = valueRef.current;
      if (!text.trim()) return;
      if (text.length > MAX_TEXT_BODY) {
        setError(`Notes can be at most ${MAX_TEXT_BODY} characters.`);
        return;
      }
      const mentions = mentionsInBody(text, picked);
      setValue('');
      setPicked([]);
      setPicker(null);
      setError(null);
      try {
        await send(text, mentions.map((m) => m.email));
      } catch (e) {
        setValue((v) => (v === '' ? text : v));
        setPicked(mentions);
        setError(`Note not saved: ${errorMessage(e)}`);
      }
    },
    [picked, setValue, setError],
  );

  const open = picker !== null && options.length > 0;
  /** combobox attributes for the input while the picker is open */
  const inputAria = active
    ? { role: 'combobox', 'aria-autocomplete': 'list' as const, 'aria-expanded': open, 'aria-controls': open ? listId : undefined, 'aria-activedescendant': open ? `${listId}-${index}` : undefined, 'aria-keyshortcuts': 'Control+Shift+N Meta+Shift+N' }
    : { 'aria-keyshortcuts': enabled ? 'Control+Shift+N Meta+Shift+N' : undefined };

  return { mode: enabled ? mode : ('reply' as const), active, toggle, sync, pick, onInputKeyDown, onWrapKeyDown, submit, open, options, index, setIndex, listId, inputAria };
}

/** The 'Reply' / 'Private note' switch above the input. */
export function NoteModeToggle({ mode, onChange }: { mode: ComposerMode; onChange: (m: ComposerMode) => void }) {
  return (
    <div className="composer-modes" role="group" aria-label="Message or private note (Ctrl+Shift+N switches)">
      <button type="button" className="composer-mode" aria-pressed={mode === 'reply'} data-testid="composer-mode-reply" onClick={() => onChange('reply')}>
        Reply
      </button>
      <button type="button" className="composer-mode note" aria-pressed={mode === 'note'} data-testid="composer-mode-note" title="Private note: only your team sees it (Ctrl+Shift+N)" onClick={() => onChange('note')}>
        Private note
      </button>
    </div>
  );
}

/** The '@' member picker (a listbox tied to the input as its combobox). */
export function MentionPicker({ id, options, index, onPick, onHover }: { id: string; options: OrgMember[]; index: number; onPick: (m: OrgMember) => void; onHover: (i: number) => void }) {
  return (
    <ul className="mention-picker" id={id} role="listbox" aria-label="Mention a teammate" data-testid="mention-picker">
      {options.map((m, i) => (
        <li
          key={m.email}
          id={`${id}-${i}`}
          role="option"
          aria-selected={i === index}
          className="mention-option"
          data-testid="mention-option"
          data-email={m.email}
          // keep the input's focus (and caret) while clicking
          onMouseDown={(e) => e.preventDefault()}
          onMouseEnter={() => onHover(i)}
          onClick={() => onPick(m)}
        >
          <span>{mentionLabel(m)}</span>
          {m.member_name?.trim() && <small>{m.email}</small>}
        </li>
      ))}
    </ul>
  );
}
