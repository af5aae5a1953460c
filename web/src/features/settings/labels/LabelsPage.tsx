/**
 * /settings/labels (spec §2, Organization settings): the org's chat labels with colour swatch, name
 * and how many chats carry each. Admins create, rename and recolour (a palette of ten colours or a
 * hex value) and delete with a confirmation that says how many chats lose the label. Members see
 * the list; the API refuses them the changes (403) and its message is shown.
 */
import { useEffect, useId, useState, type FormEvent } from 'react';
import type { ChatLabel } from '#shared/chat/chat.schemas.ts';
import { ChatLabelInput, LABEL_NAME_MAX } from '#shared/chat/chat.schemas.ts';
import { api, ApiError, errorMessage, fieldErrors } from '../../../lib/api.ts';
import { useSession } from '../../../app/session.tsx';
import { useInbox } from '../../../app/inbox.tsx';
import { useToast } from '../../../app/toast.tsx';
import { MenuButton } from '../../../app/shell/MenuButton.tsx';
import { Icon } from '../../../components/ui/Icon.tsx';
import { CharCount } from '../../../components/ui/CharCount.tsx';
import { lengthProblem } from '../../../lib/length.ts';
import { ListSkeleton, LoadError } from '../../../components/ui/ListStates.tsx';
import { Dialog, DialogFooter } from '../../../components/ui/Dialog.tsx';
import { ChatLabelChip } from '../../chats/index.ts';
import { SettingsTitle } from '../components/SettingsTitle.tsx';

export const LABEL_PALETTE = ['#1f7a8c', '#2563eb', '#7c3aed', '#db2777', '#dc2626', '#ea580c', '#ca8a04', '#16a34a', '#0d9488', '#64748b'];
const HEX = /^#[0-9a-fA-F]{6}$/;

/** The API's words for a failed write, with its field reasons. */
function problem(e: unknown): string {
  const fields = fieldErrors(e);
  if (fields.length && e instanceof ApiError && e.status === 400) return `${e.message} (${fields.map((f) => `${f.field} ${f.reason}`).join('; ')})`;
  return errorMessage(e);
}

function ColourPicker({ value, onChange, idPrefix }: { value: string; onChange: (c: string) => void; idPrefix: string }) {
  const [hex, setHex] = useState(value);
  useEffect(() => setHex(value), [value]);
  return (
    <div className="colour-picker">
      <div className="swatches" role="radiogroup" aria-label="Colour">
        {LABEL_PALETTE.map((c) => (
          <button
            key={c}
            type="button"
            role="radio"
            aria-checked={value.toLowerCase() === c}
            aria-label={`Colour ${c}`}
            className={`swatch ${value.toLowerCase() === c ? 'on' : ''}`}
            style={{ background: c }}
            onClick={() => onChange(c)}
            data-testid="label-swatch"
          />
        ))}
      </div>
      <label className="hex-input" htmlFor={`${idPrefix}-hex`}>
        <span className="visually-hidden">Hex colour</span>
        <input
          id={`${idPrefix}-hex`}
          type="text"
          value={hex}
          maxLength={7}
          spellCheck={false}
          aria-invalid={!HEX.test(hex)}
          placeholder="#1f7a8c"
          data-testid="label-hex"
          onChange={(e) => {
            const v = e.target.value.startsWith('#') ? e.target.value : `#${e.target.value}`;
            setHex(v);
            if (HEX.test(v)) onChange(v.toLowerCase());
          }}
        />
      </label>
    </div>
  );
}

