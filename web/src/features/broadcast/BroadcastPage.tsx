/**
 * /broadcast (issue 16 part B; spec §2 bulk messages, §6 member_permissions.bulk_message — the route
 * is wrapped in PageGate, so a member without it sees the Restricted page; §9 credits).
 * The list of broadcasts with status and progress and the month's credits; a create flow
 * (audience -> content -> preview -> when); a detail view with live stats (polled every 2 s while it
 * runs), pause / resume / cancel, the per-recipient log with filters and its CSV export.
 * Desktop only like the other management pages (app/shell/nav.ts MOBILE_UNAVAILABLE); the layout
 * still folds to one column on narrow windows.
 */
import { Suspense, useMemo, useState } from 'react';
import { Link, useSearchParams } from 'react-router-dom';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import Papa from 'papaparse';
import { api, errorMessage, fieldErrors } from '../../lib/api.ts';
import { chatDisplayName, chatNumber } from '../../lib/format.ts';
import { useSession } from '../../app/session.tsx';
import { useToast } from '../../app/toast.tsx';
import { MenuButton } from '../../app/shell/MenuButton.tsx';
import { Tabs } from '../../components/ui/Tabs.tsx';
import { templateKeys, templatesApi, TemplateFormLazy } from '../templates/index.ts';
import type { TemplateValues, TemplateView } from '#shared/template/template.schemas.ts';
import { propertiesApi, propertyKeys } from '../contacts/index.ts';
import { checkFile, fileSize, UploadCancelled } from '../chats/index.ts';
import { MEDIA_LIMITS, OUTBOUND_ACCEPT } from '#shared/media/media.rules.ts';
import { broadcastKeys, broadcastsApi, type AudienceInput, type ContentInput, type Broadcast, type BroadcastPreview, type RecipientFilter } from './api.ts';
import { PLANS_PATH, pauseReasonText } from './pause-reason.ts';
import './broadcast.css';

const STATUS_LABEL: Record<Broadcast['status'], string> = { scheduled: 'Scheduled', running: 'Sending', paused: 'Paused', completed: 'Completed', cancelled: 'Cancelled' };
const SKIP_LABEL: Record<string, string> = { opt_out: 'Opted out', no_template: 'Needs a template (24-hour window closed)', no_chat: 'No chat with this number', duplicate: 'Listed twice' };
const fmt = (ms: number | null) => (ms ? new Date(ms).toLocaleString(undefined, { day: '2-digit', month: 'short', year: '2-digit', hour: '2-digit', minute: '2-digit' }) : '—');

export function BroadcastPage() {
  const { org } = useSession();
  // ?broadcast=<id> (the /logs Broadcasts tab links here) opens that broadcast's detail
  const [params] = useSearchParams();
  const linked = params.get('broadcast');
  const [view, setView] = useState<{ kind: 'list' } | { kind: 'new' } | { kind: 'detail'; id: string }>(linked ? { kind: 'detail', id: linked } : { kind: 'list' });
  return (
    <div className="page broadcast-page" data-testid="broadcast-page">
      <header className="page-header">
        <MenuButton />
        <h1>Broadcast</h1>
        {view.kind !== 'new' && (
          <button type="button" className="btn btn-primary broadcast-new" data-testid="broadcast-new" onClick={() => setView({ kind: 'new' })}>
            New broadcast
          </button>
        )}
      </header>
      <div className="page-body">
        <Credits orgId={org.org_id} />
        {view.kind === 'list' && <BroadcastList orgId={org.org_id} onOpen={(id) => setView({ kind: 'detail', id })} />}
        {view.kind === 'new' && <CreateBroadcast orgId={org.org_id} onDone={(id) => setView(id ? { kind: 'detail', id } : { kind: 'list' })} />}
        {view.kind === 'detail' && <BroadcastDetail orgId={org.org_id} id={view.id} onBack={() => setView({ kind: 'list' })} />}
      </div>
    </div>
  );
}

function Credits({ orgId }: { orgId: string }) {
  const q = useQuery({ queryKey: broadcastKeys.credits(orgId), queryFn: () => broadcastsApi.credits(orgId), refetchInterval: 10_000 });
  if (!q.data) return null;
  const pct = q.data.limit ? Math.min(100, (q.data.used / q.data.limit) * 100) : 100;
  return (
    <section className="broadcast-credits" data-testid="broadcast-credits" aria-label="Bulk message credits">
      <div>
        <strong>{q.data.used.toLocaleString()}</strong> of {q.data.limit.toLocaleString()} credits used this month ({q.data.remaining.toLocaleString()} left)
      </div>
      <div className="broadcast-bar" role="progressbar" aria-valuemin={0} aria-valuemax={q.data.limit} aria-valuenow={q.data.used}>
        <span style={{ width: `${pct}%` }} />
      </div>
      <small>
        {q.data.per_licence.toLocaleString()} per licence × {q.data.licences} licence{q.data.licences === 1 ? '' : 's'}; one credit per recipient sent.
      </small>
    </section>
  );
}

