/**
 * /settings/replies (spec §2 Quick Replies; issue 15 item 5): the team's quick replies, and the
 * admin's own personal ones. A reply has a shortcut (typed after '/' in the composer), a text with
 * variables ({{contact.name}}, {{contact.first_name}}, {{member.name}}, {{property.<name>}}) and an
 * optional file from the media library. Team replies are shared with everyone; "Only me" replies
 * show only in their owner's picker. The settings gate keeps this page to admins (spec §2).
 */
import { useRef, useState, type FormEvent } from 'react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { QuickReplyInput, type QuickReply, type ReplyAttachment, type ReplyScope } from '#shared/reply/reply.schemas.ts';
import { useSession } from '../../../app/session.tsx';
import { useToast } from '../../../app/toast.tsx';
import { MenuButton } from '../../../app/shell/MenuButton.tsx';
import { Icon } from '../../../components/ui/Icon.tsx';
import { ConfirmDeleteDialog, SettingsList, formSubmit } from '../../../components/ui/SettingsList.tsx';
import { api, errorMessage, fieldErrors } from '../../../lib/api.ts';
import { replyKeys, repliesApi } from '../../replies/index.ts';
import { SettingsTitle } from '../components/SettingsTitle.tsx';
import './replies-settings.css';

const VARIABLES = ['{{contact.name}}', '{{contact.first_name}}', '{{member.name}}', '{{property.Name}}'];
const FIELD_NAMES: Record<string, string> = { shortcut: 'Shortcut', text: 'Text', scope: 'Shared with', attachment: 'File' };

function problem(e: unknown): string {
  const f = fieldErrors(e);
  return f.length ? f.map((x) => `${FIELD_NAMES[x.field.split('.')[0]!] ?? x.field} ${x.reason}`).join('; ') : errorMessage(e);
}

/** Recent files of the media library to attach (GET /media, newest 24). */
function LibraryFilePicker({ value, onChange }: { value: ReplyAttachment | null; onChange: (a: ReplyAttachment | null) => void }) {
  const { org } = useSession();
  const [open, setOpen] = useState(false);
  const q = useQuery({ queryKey: ['orgs', org.org_id, 'media', 'reply-picker'], queryFn: () => api.listMedia(org.org_id, { limit: 24 }), enabled: open, staleTime: 30_000 });
  if (value)
    return (
      <div className="reply-file" data-testid="reply-file">
        <Icon name="file" size={16} /> <span>{value.filename || value.message_type}</span>
        <button type="button" className="btn btn-ghost" onClick={() => onChange(null)}>
          Remove file
        </button>
      </div>
    );
  return (
    <div className="reply-file-picker">
      <button type="button" className="btn" onClick={() => setOpen((o) => !o)} aria-expanded={open} data-testid="reply-file-open">
        {open ? 'Close the media library' : 'Attach a file from the media library'}
      </button>
      {open && (
        <div className="reply-file-grid" role="list" aria-label="Recent files">
          {q.isPending && <p className="muted small">Loading files…</p>}
          {q.isError && <p className="muted small">Files could not be loaded: {errorMessage(q.error)}</p>}
          {q.data && q.data.items.length === 0 && <p className="muted small">The media library has no files yet.</p>}
          {q.data?.items.map((m) => (
            <button
              key={`${m.chat_id}|${m.unique_id}`}
              type="button"
              role="listitem"
              className="reply-file-item"
              title={m.filename || m.caption || m.message_type}
              onClick={() => {
                onChange({ chat_id: m.chat_id, unique_id: m.unique_id, message_type: m.message_type, filename: m.filename, mimetype: m.mimetype });
                setOpen(false);
              }}
            >
              {m.thumbnail_url ? <img src={m.thumbnail_url} alt="" /> : <Icon name="file" size={20} />}
              <span>{m.filename || m.caption || m.message_type}</span>
            </button>
          ))}
        </div>
      )}
    </div>
  );
}

