/**
 * /settings/group-templates (spec §2 Group Templates; issue 15 item 6): saved groups — a name, a
 * description, a picture (from the media library or uploaded) and WhatsApp's admin-only settings
 * (only admins send messages; only admins edit the group's info) — and "Create group" from one on a
 * WhatsApp Web number with chosen contacts. The session worker creates the group on WhatsApp; the
 * dialog follows the request until the group exists and links to its chat. The settings gate keeps
 * this page to admins (spec §2).
 */
import { useEffect, useState, type FormEvent } from 'react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { Link } from 'react-router-dom';
import { GroupTemplateInput, MAX_GROUP_DESCRIPTION, MAX_GROUP_SUBJECT, type GroupTemplate, type PictureSource } from '#shared/group-template/group-template.schemas.ts';
import type { ContactView } from '#shared/contact/contact.schemas.ts';
import { useSession } from '../../../app/session.tsx';
import { useToast } from '../../../app/toast.tsx';
import { MenuButton } from '../../../app/shell/MenuButton.tsx';
import { Icon } from '../../../components/ui/Icon.tsx';
import { Dialog, DialogFooter } from '../../../components/ui/Dialog.tsx';
import { ConfirmDeleteDialog, SettingsList, formSubmit } from '../../../components/ui/SettingsList.tsx';
import { api, errorMessage, fieldErrors } from '../../../lib/api.ts';
import { contactsApi } from '../../contacts/index.ts';
import { SettingsTitle } from '../components/SettingsTitle.tsx';
import { absoluteUrl, groupTemplateKeys, groupTemplatesApi } from './api.ts';
import './group-templates.css';

const FIELD_NAMES: Record<string, string> = { name: 'Name', description: 'Description', picture: 'Picture', phone_id: 'Number', chat_ids: 'Participants', contact_ids: 'Participants' };

function problem(e: unknown): string {
  const f = fieldErrors(e);
  return f.length ? f.map((x) => `${FIELD_NAMES[x.field.split('.')[0]!] ?? x.field} ${x.reason}`).join('; ') : errorMessage(e);
}

/** The picture chosen in the form: kept as saved, none, a new upload, or a library image. */
type PictureChoice = { kind: 'keep'; url: string | null } | { kind: 'none' } | { kind: 'new'; source: PictureSource; preview: string | null; label: string };