function Progress({ b }: { b: Broadcast }) {
  const done = b.stats.sent + b.stats.failed + b.stats.skipped;
  const pct = b.stats.total ? (done / b.stats.total) * 100 : 0;
  return (
    <div className="broadcast-progress">
      <div className="broadcast-bar" role="progressbar" aria-label={`${b.name} progress`} aria-valuemin={0} aria-valuemax={b.stats.total} aria-valuenow={done}>
        <span style={{ width: `${pct}%` }} />
      </div>
      <small>
        {done} / {b.stats.total}
      </small>
    </div>
  );
}

function BroadcastList({ orgId, onOpen }: { orgId: string; onOpen: (id: string) => void }) {
  const q = useQuery({
    queryKey: broadcastKeys.list(orgId),
    queryFn: () => broadcastsApi.list(orgId),
    refetchInterval: (query) => (query.state.data?.broadcasts.some((b) => b.status === 'running' || b.status === 'scheduled') ? 3000 : false),
  });
  if (q.isLoading) return <p className="muted">Loading broadcasts…</p>;
  if (q.error) return <p role="alert">{errorMessage(q.error)}</p>;
  const rows = q.data?.broadcasts ?? [];
  if (!rows.length) return <p className="muted broadcast-empty">No broadcasts yet. Use “New broadcast” to message many customers at a steady pace.</p>;
  return (
    <ul className="broadcast-list" data-testid="broadcast-list">
      {rows.map((b) => (
        <li key={b.broadcast_id}>
          <button type="button" className="broadcast-row" onClick={() => onOpen(b.broadcast_id)} data-testid="broadcast-row">
            <span className="broadcast-name">{b.name}</span>
            <span className={`broadcast-status status-${b.status}`}>{STATUS_LABEL[b.status]}</span>
            <Progress b={b} />
            <span className="muted">{fmt(b.send_at ?? b.created_at)}</span>
          </button>
        </li>
      ))}
    </ul>
  );
}

// ---- create ----------------------------------------------------------------------------------

function ChatPicker({ orgId, picked, onChange }: { orgId: string; picked: Set<string>; onChange: (s: Set<string>) => void }) {
  const [search, setSearch] = useState('');
  const q = useQuery({ queryKey: ['orgs', orgId, 'broadcasts', 'pick-chats'], queryFn: () => api.listChats(orgId, null, 200) });
  const chats = (q.data?.items ?? []).filter((c) => !search || `${chatDisplayName(c)} ${chatNumber(c.chat_id)}`.toLowerCase().includes(search.toLowerCase()));
  return (
    <div className="broadcast-picker">
      <input type="search" placeholder="Search chats" aria-label="Search chats" value={search} onChange={(e) => setSearch(e.target.value)} />
      <small className="muted">{picked.size} picked</small>
      <ul>
        {chats.map((c) => (
          <li key={c.chat_id}>
            <label>
              <input
                type="checkbox"
                checked={picked.has(c.chat_id)}
                onChange={(e) => {
                  const next = new Set(picked);
                  if (e.target.checked) next.add(c.chat_id);
                  else next.delete(c.chat_id);
                  onChange(next);
                }}
              />
              <span>{chatDisplayName(c)}</span>
            </label>
          </li>
        ))}
      </ul>
    </div>
  );
}

/** The org's labels as a select ("Any" = no label filter); shared by the chat-filter and contact-filter audiences. */
function LabelSelect({ orgId, value, onChange }: { orgId: string; value: string | undefined; onChange: (labelId: string) => void }) {
  const labels = useQuery({ queryKey: ['orgs', orgId, 'broadcasts', 'labels'], queryFn: () => api.chatLabels(orgId) });
  return (
    <label>
      Label
      <select value={value ?? ''} onChange={(e) => onChange(e.target.value)}>
        <option value="">Any</option>
        {(labels.data ?? []).map((l) => (
          <option key={l.label_id} value={l.label_id}>
            {l.name}
          </option>
        ))}
      </select>
    </label>
  );
}

function FilterPicker({ orgId, filter, onChange }: { orgId: string; filter: Extract<AudienceInput, { kind: 'filter' }>['filter']; onChange: (f: Extract<AudienceInput, { kind: 'filter' }>['filter']) => void }) {
  const set = (k: string, v: string) => onChange({ ...filter, [k]: v || undefined });
  return (
    <div className="broadcast-filter">
      <label>
        Folder
        <select value={filter.state ?? 'open'} onChange={(e) => set('state', e.target.value)}>
          <option value="open">Open</option>
          <option value="closed">Closed</option>
          <option value="snoozed">Snoozed</option>
          <option value="archived">Archived</option>
        </select>
      </label>
      <LabelSelect orgId={orgId} value={filter.label_id} onChange={(v) => set('label_id', v)} />
      <label>
        Assignee
        <select value={filter.assignee ?? ''} onChange={(e) => set('assignee', e.target.value)}>
          <option value="">Anyone</option>
          <option value="me">Me</option>
          <option value="none">Unassigned</option>
        </select>
      </label>
      <label>
        Type
        <select value={filter.type ?? ''} onChange={(e) => set('type', e.target.value)}>
          <option value="">Chats and groups</option>
          <option value="user">Chats</option>
          <option value="group">Groups</option>
        </select>
      </label>
    </div>
  );
}

