/**
 * Edit and delete for everyone in the thread (issue 5; spec §5, §8): the inline editor that
 * replaces a bubble's text while it is edited (Enter saves, Shift+Enter breaks a line, Esc
 * cancels), the 'edited' label (exact time of the edit on hover; 'sending…' until WhatsApp has it),
 * a deleted message as the team sees it ('This message was deleted', muted, the original text shown
 * on click for the audit, who deleted it and when), and the confirmation asked before a delete.
 */
import { useEffect, useRef, useState, type FormEvent, type KeyboardEvent } from 'react';
import type { Message } from '#shared/message/message.schemas.ts';
import { MAX_TEXT_BODY } from '#shared/message/message.schemas.ts';
import { exactTime, previewText } from '../../../lib/format.ts';
import { Dialog } from '../../../components/ui/Dialog.tsx';
import './message-edit.css';

/** Who changed a message, in words: a member's email, or the number for changes made on WhatsApp. */
function byWhom(who: string | null | undefined): string {
  if (!who) return 'someone';
  return who.startsWith('whatsapp:') ? `${who.slice('whatsapp:'.length)} on WhatsApp` : who;
}

export function InlineEditor({ m, onSave, onCancel }: { m: Message; onSave: (text: string) => Promise<boolean>; onCancel: () => void }) {
  const [text, setText] = useState(m.body ?? '');
  const [busy, setBusy] = useState(false);
  const ref = useRef<HTMLTextAreaElement>(null);
  useEffect(() => {
    const el = ref.current;
    if (!el) return;
    el.focus();
    el.setSelectionRange(el.value.length, el.value.length);
  }, []);
  // grow with the text, up to the CSS max-height
  useEffect(() => {
    const el = ref.current;
    if (!el) return;
    el.style.height = 'auto';
    el.style.height = `${el.scrollHeight}px`;
  }, [text]);
  const trimmed = text.trim();
  const unchanged = text === (m.body ?? '');
  const save = async (e?: FormEvent) => {
    e?.preventDefault();
    if (busy) return;
    if (!trimmed || unchanged) {
      if (unchanged) onCancel();
      return;
    }
    setBusy(true);
    const ok = await onSave(text);
    setBusy(false);
    if (ok) onCancel();
  };
  const onKeyDown = (e: KeyboardEvent<HTMLTextAreaElement>) => {
    if (e.key === 'Escape') {
      // cancel the edit only: the thread's Esc (close the chat) must not fire too
      e.preventDefault();
      e.stopPropagation();
      onCancel();
    } else if (e.key === 'Enter' && !e.shiftKey && !e.nativeEvent.isComposing) {
      e.preventDefault();
      void save();
    }
  };
  return (
    <form className="inline-edit" data-testid="message-edit" onSubmit={save} onClick={(e) => e.stopPropagation()}>
      <label className="visually-hidden" htmlFor={`edit-${m.unique_id}`}>
        Edit message
      </label>
      <textarea
        id={`edit-${m.unique_id}`}
        ref={ref}
        className="inline-edit-input"
        data-testid="message-edit-input"
        value={text}
        maxLength={MAX_TEXT_BODY}
        rows={1}
        disabled={busy}
        onChange={(e) => setText(e.target.value)}
        onKeyDown={onKeyDown}
      />
      <div className="inline-edit-actions">
        <span className="muted small">Esc to cancel · Enter to save</span>
        <button type="button" className="btn btn-small" onClick={onCancel} disabled={busy}>
          Cancel
        </button>
        <button type="submit" className="btn btn-small btn-primary" data-testid="message-edit-save" disabled={busy || !trimmed || unchanged}>
          {busy ? 'Saving…' : 'Save'}
        </button>
      </div>
    </form>
  );
}

/** 'edited' beside the time: when (exact, on hover) and whether WhatsApp has it yet. */
export function EditedLabel({ m }: { m: Message }) {
  if (m.edited_at == null || m.is_deleted) return null;
  const pending = m.edit_status === 'pending';
  const last = m.edit_history?.[m.edit_history.length - 1];
  const title = `Edited ${exactTime(m.edited_at)}${last?.edited_by ? ` by ${byWhom(last.edited_by)}` : ''}${pending ? ' (sending to WhatsApp…)' : ''}`;
  return (
    <span className={`edited-label ${pending ? 'pending' : ''}`} data-testid="edited-label" data-status={m.edit_status ?? 'inbound'} title={title} aria-label={title}>
      {pending ? 'edited · sending…' : 'edited'}
    </span>
  );
}

/**
 * A deleted message as the team sees it: muted 'This message was deleted'; a click (or Enter)
 * shows the original text, who deleted it and when, for the audit.
 */
export function DeletedBody({ m }: { m: Message }) {
  const [open, setOpen] = useState(false);
  const original = previewText({ ...m, is_deleted: false }) || m.body || '';
  const when = m.deleted_at ? exactTime(m.deleted_at) : null;
  const who = `Deleted${m.deleted_by ? ` by ${byWhom(m.deleted_by)}` : ''}${when ? ` · ${when}` : ''}`;
  return (
    <div className="deleted-body" data-testid="message-deleted" data-status={m.delete_status ?? 'inbound'}>
      <button
        type="button"
        className="deleted-toggle"
        aria-expanded={open}
        data-testid="message-deleted-toggle"
        title={original ? `${who}. Original: ${original}` : who}
        onClick={(e) => {
          e.stopPropagation();
          setOpen((o) => !o);
        }}
      >
        🚫 This message was deleted{m.delete_status === 'pending' ? ' · deleting…' : ''}
      </button>
      {open && (
        <div className="deleted-original" data-testid="message-deleted-original">
          <div className="muted small">{who}. Only your team sees the original:</div>
          <p className="msg-text">{original || 'No text'}</p>
        </div>
      )}
    </div>
  );
}

export function DeleteMessageDialog({ message, onClose, onDelete }: { message: Message; onClose: () => void; onDelete: () => void }) {
  const text = previewText(message) || 'Message';
  return (
    <Dialog title="Delete message for everyone?" onClose={onClose} testId="delete-message-dialog" className="dialog-narrow">
      <form
        className="dialog-body form-grid"
        onSubmit={(e) => {
          e.preventDefault();
          onClose();
          onDelete();
        }}
      >
        <blockquote className="dialog-excerpt">
          <span>{text.length > 160 ? `${text.slice(0, 159)}…` : text}</span>
        </blockquote>
        <p className="small">WhatsApp will show “This message was deleted” to everyone in the chat. Your team will still see the original here, marked deleted.</p>
        <div className="dialog-actions">
          <button type="button" className="btn" onClick={onClose} autoFocus>
            Cancel
          </button>
          <button type="submit" className="btn btn-danger" data-testid="delete-message-confirm">
            Delete for everyone
          </button>
        </div>
      </form>
    </Dialog>
  );
}