function LabelForm({
  initial,
  submitText,
  onSubmit,
  onCancel,
  testId,
}: {
  initial: { name: string; color: string };
  submitText: string;
  onSubmit: (v: { name: string; color: string }) => Promise<string | null>;
  onCancel?: () => void;
  testId: string;
}) {
  const [name, setName] = useState(initial.name);
  const [color, setColor] = useState(initial.color);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const id = useId();
  const submit = async (e: FormEvent) => {
    e.preventDefault();
    // too long: the counter under the field already says so (issue 49 §7)
    if (lengthProblem(name, LABEL_NAME_MAX, 'Name')) return setError(null);
    const parsed = ChatLabelInput.safeParse({ name, color });
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      return setError(`${issue.path[0] === 'color' ? 'Colour' : 'Name'} ${issue.message}.`);
    }
    setBusy(true);
    setError(null);
    const err = await onSubmit(parsed.data);
    setBusy(false);
    if (err) setError(err);
    else if (!onCancel) setName('');
  };
  return (
    <form className="label-form" onSubmit={(e) => void submit(e)} data-testid={testId}>
      <div className="label-form-row">
        <span className="label-swatch big" style={{ background: HEX.test(color) ? color : 'transparent' }} aria-hidden="true" />
        <label className="field label-name-field" htmlFor={`${id}-name`}>
          <span className="visually-hidden">Label name</span>
          <input id={`${id}-name`} type="text" value={name} placeholder="Label name, e.g. VIP" onChange={(e) => setName(e.target.value)} data-testid="label-name-input" />
          {/* counted, refused on save by ChatLabelInput, never cut (issue 49 §7) */}
          <CharCount value={name} max={LABEL_NAME_MAX} field="Name" testId="label-name-count" />
        </label>
        <button type="submit" className="btn btn-primary" disabled={busy || !name.trim()} data-testid="label-save">
          {busy ? 'Saving…' : submitText}
        </button>
        {onCancel && (
          <button type="button" className="btn" onClick={onCancel}>
            Cancel
          </button>
        )}
      </div>
      <ColourPicker value={color} onChange={setColor} idPrefix={id} />
      {error && (
        <p className="form-error" role="alert">
          {error}
        </p>
      )}
    </form>
  );
}

