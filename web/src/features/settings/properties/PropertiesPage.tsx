/**
 * /settings/properties (spec §2 Custom Properties, §3 definition; issue 15): admins define the
 * properties chats and contacts carry: text, dropdown (with options), number and date. Values are
 * set in the chat details panel and the contact panel. Renaming keeps every value (values are keyed
 * by property id); each dropdown option row keeps its option id, so relabelling an option keeps
 * every value set to it; removing one clears it in the background. Delete asks first.
 */
import { useState, type FormEvent } from 'react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { PropertyInput, PROPERTY_TYPES, type PropertyDef, type PropertyType } from '#shared/property/property.schemas.ts';
import { useSession } from '../../../app/session.tsx';
import { useToast } from '../../../app/toast.tsx';
import { MenuButton } from '../../../app/shell/MenuButton.tsx';
import { Icon } from '../../../components/ui/Icon.tsx';
import { CharCount } from '../../../components/ui/CharCount.tsx';
import { ConfirmDeleteDialog, SettingsList, formSubmit } from '../../../components/ui/SettingsList.tsx';
import { errorMessage, fieldErrors } from '../../../lib/api.ts';
import { propertiesApi, propertyKeys } from '../../contacts/index.ts';
import { SettingsTitle } from '../components/SettingsTitle.tsx';
import { CleanupProgress } from './CleanupProgress.tsx';
import './properties.css';

const TYPE_LABELS: Record<PropertyType, string> = { text: 'Text', dropdown: 'Dropdown', number: 'Number', date: 'Date' };

function problem(e: unknown): string {
  const f = fieldErrors(e);
  return f.length ? f.map((x) => `${x.field === 'options' ? 'Options' : x.field === 'property_name' ? 'Name' : x.field} ${x.reason}`).join('; ') : errorMessage(e);
}

/** One option row of the form: `option_id` for options that exist (kept on relabel), `key` for React. */
type OptionRow = { key: string; option_id?: string; label: string };
let rowSeq = 0;
const newRow = (): OptionRow => ({ key: `new-${++rowSeq}`, label: '' });

function PropertyForm({ initial, submitLabel, onSubmit, onCancel }: { initial?: PropertyDef; submitLabel: string; onSubmit: (input: PropertyInput) => Promise<string | null>; onCancel?: () => void }) {
  const [name, setName] = useState(initial?.property_name ?? '');
  const [type, setType] = useState<PropertyType>(initial?.property_value_type ?? 'text');
  // each option row keeps its id, so relabelling an option keeps every value set to it (issue 15)
  const [options, setOptions] = useState<OptionRow[]>(() => {
    const rows = Object.entries(initial?.property_value ?? {}).map(([option_id, label]) => ({ key: option_id, option_id, label }));
    return rows.length ? rows : [newRow()];
  });
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  async function submit(e: FormEvent) {
    e.preventDefault();
    const given = options.filter((o) => o.label.trim()).map((o) => (o.option_id ? { option_id: o.option_id, label: o.label } : o.label));
    const input = { property_name: name, property_value_type: type, ...(type === 'dropdown' ? { options: given } : {}) };
    const parsed = PropertyInput.safeParse(input);
    if (!parsed.success) return setError(parsed.error.issues.map((i) => `${i.path[0] === 'options' ? 'Options' : 'Name'} ${i.message}`).join('; '));
    setBusy(true);
    setError(null);
    const err = await onSubmit(parsed.data);
    setBusy(false);
    if (err) setError(err);
    else if (!initial) {
      setName('');
      setOptions([newRow()]);
    }
  }
  return (
    <form className="property-form" onSubmit={(e) => void submit(e)} data-testid={initial ? 'property-edit-form' : 'property-add-form'}>
      <div className="property-form-row">
        <label className="field">
          <span>Name</span>
          <input type="text" value={name} placeholder="e.g. Customer tier" onChange={(e) => setName(e.target.value)} data-testid="property-name" />
          <CharCount value={name} max={100} field="Name" testId="property-name-count" />
        </label>
        <label className="field">
          <span>Type</span>
          <select value={type} disabled={!!initial} onChange={(e) => setType(e.target.value as PropertyType)} data-testid="property-type">
            {PROPERTY_TYPES.map((t) => (
              <option key={t} value={t}>
                {TYPE_LABELS[t]}
              </option>
            ))}
          </select>
        </label>
      </div>
      {type === 'dropdown' && (
        <fieldset className="property-options-editor" data-testid="property-options">
          <legend>Options</legend>
          {initial && <p className="muted small">Renaming an option keeps it on every chat and contact. Removing one clears it from them in the background.</p>}
          <ol>
            {options.map((o, i) => (
              <li key={o.key}>
                <input
                  type="text"
                  value={o.label}
                  maxLength={100}
                  placeholder={`Option ${i + 1}`}
                  aria-label={`Option ${i + 1}`}
                  onChange={(e) => setOptions(options.map((x) => (x.key === o.key ? { ...x, label: e.target.value } : x)))}
                  onKeyDown={(e) => {
                    if (e.key === 'Enter') {
                      e.preventDefault();
                      if (o.label.trim()) setOptions([...options.slice(0, i + 1), newRow(), ...options.slice(i + 1)]);
                    }
                  }}
                  data-testid="property-option"
                />
                <button type="button" className="icon-btn" onClick={() => setOptions(options.length > 1 ? options.filter((x) => x.key !== o.key) : [newRow()])} aria-label={`Remove option ${o.label || i + 1}`} title="Remove option">
                  <Icon name="close" size={16} />
                </button>
              </li>
            ))}
          </ol>
          <button type="button" className="btn btn-ghost" onClick={() => setOptions([...options, newRow()])} data-testid="property-option-add">
            Add option
          </button>
        </fieldset>
      )}
      {error && (
        <p className="form-error" role="alert">
          {error}
        </p>
      )}
      <div className="property-form-actions">
        {onCancel && (
          <button type="button" className="btn" onClick={onCancel}>
            Cancel
          </button>
        )}
        <button type="submit" className="btn btn-primary" disabled={busy || !name.trim()} data-testid="property-save">
          {busy ? 'Saving…' : submitLabel}
        </button>
      </div>
    </form>
  );
}