type ContactAudience = Extract<AudienceInput, { kind: 'contacts' }>;

/** Contacts filtered like /contacts (words, label, property value, last seen) and the number to send from. */
function ContactFilterPicker({ orgId, value, onChange }: { orgId: string; value: ContactAudience; onChange: (a: ContactAudience) => void }) {
  const props = useQuery({ queryKey: propertyKeys.all(orgId), queryFn: () => propertiesApi.list(orgId) });
  const phones = useQuery({ queryKey: ['orgs', orgId, 'broadcasts', 'phones'], queryFn: () => api.phones(orgId) });
  const f = value.filter;
  const set = (k: keyof ContactAudience['filter'], v: string | number | undefined) => onChange({ ...value, filter: { ...f, [k]: v === '' ? undefined : v } });
  const days = f.seen_from ? String(Math.round((Date.now() - f.seen_from) / 86_400_000)) : '';
  return (
    <div className="broadcast-filter" data-testid="audience-contacts-panel">
      <label>
        Name or words
        <input value={f.q ?? ''} onChange={(e) => set('q', e.target.value)} placeholder="Any" maxLength={100} data-testid="contacts-q" />
      </label>
      <LabelSelect orgId={orgId} value={f.label_id} onChange={(v) => set('label_id', v)} />
      <label>
        Property
        <select value={f.property_id ?? ''} onChange={(e) => onChange({ ...value, filter: { ...f, property_id: e.target.value || undefined, property_value: e.target.value ? f.property_value : undefined } })}>
          <option value="">Any</option>
          {(props.data ?? []).map((p) => (
            <option key={p.property_id} value={p.property_id}>
              {p.property_name}
            </option>
          ))}
        </select>
      </label>
      {f.property_id && (
        <label>
          Value
          <input value={f.property_value ?? ''} onChange={(e) => set('property_value', e.target.value)} placeholder="Any value" maxLength={200} />
        </label>
      )}
      <label>
        Seen in the last … days
        <input type="number" min={1} max={3650} value={days} onChange={(e) => set('seen_from', e.target.value ? Date.now() - Number(e.target.value) * 86_400_000 : undefined)} placeholder="Any time" />
      </label>
      <label>
        Send from
        <select value={value.phone_id ?? ''} onChange={(e) => onChange({ ...value, phone_id: e.target.value || undefined })}>
          <option value="">Each contact’s chat, any number</option>
          {(phones.data?.phones ?? []).map((p) => (
            <option key={p.phone_id} value={p.phone_id}>
              +{p.org_phone}
            </option>
          ))}
        </select>
      </label>
      <small className="muted">Contacts without a chat (on that number) are skipped and counted.</small>
    </div>
  );
}

/** Parse a CSV with a `phone` column; every other column is a variable ({{column}}). */
function parseCsv(text: string): { rows: Array<{ phone: string; vars: Record<string, string> }>; error: string | null } {
  const out = Papa.parse<Record<string, string>>(text, { header: true, skipEmptyLines: true, transformHeader: (h) => h.trim() });
  const fields = out.meta.fields ?? [];
  const phoneCol = fields.find((f) => /^(phone|number|mobile)$/i.test(f));
  if (!phoneCol) return { rows: [], error: 'The CSV needs a “phone” column (the number with its country code).' };
  const vars = fields.filter((f) => f !== phoneCol && /^[A-Za-z_][A-Za-z0-9_]{0,31}$/.test(f));
  return { rows: out.data.map((r) => ({ phone: String(r[phoneCol] ?? ''), vars: Object.fromEntries(vars.map((v) => [v, String(r[v] ?? '')])) })), error: null };
}

/** The broadcast's file: one of the media library, or one uploaded from the computer (its name and size shown). */
type PickedFile = { kind: 'library'; chat_id: string; unique_id: string; label: string } | { kind: 'upload'; upload_id: string; label: string; size: number };

/** `content.media` of a picked file. */
const mediaOf = (f: PickedFile): NonNullable<ContentInput['media']> => (f.kind === 'upload' ? { upload_id: f.upload_id } : { chat_id: f.chat_id, unique_id: f.unique_id });

/**
 * The broadcast's file (sent with the text as its caption): a file of the media library (GET /media,
 * newest 24 images, videos and documents) or one uploaded from the computer (checked here with the
 * composer's rules, then POST /broadcasts/uploads and the PUT with progress; cancel and remove).
 */