function PicturePicker({ value, onChange }: { value: PictureChoice; onChange: (p: PictureChoice) => void }) {
  const { org } = useSession();
  const [library, setLibrary] = useState(false);
  const [uploading, setUploading] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const q = useQuery({ queryKey: ['orgs', org.org_id, 'media', 'group-picture'], queryFn: () => api.listMedia(org.org_id, { type: 'image', limit: 24 }), enabled: library, staleTime: 30_000 });
  const preview = value.kind === 'keep' ? value.url : value.kind === 'new' ? value.preview : null;
  async function upload(file: File | undefined) {
    if (!file) return;
    setError(null);
    setUploading(true);
    try {
      const key = await groupTemplatesApi.uploadPicture(org.org_id, file);
      onChange({ kind: 'new', source: { upload_key: key }, preview: URL.createObjectURL(file), label: file.name });
    } catch (e) {
      setError(problem(e));
    } finally {
      setUploading(false);
    }
  }
  return (
    <div className="gt-picture">
      <span className="gt-label">Picture</span>
      <div className="gt-picture-row">
        <span className="gt-avatar" aria-hidden="true">{preview ? <img src={absoluteUrl(preview)} alt="" /> : <Icon name="contacts" size={24} />}</span>
        <label className="btn gt-upload">
          <Icon name="upload" size={16} /> {uploading ? 'Uploading…' : 'Upload a picture'}
          <input type="file" accept="image/jpeg,image/png" onChange={(e) => void upload(e.target.files?.[0])} data-testid="gt-picture-upload" />
        </label>
        <button type="button" className="btn" onClick={() => setLibrary((o) => !o)} aria-expanded={library} data-testid="gt-picture-library">
          {library ? 'Close the media library' : 'Choose from the media library'}
        </button>
        {value.kind !== 'none' && preview && (
          <button type="button" className="btn btn-ghost" onClick={() => onChange({ kind: 'none' })}>
            Remove picture
          </button>
        )}
      </div>
      {value.kind === 'new' && <span className="muted small">{value.label}</span>}
      {error && <p className="form-error" role="alert">{error}</p>}
      {library && (
        <div className="gt-library" role="list" aria-label="Images of the media library">
          {q.isPending && <p className="muted small">Loading images…</p>}
          {q.isError && <p className="muted small">Images could not be loaded: {errorMessage(q.error)}</p>}
          {q.data && q.data.items.length === 0 && <p className="muted small">The media library has no images yet.</p>}
          {q.data?.items.map((m) => (
            <button
              key={`${m.chat_id}|${m.unique_id}`}
              type="button"
              role="listitem"
              className="gt-library-item"
              title={m.filename || m.caption || 'image'}
              onClick={() => {
                onChange({ kind: 'new', source: { chat_id: m.chat_id, unique_id: m.unique_id }, preview: m.thumbnail_url ?? null, label: m.filename || m.caption || 'Image from the media library' });
                setLibrary(false);
              }}
            >
              {m.thumbnail_url ? <img src={m.thumbnail_url} alt="" /> : <Icon name="file" size={20} />}
            </button>
          ))}
        </div>
      )}
    </div>
  );
}

function TemplateForm({ initial, submitLabel, onSubmit, onCancel }: { initial?: GroupTemplate; submitLabel: string; onSubmit: (input: Record<string, unknown>) => Promise<string | null>; onCancel?: () => void }) {
  const [name, setName] = useState(initial?.name ?? '');
  const [description, setDescription] = useState(initial?.description ?? '');
  const [picture, setPicture] = useState<PictureChoice>(initial?.picture ? { kind: 'keep', url: initial.picture.url } : { kind: 'none' });
  const [onlyAdminsSend, setOnlyAdminsSend] = useState(initial?.only_admins_send ?? false);
  const [onlyAdminsEdit, setOnlyAdminsEdit] = useState(initial?.only_admins_edit_info ?? false);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  async function submit(e: FormEvent) {
    e.preventDefault();
    const pic = picture.kind === 'new' ? picture.source : picture.kind === 'none' ? null : undefined;
    const input = { name, description, only_admins_send: onlyAdminsSend, only_admins_edit_info: onlyAdminsEdit, ...(pic !== undefined ? { picture: pic } : {}) };
    const parsed = GroupTemplateInput.safeParse(input);
    if (!parsed.success) return setError(parsed.error.issues.map((i) => `${FIELD_NAMES[String(i.path[0])] ?? i.path[0]} ${i.message}`).join('; '));
    setBusy(true);
    setError(null);
    const err = await onSubmit(input);
    setBusy(false);
    if (err) setError(err);
    else if (!initial) {
      setName('');
      setDescription('');
      setPicture({ kind: 'none' });
      setOnlyAdminsSend(false);
      setOnlyAdminsEdit(false);
    }
  }
  return (
    <form className="gt-form" onSubmit={(e) => void submit(e)} data-testid={initial ? 'gt-edit-form' : 'gt-add-form'}>
      <label className="field">
        <span>Group name</span>
        <input type="text" value={name} maxLength={MAX_GROUP_SUBJECT} placeholder="VIP customers" onChange={(e) => setName(e.target.value)} data-testid="gt-name" />
      </label>
      <label className="field">
        <span>Description</span>
        <textarea rows={3} value={description} maxLength={MAX_GROUP_DESCRIPTION} placeholder="What the group is for" onChange={(e) => setDescription(e.target.value)} data-testid="gt-description" />
      </label>
      <PicturePicker value={picture} onChange={setPicture} />
      <fieldset className="gt-settings">
        <legend className="gt-label">Admin-only settings</legend>
        <label className="gt-check">
          <input type="checkbox" checked={onlyAdminsSend} onChange={(e) => setOnlyAdminsSend(e.target.checked)} data-testid="gt-only-admins-send" /> Only admins can send messages
        </label>
        <label className="gt-check">
          <input type="checkbox" checked={onlyAdminsEdit} onChange={(e) => setOnlyAdminsEdit(e.target.checked)} data-testid="gt-only-admins-edit" /> Only admins can edit the group’s info
        </label>
      </fieldset>
      {error && (
        <p className="form-error" role="alert">
          {error}
        </p>
      )}
      <div className="gt-form-actions">
        {onCancel && (
          <button type="button" className="btn" onClick={onCancel}>
            Cancel
          </button>
        )}
        <button type="submit" className="btn btn-primary" disabled={busy || !name.trim()} data-testid="gt-save">
          {busy ? 'Saving…' : submitLabel}
        </button>
      </div>
    </form>
  );
}