export function LabelsPage() {
  const { org } = useSession();
  const { reloadLabels, reloadCounts } = useInbox();
  const toast = useToast();
  const isAdmin = org.role === 'admin';
  const [labels, setLabels] = useState<ChatLabel[]>([]);
  const [status, setStatus] = useState<'loading' | 'ready' | 'error'>('loading');
  const [loadError, setLoadError] = useState<string | null>(null);
  const [editing, setEditing] = useState<string | null>(null);
  const [deleting, setDeleting] = useState<ChatLabel | null>(null);
  const [deleteBusy, setDeleteBusy] = useState(false);
  const [deleteError, setDeleteError] = useState<string | null>(null);
  const [attempt, setAttempt] = useState(0);

  useEffect(() => {
    let live = true;
    setStatus((s) => (s === 'ready' ? s : 'loading'));
    api
      .chatLabels(org.org_id)
      .then((l) => {
        if (!live) return;
        setLabels(l);
        setStatus('ready');
      })
      .catch((e) => {
        if (!live) return;
        setLoadError(errorMessage(e));
        setStatus('error');
      });
    return () => {
      live = false;
    };
  }, [org.org_id, attempt]);

  /** the list here and everywhere else (chips, filters, pickers) */
  const changed = () => {
    setAttempt((n) => n + 1);
    reloadLabels();
  };

  const create = async (v: { name: string; color: string }): Promise<string | null> => {
    try {
      const l = await api.createChatLabel(org.org_id, v);
      setLabels((prev) => [...prev, l].sort((a, b) => a.name.localeCompare(b.name)));
      toast.show(`Label “${l.name}” created`, 'success');
      changed();
      return null;
    } catch (e) {
      const msg = problem(e);
      toast.show(msg, 'error');
      return msg;
    }
  };

  const update = async (label: ChatLabel, v: { name: string; color: string }): Promise<string | null> => {
    const input: { name?: string; color?: string } = {};
    if (v.name !== label.name) input.name = v.name;
    if (v.color.toLowerCase() !== label.color.toLowerCase()) input.color = v.color;
    if (!input.name && !input.color) {
      setEditing(null);
      return null;
    }
    try {
      const l = await api.updateChatLabel(org.org_id, label.label_id, input);
      setLabels((prev) => prev.map((x) => (x.label_id === l.label_id ? { ...x, ...l } : x)));
      setEditing(null);
      toast.show('Label saved', 'success');
      changed();
      return null;
    } catch (e) {
      const msg = problem(e);
      toast.show(msg, 'error');
      return msg;
    }
  };

  const remove = async () => {
    if (!deleting) return;
    setDeleteBusy(true);
    setDeleteError(null);
    try {
      const n = await api.deleteChatLabel(org.org_id, deleting.label_id);
      setLabels((prev) => prev.filter((x) => x.label_id !== deleting.label_id));
      toast.show(`Label “${deleting.name}” deleted${n ? `, removed from ${n} chat${n === 1 ? '' : 's'}` : ''}`, 'success');
      setDeleting(null);
      changed();
      reloadCounts();
    } catch (e) {
      const msg = problem(e);
      setDeleteError(msg);
      toast.show(msg, 'error');
    } finally {
      setDeleteBusy(false);
    }
  };

  return (
    <div className="page" data-testid="labels-page">
      <header className="page-header">
        <MenuButton />
        <SettingsTitle title="Labels" />
      </header>
      <div className="page-body settings-form labels-settings">
        <p className="muted small">Labels sort chats (VIP, billing, follow-up…). Everyone can put them on chats; admins manage the list. A chat can have up to 20.</p>
        {!isAdmin && (
          <p className="notice" role="note" data-testid="labels-readonly">
            Only admins can manage labels. You can see them here.
          </p>
        )}
        {isAdmin && status === 'ready' && (
          <section className="settings-section" aria-labelledby="new-label-title">
            <h2 id="new-label-title">New label</h2>
            <LabelForm key={`new-${labels.length}`} initial={{ name: '', color: LABEL_PALETTE[labels.length % LABEL_PALETTE.length] }} submitText="Create label" onSubmit={create} testId="label-create" />
          </section>
        )}
        <section className="settings-section" aria-labelledby="labels-title">
          <h2 id="labels-title">Labels{status === 'ready' ? ` (${labels.length})` : ''}</h2>
          {status === 'loading' && <ListSkeleton rows={4} label="Loading labels" />}
          {status === 'error' && <LoadError what="labels" error={loadError} onRetry={() => setAttempt((n) => n + 1)} />}
          {status === 'ready' && labels.length === 0 && (
            <p className="muted" data-testid="labels-empty">
              No labels yet.{isAdmin ? ' Create the first one above.' : ' An admin can create them.'}
            </p>
          )}
          {status === 'ready' && labels.length > 0 && (
            <ul className="labels-list">
              {labels.map((l) => (
                <li key={l.label_id} className="labels-row" data-testid="label-row" data-label-id={l.label_id}>
                  {editing === l.label_id ? (
                    <LabelForm initial={{ name: l.name, color: l.color }} submitText="Save" onSubmit={(v) => update(l, v)} onCancel={() => setEditing(null)} testId="label-edit" />
                  ) : (
                    <>
                      <span className="label-swatch" style={{ background: l.color }} aria-hidden="true" />
                      <span className="labels-row-name" data-testid="label-name">
                        <ChatLabelChip name={l.name} color={l.color} />
                      </span>
                      <span className="muted small labels-row-usage" data-testid="label-usage" data-count={l.usage_count ?? 0}>
                        {l.usage_count ?? 0} chat{(l.usage_count ?? 0) === 1 ? '' : 's'}
                      </span>
                      {isAdmin && (
                        <span className="labels-row-actions">
                          <button type="button" className="btn btn-ghost small-btn" onClick={() => setEditing(l.label_id)} data-testid="label-edit-button" aria-label={`Rename or recolour ${l.name}`}>
                            Edit
                          </button>
                          <button
                            type="button"
                            className="icon-btn"
                            onClick={() => {
                              setDeleteError(null);
                              setDeleting(l);
                            }}
                            data-testid="label-delete"
                            aria-label={`Delete ${l.name}`}
                            title="Delete label"
                          >
                            <Icon name="trash" size={18} />
                          </button>
                        </span>
                      )}
                    </>
                  )}
                </li>
              ))}
            </ul>
          )}
        </section>
      </div>
      {deleting && (
        <Dialog title="Delete label" onClose={() => setDeleting(null)} testId="label-delete-dialog">
          <div className="dialog-body form-grid">
            <p data-testid="label-delete-question">
              {(deleting.usage_count ?? 0) > 0
                ? `Remove "${deleting.name}" from ${deleting.usage_count} chat${deleting.usage_count === 1 ? '' : 's'}?`
                : `Delete "${deleting.name}"? No chat has it.`}
            </p>
            <p className="muted small">The label is deleted for everyone in the workspace. This cannot be undone.</p>
            <DialogFooter error={deleteError} onCancel={() => setDeleting(null)} onSubmit={() => void remove()} submitLabel="Delete label" busyLabel="Deleting…" busy={deleteBusy} disabled={deleteBusy} submitTestId="label-delete-confirm" danger />
          </div>
        </Dialog>
      )}
    </div>
  );
}