function BroadcastFilePicker({ orgId, value, onChange, onBusy }: { orgId: string; value: PickedFile | null; onChange: (f: PickedFile | null) => void; /** true while a file is uploading (sending waits for it) */ onBusy: (busy: boolean) => void }) {
  const [open, setOpen] = useState(false);
  const [progress, setProgressState] = useState<{ name: string; size: number; fraction: number; abort: AbortController } | null>(null);
  const setProgress = (next: Parameters<typeof setProgressState>[0]) => {
    setProgressState(next);
    if (typeof next !== 'function') onBusy(next != null);
  };
  const [uploadError, setUploadError] = useState<string | null>(null);
  const q = useQuery({ queryKey: ['orgs', orgId, 'media', 'broadcast-picker'], queryFn: () => api.listMedia(orgId, { limit: 24 }), enabled: open, staleTime: 30_000 });
  const uploadM = useMutation({
    mutationFn: ({ file, abort }: { file: File; abort: AbortController }) => broadcastsApi.upload(orgId, file, (fraction) => setProgress((p) => (p ? { ...p, fraction } : p)), abort.signal),
    onSuccess: (up) => (setProgress(null), onChange({ kind: 'upload', upload_id: up.upload_id, label: up.filename, size: up.size })),
    onError: (e, { file }) => {
      setProgress(null);
      if (e instanceof UploadCancelled) return;
      const reason = fieldErrors(e)[0]?.reason;
      setUploadError(reason ? `${file.name} ${reason}.` : errorMessage(e));
    },
  });
  const pick = (file: File | undefined) => {
    if (!file) return;
    setUploadError(null);
    const checked = checkFile(file);
    if ('error' in checked) return setUploadError(checked.error);
    const abort = new AbortController();
    setProgress({ name: file.name, size: file.size, fraction: 0, abort });
    uploadM.mutate({ file, abort });
  };
  if (value)
    return (
      <div className="broadcast-file" data-testid="broadcast-file">
        <span>
          File: {value.label}
          {value.kind === 'upload' && <span className="muted"> ({fileSize(value.size)}, from your computer)</span>}
        </span>
        <button type="button" className="btn btn-ghost" onClick={() => onChange(null)}>
          Remove file
        </button>
      </div>
    );
  if (progress)
    return (
      <div className="broadcast-file broadcast-upload" data-testid="broadcast-upload-progress">
        <span>
          Uploading {progress.name} <span className="muted">({fileSize(progress.size)})</span>
        </span>
        <progress max={1} value={progress.fraction} aria-label={`Uploading ${progress.name}`} />
        <button type="button" className="btn btn-ghost" onClick={() => progress.abort.abort()}>
          Cancel upload
        </button>
      </div>
    );
  const items = (q.data?.items ?? []).filter((m) => ['image', 'video', 'document'].includes(m.message_type));
  return (
    <div className="broadcast-file">
      <div className="broadcast-file-actions">
        <button type="button" className="btn" onClick={() => setOpen((o) => !o)} aria-expanded={open} data-testid="broadcast-file-open">
          {open ? 'Close the media library' : 'Attach a file from the media library'}
        </button>
        <label className="btn broadcast-upload-button">
          Upload from computer
          <input type="file" accept={OUTBOUND_ACCEPT} className="visually-hidden" data-testid="broadcast-upload-input" onChange={(e) => (pick(e.target.files?.[0]), (e.target.value = ''))} />
        </label>
      </div>
      <small className="muted">
        Images (JPEG, PNG, up to {MEDIA_LIMITS.image.label}), video (MP4, 3GP, up to {MEDIA_LIMITS.video.label}), audio (up to {MEDIA_LIMITS.audio.label}) or documents such as PDF (up to {MEDIA_LIMITS.document.label}).
      </small>
      {uploadError && (
        <p role="alert" className="field-error" data-testid="broadcast-upload-error">
          {uploadError}
        </p>
      )}
      {open && (
        <div className="broadcast-file-grid" role="list" aria-label="Recent files">
          {q.isPending && <p className="muted">Loading files…</p>}
          {q.isError && <p className="muted">Files could not be loaded: {errorMessage(q.error)}</p>}
          {q.data && items.length === 0 && <p className="muted">The media library has no images, videos or documents yet.</p>}
          {items.map((m) => (
            <button
              key={`${m.chat_id}|${m.unique_id}`}
              type="button"
              role="listitem"
              className="broadcast-file-item"
              title={m.filename || m.caption || m.message_type}
              onClick={() => (onChange({ kind: 'library', chat_id: m.chat_id, unique_id: m.unique_id, label: m.filename || m.caption || m.message_type }), setOpen(false))}
            >
              {m.thumbnail_url ? <img src={m.thumbnail_url} alt="" /> : <span aria-hidden="true">{m.message_type}</span>}
              <span>{m.filename || m.caption || m.message_type}</span>
            </button>
          ))}
        </div>
      )}
    </div>
  );
}