/** "Create group": a WhatsApp Web number, the group's name and its participants (contacts), then the request followed until it settles. */
function CreateGroupDialog({ template, onClose }: { template: GroupTemplate; onClose: () => void }) {
  const { org } = useSession();
  const phones = useQuery({ queryKey: ['orgs', org.org_id, 'phones'], queryFn: () => api.phones(org.org_id) });
  const webPhones = (phones.data?.phones ?? []).filter((p) => p.connection_type === 'wa_web');
  const [phoneId, setPhoneId] = useState('');
  const [name, setName] = useState(template.name);
  const [search, setSearch] = useState('');
  const [term, setTerm] = useState('');
  const [chosen, setChosen] = useState<ContactView[]>([]);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [requestId, setRequestId] = useState<string | null>(null);
  useEffect(() => {
    const t = setTimeout(() => setTerm(search.trim()), 250);
    return () => clearTimeout(t);
  }, [search]);
  useEffect(() => {
    if (!phoneId && webPhones[0]) setPhoneId(webPhones[0].phone_id);
  }, [phoneId, webPhones]);
  const found = useQuery({ queryKey: ['orgs', org.org_id, 'contacts', 'list', { q: term, picker: 'group' }], queryFn: () => contactsApi.list(org.org_id, { q: term, limit: 8 } as never), enabled: term.length > 0 });
  const req = useQuery({
    queryKey: groupTemplateKeys.request(org.org_id, requestId ?? ''),
    queryFn: () => groupTemplatesApi.request(org.org_id, template.template_id, requestId!),
    enabled: !!requestId,
    refetchInterval: (q) => (q.state.data && (q.state.data.status === 'created' || q.state.data.status === 'failed') ? false : 1000),
  });
  const label = (c: ContactView) => c.display_name || c.phone || 'Contact';

  if (requestId) {
    const r = req.data;
    return (
      <Dialog title={`Create “${name}”`} onClose={onClose} testId="gt-create-dialog">
        <div className="dialog-body form-grid" data-testid="gt-create-status" data-status={r?.status ?? 'requested'}>
          {(!r || r.status === 'requested' || r.status === 'creating') && <p>Creating the group on WhatsApp…</p>}
          {r?.status === 'created' && (
            <>
              <p>The group was created with {r.participant_count} participant{r.participant_count === 1 ? '' : 's'}.</p>
              {r.detail && <p className="muted">{r.detail}</p>}
              <p>
                <Link to={`/chats/${encodeURIComponent(r.group_chat_id!)}`} data-testid="gt-open-chat">
                  Open the group chat
                </Link>
              </p>
            </>
          )}
          {r?.status === 'failed' && <p className="form-error" role="alert">{r.detail || 'WhatsApp did not create the group.'}</p>}
          {req.isError && <p className="form-error">{errorMessage(req.error)}</p>}
          <div className="gt-form-actions">
            <button type="button" className="btn" onClick={onClose}>
              Close
            </button>
          </div>
        </div>
      </Dialog>
    );
  }

  return (
    <Dialog title={`Create a group from “${template.name}”`} onClose={onClose} testId="gt-create-dialog">
      <div className="dialog-body form-grid">
        {phones.data && webPhones.length === 0 && <p className="muted">Groups are created on a number linked through WhatsApp Web. Link one on Settings → Phones first (Cloud API numbers cannot create groups).</p>}
        <label className="field">
          <span>Number</span>
          <select value={phoneId} onChange={(e) => setPhoneId(e.target.value)} data-testid="gt-phone">
            {webPhones.map((p) => (
              <option key={p.phone_id} value={p.phone_id}>
                +{p.org_phone} (WhatsApp Web)
              </option>
            ))}
          </select>
        </label>
        <label className="field">
          <span>Group name</span>
          <input type="text" value={name} maxLength={MAX_GROUP_SUBJECT} onChange={(e) => setName(e.target.value)} data-testid="gt-group-name" />
        </label>
        <div className="field">
          <span>Participants</span>
          {chosen.length > 0 && (
            <ul className="gt-chips" aria-label="Chosen participants">
              {chosen.map((c) => (
                <li key={c.contact_id} className="gt-chip" data-testid="gt-chosen">
                  {label(c)}
                  <button type="button" className="icon-btn" aria-label={`Remove ${label(c)}`} onClick={() => setChosen((l) => l.filter((x) => x.contact_id !== c.contact_id))}>
                    <Icon name="close" size={14} />
                  </button>
                </li>
              ))}
            </ul>
          )}
          <input type="search" value={search} placeholder="Search contacts by name or number" onChange={(e) => setSearch(e.target.value)} data-testid="gt-participant-search" aria-label="Search contacts" />
          {term && search.trim() && (
            <ul className="gt-results" role="listbox" aria-label="Contacts found">
              {found.isPending && <li className="muted small">Searching…</li>}
              {found.data?.contacts.length === 0 && <li className="muted small">No contact matches.</li>}
              {found.data?.contacts
                .filter((c) => !chosen.some((x) => x.contact_id === c.contact_id))
                .map((c) => (
                  <li key={c.contact_id}>
                    <button
                      type="button"
                      role="option"
                      aria-selected={false}
                      className="gt-result"
                      data-testid="gt-result"
                      onClick={() => {
                        setChosen((l) => [...l, c]);
                        setSearch('');
                      }}
                    >
                      <span>{label(c)}</span>
                      {c.phone && c.display_name && <span className="muted small">{c.phone}</span>}
                    </button>
                  </li>
                ))}
            </ul>
          )}
        </div>
        <p className="muted small">
          The group gets the template’s description{template.picture ? ', picture' : ''}
          {template.only_admins_send || template.only_admins_edit_info ? ' and admin-only settings' : ''}. This number becomes its admin.
        </p>
        <DialogFooter
          error={error}
          onCancel={onClose}
          onSubmit={() => {
            setBusy(true);
            setError(null);
            groupTemplatesApi
              .createGroup(org.org_id, template.template_id, { phone_id: phoneId, name: name.trim() || undefined, contact_ids: chosen.map((c) => c.contact_id) })
              .then((r) => setRequestId(r.request_id))
              .catch((e: unknown) => setError(problem(e)))
              .finally(() => setBusy(false));
          }}
          submitLabel="Create group"
          busyLabel="Asking WhatsApp…"
          busy={busy}
          disabled={busy || !phoneId || chosen.length === 0 || !name.trim()}
          submitTestId="gt-create-confirm"
        />
      </div>
    </Dialog>
  );
}