function ReplyForm({ initial, submitLabel, onSubmit, onCancel }: { initial?: QuickReply; submitLabel: string; onSubmit: (input: QuickReplyInput) => Promise<string | null>; onCancel?: () => void }) {
  const [shortcut, setShortcut] = useState(initial?.shortcut ?? '');
  const [text, setText] = useState(initial?.text ?? '');
  const [scope, setScope] = useState<ReplyScope>(initial?.scope ?? 'team');
  const [attachment, setAttachment] = useState<ReplyAttachment | null>(initial?.attachment ?? null);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const textRef = useRef<HTMLTextAreaElement>(null);
  function insertVariable(v: string) {
    const el = textRef.current;
    const at = el?.selectionStart ?? text.length;
    const next = text.slice(0, at) + v + text.slice(el?.selectionEnd ?? at);
    setText(next);
    requestAnimationFrame(() => {
      el?.focus();
      el?.setSelectionRange(at + v.length, at + v.length);
    });
  }
  async function submit(e: FormEvent) {
    e.preventDefault();
    const parsed = QuickReplyInput.safeParse({ shortcut, text, scope, attachment });
    if (!parsed.success) return setError(parsed.error.issues.map((i) => `${FIELD_NAMES[String(i.path[0])] ?? i.path[0]} ${i.message}`).join('; '));
    setBusy(true);
    setError(null);
    const err = await onSubmit(parsed.data);
    setBusy(false);
    if (err) setError(err);
    else if (!initial) {
      setShortcut('');
      setText('');
      setAttachment(null);
    }
  }
  return (
    <form className="reply-form" onSubmit={(e) => void submit(e)} data-testid={initial ? 'reply-edit-form' : 'reply-add-form'}>
      <div className="reply-form-row">
        <label className="field">
          <span>Shortcut</span>
          <span className="reply-shortcut-input">
            <span aria-hidden="true">/</span>
            <input type="text" value={shortcut} maxLength={31} placeholder="thanks" onChange={(e) => setShortcut(e.target.value)} data-testid="reply-shortcut" />
          </span>
        </label>
        <label className="field">
          <span>Shared with</span>
          <select value={scope} onChange={(e) => setScope(e.target.value as ReplyScope)} data-testid="reply-scope">
            <option value="team">The whole team</option>
            <option value="personal">Only me</option>
          </select>
        </label>
      </div>
      <label className="field">
        <span>Text</span>
        <textarea ref={textRef} rows={4} value={text} maxLength={4096} placeholder="Hi {{contact.first_name}}, thanks for writing to us!" onChange={(e) => setText(e.target.value)} data-testid="reply-text" />
      </label>
      <div className="reply-variables" role="group" aria-label="Insert a variable">
        <span className="muted small">Insert:</span>
        {VARIABLES.map((v) => (
          <button key={v} type="button" className="reply-variable" onClick={() => insertVariable(v)}>
            {v}
          </button>
        ))}
      </div>
      <LibraryFilePicker value={attachment} onChange={setAttachment} />
      {error && (
        <p className="form-error" role="alert">
          {error}
        </p>
      )}
      <div className="reply-form-actions">
        {onCancel && (
          <button type="button" className="btn" onClick={onCancel}>
            Cancel
          </button>
        )}
        <button type="submit" className="btn btn-primary" disabled={busy || !shortcut.trim() || !text.trim()} data-testid="reply-save">
          {busy ? 'Saving…' : submitLabel}
        </button>
      </div>
    </form>
  );
}

export function RepliesPage() {
  const { org } = useSession();
  const toast = useToast();
  const qc = useQueryClient();
  const key = replyKeys.all(org.org_id);
  const q = useQuery({ queryKey: key, queryFn: () => repliesApi.list(org.org_id) });
  const [editing, setEditing] = useState<string | null>(null);
  const [deleting, setDeleting] = useState<QuickReply | null>(null);
  const reload = () => void qc.invalidateQueries({ queryKey: key });

  return (
    <div className="page" data-testid="replies-page">
      <header className="page-header">
        <MenuButton />
        <SettingsTitle title="Quick Replies" />
      </header>
      <div className="page-body replies-body">
        <p className="muted">Type <kbd>/</kbd> at the start of a message to pick a quick reply. Variables are filled in when the reply is inserted: the contact’s name, your name, and the chat’s custom properties.</p>
        <section className="settings-section" aria-labelledby="reply-add">
          <h2 id="reply-add">Add a quick reply</h2>
          <ReplyForm
            submitLabel="Add reply"
            onSubmit={formSubmit(async (input) => {
              await repliesApi.create(org.org_id, input);
              reload();
              toast.show('Quick reply added', 'success');
            }, problem)}
          />
        </section>
        <SettingsList
          title="Quick replies"
          headingId="reply-list"
          what="quick replies"
          empty="No quick replies yet. Add the first one above."
          query={q}
          onRetry={reload}
          listClassName="reply-list"
          idOf={(r) => r.reply_id}
          editingId={editing}
          renderEdit={(r) => (
            <ReplyForm
              initial={r}
              submitLabel="Save"
              onCancel={() => setEditing(null)}
              onSubmit={formSubmit(async (input) => {
                await repliesApi.update(org.org_id, r.reply_id, input);
                setEditing(null);
                reload();
              }, problem)}
            />
          )}
          renderRow={(r) => (
            <li key={r.reply_id} className="reply-row" data-testid="reply-row" data-shortcut={r.shortcut}>
              <span className="reply-row-shortcut">/{r.shortcut}</span>
              <span className="reply-row-chip">{r.scope === 'team' ? 'Team' : 'Only me'}</span>
              {r.attachment && (
                <span className="reply-row-chip">
                  <Icon name="file" size={12} /> {r.attachment.filename || r.attachment.message_type}
                </span>
              )}
              <span className="reply-row-actions">
                <button type="button" className="btn btn-ghost" onClick={() => setEditing(r.reply_id)} aria-label={`Edit /${r.shortcut}`}>
                  Edit
                </button>
                <button type="button" className="icon-btn" onClick={() => setDeleting(r)} aria-label={`Delete /${r.shortcut}`} title="Delete quick reply">
                  <Icon name="trash" size={18} />
                </button>
              </span>
              <span className="reply-row-text">{r.text}</span>
            </li>
          )}
        />
      </div>
      {deleting && (
        <ConfirmDeleteDialog
          title={`Delete /${deleting.shortcut}?`}
          onClose={() => setDeleting(null)}
          onConfirm={() => repliesApi.remove(org.org_id, deleting.reply_id)}
          onDone={() => {
            setDeleting(null);
            reload();
          }}
          submitLabel="Delete reply"
          testId="reply-delete-dialog"
          submitTestId="reply-delete-confirm"
        >
          <p>{deleting.scope === 'team' ? 'Nobody on the team can insert this reply any more.' : 'You can no longer insert this reply.'} Messages already sent with it are not changed.</p>
        </ConfirmDeleteDialog>
      )}
    </div>
  );
}