function CreateBroadcast({ orgId, onDone }: { orgId: string; onDone: (id: string | null) => void }) {
  const qc = useQueryClient();
  const toast = useToast();
  const [name, setName] = useState('');
  const [kind, setKind] = useState<'chats' | 'filter' | 'csv' | 'contacts'>('chats');
  const [contactAudience, setContactAudience] = useState<ContactAudience>({ kind: 'contacts', filter: {} });
  const [picked, setPicked] = useState<Set<string>>(new Set());
  const [filter, setFilter] = useState<Extract<AudienceInput, { kind: 'filter' }>['filter']>({ state: 'open' });
  const [csv, setCsv] = useState<{ rows: Array<{ phone: string; vars: Record<string, string> }>; file: string } | null>(null);
  const [csvError, setCsvError] = useState<string | null>(null);
  const [body, setBody] = useState('');
  // text | template to everyone | text with the template for Cloud API recipients outside the 24-hour window
  const [mode, setMode] = useState<'text' | 'template' | 'both'>('text');
  const [file, setFile] = useState<PickedFile | null>(null);
  const [uploading, setUploading] = useState(false);
  const [tpl, setTpl] = useState<{ t: TemplateView | null; values: TemplateValues }>({ t: null, values: {} });
  const templates = useQuery({ queryKey: templateKeys.list(orgId, null, 'APPROVED'), queryFn: () => templatesApi.list(orgId, null, 'APPROVED'), enabled: mode !== 'text' });
  const [paceS, setPaceS] = useState('1');
  const [quiet, setQuiet] = useState<{ on: boolean; start: string; end: string }>({ on: false, start: '21:00', end: '08:00' });
  const [keyword, setKeyword] = useState('STOP');
  const [when, setWhen] = useState<'now' | 'later'>('now');
  const [sendAt, setSendAt] = useState('');
  const [preview, setPreview] = useState<BroadcastPreview | null>(null);
  const [errors, setErrors] = useState<Array<{ field: string; reason: string }>>([]);
  const [error, setError] = useState<string | null>(null);

  const audience: AudienceInput = useMemo(
    () => (kind === 'chats' ? { kind, chat_ids: [...picked] } : kind === 'filter' ? { kind, filter } : kind === 'contacts' ? contactAudience : { kind, rows: csv?.rows ?? [] }),
    [kind, picked, filter, csv, contactAudience],
  );
  const content: ContentInput = {
    ...(mode !== 'template' ? { body } : {}),
    ...(mode !== 'template' && file ? { media: mediaOf(file) } : {}),
    ...(mode !== 'text' && tpl.t ? { template: { name: tpl.t.name, language: tpl.t.language, values: tpl.values } } : {}),
  };
  const contentReady = (mode === 'template' || body.trim() !== '' || file != null) && (mode === 'text' || tpl.t != null);
  const options = { pace_ms: Math.round(Number(paceS) * 1000), quiet_hours: quiet.on ? { start: quiet.start, end: quiet.end } : null, opt_out_keyword: keyword };
  const fail = (e: unknown) => {
    setError(errorMessage(e));
    setErrors(fieldErrors(e));
  };
  const previewM = useMutation({ mutationFn: () => broadcastsApi.preview(orgId, { audience, content, options }), onSuccess: (p) => (setPreview(p), setError(null), setErrors([])), onError: fail });
  const createM = useMutation({
    mutationFn: () => broadcastsApi.create(orgId, { name, audience, content, options, send_at: when === 'later' && sendAt ? new Date(sendAt).getTime() : null }),
    onSuccess: (b) => {
      toast.show(b.status === 'scheduled' ? 'Broadcast scheduled' : 'Broadcast started', 'success');
      void qc.invalidateQueries({ queryKey: broadcastKeys.all(orgId) });
      onDone(b.broadcast_id);
    },
    onError: fail,
  });
  const fieldError = (prefix: string) => errors.filter((e) => e.field.startsWith(prefix)).map((e) => e.reason).join('; ');

  return (
    <section className="broadcast-create" data-testid="broadcast-create" aria-label="New broadcast">
      <div className="broadcast-step">
        <h2>1. Audience</h2>
        <Tabs
          label="Audience"
          value={kind}
          onChange={(v) => (setKind(v as typeof kind), setPreview(null))}
          items={[
            { value: 'chats', label: 'Pick chats', testId: 'audience-chats', panel: <ChatPicker orgId={orgId} picked={picked} onChange={(s) => (setPicked(s), setPreview(null))} /> },
            { value: 'filter', label: 'Chat filter', testId: 'audience-filter', panel: <FilterPicker orgId={orgId} filter={filter} onChange={(f) => (setFilter(f), setPreview(null))} /> },
            { value: 'contacts', label: 'Contacts', testId: 'audience-contacts', panel: <ContactFilterPicker orgId={orgId} value={contactAudience} onChange={(a) => (setContactAudience(a), setPreview(null))} /> },
            {
              value: 'csv',
              label: 'CSV',
              testId: 'audience-csv',
              panel: (
                <div className="broadcast-csv">
                  <p className="muted">A “phone” column with country code; every other column is a variable, e.g. {'{{order}}'}.</p>
                  <input
                    type="file"
                    accept=".csv,text/csv"
                    aria-label="CSV file"
                    onChange={(e) => {
                      const f = e.target.files?.[0];
                      if (!f) return;
                      void f.text().then((t) => {
                        const r = parseCsv(t);
                        setCsvError(r.error);
                        setCsv(r.error ? null : { rows: r.rows, file: f.name });
                        setPreview(null);
                      });
                    }}
                  />
                  {csv && <small>{csv.rows.length} rows from {csv.file}</small>}
                  {csvError && <p role="alert">{csvError}</p>}
                </div>
              ),
            },
          ]}
        />
        {fieldError('audience') && <p className="field-error">{fieldError('audience')}</p>}
      </div>
      <div className="broadcast-step">
        <h2>2. Content</h2>
        <label className="broadcast-field">
          Name
          <input value={name} onChange={(e) => setName(e.target.value)} placeholder="e.g. November sale" data-testid="broadcast-name" maxLength={100} />
          {fieldError('name') && <span className="field-error">{fieldError('name')}</span>}
        </label>
        <fieldset className="broadcast-mode" data-testid="broadcast-content-mode">
          <legend>Send</legend>
          {(
            [
              ['text', 'Text'],
              ['both', 'Text, and a template to Cloud API chats whose 24-hour window is closed'],
              ['template', 'A template to everyone (Cloud API numbers only)'],
            ] as const
          ).map(([v, label]) => (
            <label key={v} className="broadcast-check">
              <input type="radio" name="content-mode" value={v} checked={mode === v} onChange={() => (setMode(v), setPreview(null))} data-testid={`content-mode-${v}`} /> {label}
            </label>
          ))}
        </fieldset>
        {mode !== 'template' && (
        <label className="broadcast-field">
          Message
          <textarea value={body} onChange={(e) => (setBody(e.target.value), setPreview(null))} rows={4} data-testid="broadcast-body" placeholder="Hi {{name}}, *bold*, _italic_, ~strike~" maxLength={4096} />
          <small className="muted">WhatsApp formatting works. {'{{name}}'} and {'{{phone}}'} are filled per recipient, and CSV columns by their names.</small>
          {fieldError('content.body') && <span className="field-error">{fieldError('content.body')}</span>}
        </label>
        )}
        {mode !== 'template' && (
          <>
            <BroadcastFilePicker orgId={orgId} value={file} onChange={(f) => (setFile(f), setPreview(null))} onBusy={setUploading} />
            {fieldError('content.media') && <span className="field-error">{fieldError('content.media')}</span>}
          </>
        )}
        {mode !== 'text' && (
          <div className="broadcast-template" data-testid="broadcast-template">
            <p className="muted">Variables may use {'{{name}}'}, {'{{phone}}'} and CSV columns; they are filled per recipient. The template must be synced on each number it is sent from.</p>
            {templates.isPending ? (
              <p className="muted">Loading templates…</p>
            ) : templates.isError ? (
              <p role="alert">{errorMessage(templates.error)}</p>
            ) : (
              <Suspense fallback={<p className="muted">Loading…</p>}>
                <TemplateFormLazy templates={templates.data.templates} idPrefix="bc-tpl" onChange={(t, values) => (setTpl({ t, values }), setPreview(null))} />
              </Suspense>
            )}
            {fieldError('content.template') && <span className="field-error">{fieldError('content.template')}</span>}
          </div>
        )}
        <details className="broadcast-options">
          <summary>Sending options</summary>
          <label className="broadcast-field">
            Seconds between recipients on a number
            <input type="number" min={0.01} max={60} step={0.01} value={paceS} onChange={(e) => setPaceS(e.target.value)} />
            <small className="muted">WhatsApp Web numbers always wait at least 3 s, with a little random jitter.</small>
          </label>
          <label className="broadcast-check">
            <input type="checkbox" checked={quiet.on} onChange={(e) => setQuiet({ ...quiet, on: e.target.checked })} /> Quiet hours (the organization’s time zone)
          </label>
          {quiet.on && (
            <div className="broadcast-inline">
              <input type="time" aria-label="Quiet hours start" value={quiet.start} onChange={(e) => setQuiet({ ...quiet, start: e.target.value })} />
              <span>to</span>
              <input type="time" aria-label="Quiet hours end" value={quiet.end} onChange={(e) => setQuiet({ ...quiet, end: e.target.value })} />
            </div>
          )}
          <label className="broadcast-field">
            Opt-out keyword
            <input value={keyword} onChange={(e) => setKeyword(e.target.value)} maxLength={30} />
            <small className="muted">Customers whose last message is this word, or who carry the “Opted out” label, are skipped.</small>
          </label>
        </details>
      </div>
      <div className="broadcast-step">
        <h2>3. Preview</h2>
        <button type="button" className="btn" onClick={() => previewM.mutate()} disabled={previewM.isPending || uploading} data-testid="broadcast-preview">
          {previewM.isPending ? 'Checking…' : 'Preview recipients'}
        </button>
        {preview && <PreviewTable p={preview} />}
      </div>
      <div className="broadcast-step">
        <h2>4. When</h2>
        <div className="broadcast-inline">
          <label className="broadcast-check">
            <input type="radio" name="when" checked={when === 'now'} onChange={() => setWhen('now')} /> Now
          </label>
          <label className="broadcast-check">
            <input type="radio" name="when" checked={when === 'later'} onChange={() => setWhen('later')} /> Later
          </label>
          {when === 'later' && <input type="datetime-local" aria-label="Send at" value={sendAt} onChange={(e) => setSendAt(e.target.value)} />}
        </div>
      </div>
      {error && (
        <p role="alert" className="broadcast-error" data-testid="broadcast-error">
          {error}
        </p>
      )}
      <div className="broadcast-actions">
        <button type="button" className="btn" onClick={() => onDone(null)}>
          Cancel
        </button>
        <button type="button" className="btn btn-primary" onClick={() => createM.mutate()} disabled={createM.isPending || uploading || !contentReady || !name.trim()} data-testid="broadcast-send">
          {when === 'later' ? 'Schedule broadcast' : 'Send broadcast'}
        </button>
      </div>
    </section>
  );
}