export function PropertiesPage() {
  const { org } = useSession();
  const toast = useToast();
  const qc = useQueryClient();
  const key = propertyKeys.all(org.org_id);
  const q = useQuery({ queryKey: key, queryFn: () => propertiesApi.list(org.org_id) });
  const [editing, setEditing] = useState<string | null>(null);
  const [deleting, setDeleting] = useState<PropertyDef | null>(null);
  // the background jobs clearing values after a removed option or a deleted property, shown with their progress
  const [cleanup, setCleanup] = useState<{ what: string; jobIds: string[] } | null>(null);
  const reload = () => void qc.invalidateQueries({ queryKey: key });

  return (
    <div className="page" data-testid="properties-page">
      <header className="page-header">
        <MenuButton />
        <SettingsTitle title="Custom Properties" />
      </header>
      <div className="page-body properties-body">
        <p className="muted">Properties describe chats and contacts: a customer tier, a city, a renewal date. Set them from a chat’s details panel or a contact’s panel, and filter contacts by them.</p>
        {cleanup && <CleanupProgress orgId={org.org_id} what={cleanup.what} jobIds={cleanup.jobIds} onDismiss={() => setCleanup(null)} />}
        <section className="settings-section" aria-labelledby="prop-add">
          <h2 id="prop-add">Add a property</h2>
          <PropertyForm
            submitLabel="Add property"
            onSubmit={formSubmit(async (input) => {
              await propertiesApi.create(org.org_id, input);
              reload();
              toast.show('Property added', 'success');
            }, problem)}
          />
        </section>
        <SettingsList
          title="Properties"
          headingId="prop-list"
          what="properties"
          empty="No properties yet. Add the first one above."
          query={q}
          onRetry={reload}
          listClassName="property-list"
          idOf={(p) => p.property_id}
          editingId={editing}
          renderEdit={(p) => (
            <PropertyForm
              initial={p}
              submitLabel="Save"
              onCancel={() => setEditing(null)}
              onSubmit={formSubmit(async (input) => {
                const r = await propertiesApi.update(org.org_id, p.property_id, input);
                setEditing(null);
                reload();
                if (r.jobs?.length) setCleanup({ what: `the removed options of ${p.property_name}`, jobIds: r.jobs.map((j) => j.job_id) });
                else toast.show('Saved', 'success');
              }, problem)}
            />
          )}
          renderRow={(p) => (
            <li key={p.property_id} className="property-row" data-testid="property-row">
              <span className="property-row-name">{p.property_name}</span>
              <span className="property-type-chip">{TYPE_LABELS[p.property_value_type]}</span>
              {p.property_value_type === 'dropdown' && <span className="muted small property-options">{Object.values(p.property_value).join(' · ')}</span>}
              <span className="property-row-actions">
                <button type="button" className="btn btn-ghost" onClick={() => setEditing(p.property_id)} aria-label={`Edit ${p.property_name}`}>
                  Edit
                </button>
                <button type="button" className="icon-btn" onClick={() => setDeleting(p)} aria-label={`Delete ${p.property_name}`} title="Delete property">
                  <Icon name="trash" size={18} />
                </button>
              </span>
            </li>
          )}
        />
      </div>
      {deleting && (
        <ConfirmDeleteDialog
          title={`Delete “${deleting.property_name}”?`}
          onClose={() => setDeleting(null)}
          onConfirm={async () => {
            const r = await propertiesApi.remove(org.org_id, deleting.property_id);
            setCleanup({ what: `the values of ${deleting.property_name}`, jobIds: [r.job.job_id] });
          }}
          onDone={() => {
            setDeleting(null);
            reload();
            toast.show('Property deleted', 'success');
          }}
          submitLabel="Delete property"
          testId="property-delete-dialog"
          submitTestId="property-delete-confirm"
        >
          <p>Chats and contacts stop showing this property, and its values are cleared from them in the background. This cannot be undone.</p>
        </ConfirmDeleteDialog>
      )}
    </div>
  );
}