export function GroupTemplatesPage() {
  const { org } = useSession();
  const toast = useToast();
  const qc = useQueryClient();
  const key = groupTemplateKeys.all(org.org_id);
  const q = useQuery({ queryKey: key, queryFn: () => groupTemplatesApi.list(org.org_id) });
  const [editing, setEditing] = useState<string | null>(null);
  const [deleting, setDeleting] = useState<GroupTemplate | null>(null);
  const [creating, setCreating] = useState<GroupTemplate | null>(null);
  const reload = () => void qc.invalidateQueries({ queryKey: key });

  return (
    <div className="page" data-testid="group-templates-page">
      <header className="page-header">
        <MenuButton />
        <SettingsTitle title="Group Templates" />
      </header>
      <div className="page-body gt-body">
        <p className="muted">Save how a WhatsApp group should start — its name, description, picture and who may post or edit it — then create groups from it on a number linked through WhatsApp Web.</p>
        <section className="settings-section" aria-labelledby="gt-add">
          <h2 id="gt-add">Add a group template</h2>
          <TemplateForm
            submitLabel="Add template"
            onSubmit={formSubmit(async (input) => {
              await groupTemplatesApi.create(org.org_id, input as never);
              reload();
              toast.show('Group template added', 'success');
            }, problem)}
          />
        </section>
        <SettingsList
          title="Group templates"
          headingId="gt-list"
          what="group templates"
          empty="No group templates yet. Add the first one above."
          query={q}
          onRetry={reload}
          listClassName="gt-list"
          idOf={(t) => t.template_id}
          editingId={editing}
          renderEdit={(t) => (
            <TemplateForm
              initial={t}
              submitLabel="Save"
              onCancel={() => setEditing(null)}
              onSubmit={formSubmit(async (input) => {
                await groupTemplatesApi.update(org.org_id, t.template_id, input as never);
                setEditing(null);
                reload();
              }, problem)}
            />
          )}
          renderRow={(t) => (
            <li key={t.template_id} className="gt-row" data-testid="gt-row" data-name={t.name}>
              <span className="gt-avatar" aria-hidden="true">{t.picture?.url ? <img src={absoluteUrl(t.picture.url)} alt="" /> : <Icon name="contacts" size={20} />}</span>
              <span className="gt-row-main">
                <span className="gt-row-name">{t.name}</span>
                {t.description && <span className="gt-row-text">{t.description}</span>}
                <span className="gt-row-chips">
                  {t.only_admins_send && <span className="gt-row-chip">Only admins send</span>}
                  {t.only_admins_edit_info && <span className="gt-row-chip">Only admins edit info</span>}
                </span>
              </span>
              <span className="gt-row-actions">
                <button type="button" className="btn btn-primary" onClick={() => setCreating(t)} data-testid="gt-create-group">
                  Create group
                </button>
                <button type="button" className="btn btn-ghost" onClick={() => setEditing(t.template_id)} aria-label={`Edit ${t.name}`}>
                  Edit
                </button>
                <button type="button" className="icon-btn" onClick={() => setDeleting(t)} aria-label={`Delete ${t.name}`} title="Delete group template">
                  <Icon name="trash" size={18} />
                </button>
              </span>
            </li>
          )}
        />
      </div>
      {creating && <CreateGroupDialog template={creating} onClose={() => setCreating(null)} />}
      {deleting && (
        <ConfirmDeleteDialog
          title={`Delete “${deleting.name}”?`}
          onClose={() => setDeleting(null)}
          onConfirm={() => groupTemplatesApi.remove(org.org_id, deleting.template_id)}
          onDone={() => {
            setDeleting(null);
            reload();
          }}
          submitLabel="Delete template"
          testId="gt-delete-dialog"
          submitTestId="gt-delete-confirm"
        >
          <p>The template is removed. Groups already created from it stay as they are on WhatsApp and in the inbox.</p>
        </ConfirmDeleteDialog>
      )}
    </div>
  );
}