function PreviewTable({ p }: { p: BroadcastPreview }) {
  return (
    <div className="broadcast-preview" data-testid="broadcast-preview-result">
      <p>
        <strong>{p.to_send}</strong> of {p.total} will get it. {p.skipped_opt_out > 0 && <>{p.skipped_opt_out} opted out. </>}
        {p.needs_template > 0 && p.via_template === 0 && <>{p.needs_template} need a template (their 24-hour window is closed) and will be skipped. </>}
        {p.via_template > 0 && <>{p.via_template} get the template. </>}
        {p.skipped_other > 0 && <>{p.skipped_other} skipped (no chat or listed twice). </>}
        Uses {p.to_send} of {p.credits.remaining.toLocaleString()} credits left this month.
      </p>
      <div className="broadcast-table-wrap">
        <table className="broadcast-table">
          <thead>
            <tr>
              <th>Recipient</th>
              <th>Message</th>
            </tr>
          </thead>
          <tbody>
            {p.rows.slice(0, 50).map((r, i) => (
              <tr key={`${r.chat_id ?? r.phone}-${i}`}>
                <td>{r.name || r.phone || r.chat_id}</td>
                <td className={r.skip_reason ? 'muted' : ''}>
                  {r.skip_reason ? (
                    `Skipped: ${SKIP_LABEL[r.skip_reason] ?? r.skip_reason}`
                  ) : (
                    <>
                      {r.via === 'template' && <span className="broadcast-via">Template</span>} {r.text}
                    </>
                  )}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </div>
  );
}

// ---- detail ----------------------------------------------------------------------------------

function BroadcastDetail({ orgId, id, onBack }: { orgId: string; id: string; onBack: () => void }) {
  const qc = useQueryClient();
  const toast = useToast();
  const q = useQuery({
    queryKey: broadcastKeys.one(orgId, id),
    queryFn: () => broadcastsApi.get(orgId, id),
    refetchInterval: (query) => (query.state.data && ['running', 'scheduled'].includes(query.state.data.status) ? 2000 : false),
  });
  const control = useMutation({
    mutationFn: (a: 'pause' | 'resume' | 'cancel') => broadcastsApi.control(orgId, id, a),
    onSuccess: (b) => {
      qc.setQueryData(broadcastKeys.one(orgId, id), b);
      void qc.invalidateQueries({ queryKey: broadcastKeys.list(orgId) });
      void qc.invalidateQueries({ queryKey: broadcastKeys.credits(orgId) });
    },
    onError: (e) => toast.show(errorMessage(e), 'error'),
  });
  const b = q.data;
  if (!b) return q.error ? <p role="alert">{errorMessage(q.error)}</p> : <p className="muted">Loading…</p>;
  const s = b.stats;
  const cards: Array<[string, number, string]> = [
    ['Sent', s.sent, 'sent'],
    ['Delivered', s.delivered, 'delivered'],
    ['Read', s.read, 'read'],
    ['Replied', s.replied, 'replied'],
    ['Failed', s.failed, 'failed'],
    ['Skipped', s.skipped, 'skipped'],
    ['Pending', s.pending, 'pending'],
  ];
  return (
    <section className="broadcast-detail" data-testid="broadcast-detail" aria-label={b.name}>
      <div className="broadcast-detail-head">
        <button type="button" className="btn" onClick={onBack}>
          ← All broadcasts
        </button>
        <h2>{b.name}</h2>
        <span className={`broadcast-status status-${b.status}`} data-testid="broadcast-status">
          {STATUS_LABEL[b.status]}
        </span>
        <div className="broadcast-controls">
          {(b.status === 'running' || b.status === 'scheduled') && (
            <button type="button" className="btn" onClick={() => control.mutate('pause')} disabled={control.isPending}>
              Pause
            </button>
          )}
          {b.status === 'paused' && (
            <button type="button" className="btn" onClick={() => control.mutate('resume')} disabled={control.isPending}>
              Resume
            </button>
          )}
          {['running', 'paused', 'scheduled'].includes(b.status) && (
            <button type="button" className="btn btn-danger" onClick={() => control.mutate('cancel')} disabled={control.isPending}>
              Cancel broadcast
            </button>
          )}
          <button type="button" className="btn" onClick={() => void broadcastsApi.exportCsv(orgId, id).catch((e: unknown) => toast.show(errorMessage(e), 'error'))}>
            Export CSV
          </button>
        </div>
      </div>
      <Progress b={b} />
      {b.status === 'paused' && pauseReasonText(b.pause_reason) && (
        <p className="broadcast-paused" role="status" data-testid="broadcast-pause-reason">
          {pauseReasonText(b.pause_reason)} <Link to={PLANS_PATH}>Settings › Plans</Link>.
        </p>
      )}
      <p className="muted">
        {b.status === 'scheduled' ? `Starts ${fmt(b.send_at)}` : `Started ${fmt(b.started_at)}`}
        {b.finished_at ? ` · finished ${fmt(b.finished_at)}` : ''}
        {b.waiting_until && b.status === 'running' ? ` · waiting until ${fmt(b.waiting_until)} (quiet hours or rate limit)` : ''} · one recipient every {b.pace_ms / 1000} s per number
        {b.stats.skipped > 0 ? ` · skipped: ${s.skipped_opt_out} opted out, ${s.skipped_no_template} need a template, ${s.skipped_other} other` : ''}
      </p>
      <ul className="broadcast-stats" data-testid="broadcast-stats">
        {cards.map(([label, n, key]) => (
          <li key={key} data-stat={key}>
            <strong>{n}</strong>
            <span>{label}</span>
          </li>
        ))}
      </ul>
      {b.content.body && <blockquote className="broadcast-content">{b.content.body}</blockquote>}
      {b.content.media && <p className="broadcast-content muted">{'upload_id' in b.content.media ? 'With a file uploaded from the computer' : 'With a file from the media library'}</p>}
      {b.content.template && (
        <p className="broadcast-content muted" data-testid="broadcast-detail-template">
          Template {b.content.template.name} ({b.content.template.language}){b.content.body ? ' for chats whose 24-hour window is closed' : ''}
        </p>
      )}
      <RecipientLog orgId={orgId} id={id} status={b.status} />
    </section>
  );
}

function RecipientLog({ orgId, id, status }: { orgId: string; id: string; status: Broadcast['status'] }) {
  const live = status === 'running';
  const [filter, setFilter] = useState<RecipientFilter>('all');
  const [cursors, setCursors] = useState<Array<string | null>>([null]);
  const cursor = cursors[cursors.length - 1] ?? null;
  const q = useQuery({
    // the status is in the key: the log is read again once the broadcast ends
    queryKey: [...broadcastKeys.recipients(orgId, id, filter), cursor, status],
    queryFn: () => broadcastsApi.recipients(orgId, id, filter, cursor),
    refetchInterval: live ? 3000 : false,
  });
  const ack = (a: number | null) => (a === 3 || a === 4 ? 'Read' : a === 2 ? 'Delivered' : 'Sent');
  return (
    <div className="broadcast-log">
      <div className="broadcast-inline">
        <h3>Recipients</h3>
        <label>
          Show{' '}
          <select value={filter} onChange={(e) => (setFilter(e.target.value as RecipientFilter), setCursors([null]))} data-testid="recipient-filter">
            {(['all', 'pending', 'sent', 'delivered', 'read', 'replied', 'failed', 'skipped'] as const).map((f) => (
              <option key={f} value={f}>
                {f[0]!.toUpperCase() + f.slice(1)}
              </option>
            ))}
          </select>
        </label>
      </div>
      <div className="broadcast-table-wrap">
        <table className="broadcast-table" data-testid="recipient-log">
          <thead>
            <tr>
              <th>Recipient</th>
              <th>State</th>
              <th>Detail</th>
              <th>Sent</th>
            </tr>
          </thead>
          <tbody>
            {(q.data?.recipients ?? []).map((r) => (
              <tr key={r.rid}>
                <td>{r.name || r.phone || r.chat_id}</td>
                <td>{r.state === 'sent' ? ack(r.ack) : r.state[0]!.toUpperCase() + r.state.slice(1)}</td>
                <td className="muted">{r.error ?? (r.skip_reason ? SKIP_LABEL[r.skip_reason] : r.replied_at ? `Replied ${fmt(r.replied_at)}` : '')}</td>
                <td>{fmt(r.sent_at)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      <div className="broadcast-inline">
        <button type="button" className="btn" disabled={cursors.length < 2} onClick={() => setCursors(cursors.slice(0, -1))}>
          Previous
        </button>
        <button type="button" className="btn" disabled={!q.data?.cursor} onClick={() => setCursors([...cursors, q.data!.cursor])}>
          Next
        </button>
      </div>
    </div>
  );
}
