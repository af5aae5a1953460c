/**
 * /settings/tickets: ticket labels (name + colour: add, rename, recolour, delete) and defaults for
 * new tickets (priority; assignee 'chat_assignee' or 'none'). Saved together with
 * PUT /settings/tickets. Admins only: members see the settings read-only with a note (the API
 * refuses them with 403 anyway).
 */
import { useEffect, useState, type FormEvent } from 'react';
import type { TicketPriority, TicketSettingsInput } from '#shared/ticket/ticket.schemas.ts';
import { TICKET_LABEL_MAX, TicketSettingsInput as TicketSettingsInputSchema } from '#shared/ticket/ticket.schemas.ts';
import { api, errorMessage } from '../../../lib/api.ts';
import { useSession } from '../../../app/session.tsx';
import { useTickets } from '../../tickets/index.ts';
import { useToast } from '../../../app/toast.tsx';
import { MenuButton } from '../../../app/shell/MenuButton.tsx';
import { Icon } from '../../../components/ui/Icon.tsx';
import { CharCount } from '../../../components/ui/CharCount.tsx';
import { PRIORITY_OPTIONS } from '../../tickets/index.ts';
import { LabelChip } from '../../tickets/index.ts';
import { SettingsTitle } from '../components/SettingsTitle.tsx';
import { Options } from '../../../components/ui/Options.tsx';

type DraftLabel = { key: string; label_id?: string; name: string; color: string };
const PALETTE = ['#3b82f6', '#10b981', '#f59e0b', '#ef4444', '#8b5cf6', '#ec4899', '#14b8a6', '#64748b'];
let nextKey = 1;

export function TicketSettingsPage() {
  const { org } = useSession();
  const { settings, settingsStatus, settingsError, reloadSettings, setSettings } = useTickets();
  const toast = useToast();
  const isAdmin = org.role === 'admin';
  const [labels, setLabels] = useState<DraftLabel[]>([]);
  const [priority, setPriority] = useState<TicketPriority>(settings.default_priority);
  const [assignee, setAssignee] = useState(settings.default_assignee);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);

  const reset = () => {
    setLabels(settings.labels.map((l) => ({ key: l.label_id, label_id: l.label_id, name: l.name, color: l.color })));
    setPriority(settings.default_priority);
    setAssignee(settings.default_assignee);
    setError(null);
  };
  useEffect(reset, [settings]);

  const dirty =
    priority !== settings.default_priority ||
    assignee !== settings.default_assignee ||
    labels.length !== settings.labels.length ||
    labels.some((l, i) => l.label_id !== settings.labels[i]?.label_id || l.name !== settings.labels[i]?.name || l.color !== settings.labels[i]?.color);

  const update = (key: string, change: Partial<DraftLabel>) => setLabels((prev) => prev.map((l) => (l.key === key ? { ...l, ...change } : l)));

  async function save(e: FormEvent) {
    e.preventDefault();
    if (!isAdmin || busy) return;
    const input: TicketSettingsInput = {
      labels: labels.map((l) => ({ ...(l.label_id ? { label_id: l.label_id } : {}), name: l.name.trim(), color: l.color })),
      default_priority: priority,
      default_assignee: assignee,
    };
    const names = input.labels.map((l) => l.name.toLowerCase());
    const dup = names.find((n, i) => names.indexOf(n) !== i);
    const parsed = TicketSettingsInputSchema.safeParse(input);
    if (dup) return setError(`Two labels are called “${dup}”. Label names must be unique.`);
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      const where = issue.path[0] === 'labels' && typeof issue.path[1] === 'number' ? `Label ${issue.path[1] + 1} ${String(issue.path[2] ?? '')}` : String(issue.path.join('.'));
      return setError(`${where.trim()} ${issue.message}.`);
    }
    setBusy(true);
    setError(null);
    try {
      const s = await api.saveTicketSettings(org.org_id, parsed.data);
      setSettings(s);
      toast.show('Ticket settings saved', 'success');
    } catch (err) {
      const msg = errorMessage(err);
      setError(msg);
      toast.show(msg, 'error');
    } finally {
      setBusy(false);
    }
  }

  return (
    <div className="page" data-testid="ticket-settings">
      <header className="page-header">
        <MenuButton />
        <SettingsTitle title="Tickets" />
      </header>
      <form className="page-body settings-form" onSubmit={(e) => void save(e)}>
        {!isAdmin && (
          <p className="notice" role="note" data-testid="ticket-settings-readonly">
            Only admins can change ticket settings. You can see them here.
          </p>
        )}
        {settingsStatus === 'loading' && <p className="muted">Loading ticket settings…</p>}
        {settingsStatus === 'error' && (
          <div className="inline-state" role="alert">
            <span>Could not load ticket settings: {settingsError}</span>
            <button type="button" className="link-btn" onClick={reloadSettings}>
              Retry
            </button>
          </div>
        )}
        {settingsStatus === 'ready' && (
          <>
            <section className="settings-section" aria-labelledby="labels-title">
              <h2 id="labels-title">Labels</h2>
              <p className="muted small">Labels sort tickets into kinds (billing, bug, refund…). A ticket can have up to 10.</p>
              {labels.length === 0 && <p className="muted">No labels yet.{isAdmin ? ' Add the first one below.' : ''}</p>}
              <ul className="label-editor">
                {labels.map((l, i) => (
                  <li key={l.key} data-testid="ticket-label-row">
                    <input
                      type="color"
                      value={l.color}
                      disabled={!isAdmin}
                      aria-label={`Colour of label ${i + 1}`}
                      onChange={(e) => update(l.key, { color: e.target.value })}
                    />
                    <input
                      type="text"
                      value={l.name}
                      disabled={!isAdmin}
                      aria-label={`Name of label ${i + 1}`}
                      placeholder="Label name"
                      onChange={(e) => update(l.key, { name: e.target.value })}
                      data-testid="ticket-label-name"
                    />
                    {/* counted, refused on save by the settings schema, never cut (issue 49 §7) */}
                    <CharCount value={l.name} max={TICKET_LABEL_MAX} field={`Label ${i + 1}`} testId="ticket-label-count" />
                    <span className="label-preview">{l.name.trim() && <LabelChip label={{ label_id: l.key, name: l.name.trim(), color: l.color }} />}</span>
                    {isAdmin && (
                      <button type="button" className="icon-btn" aria-label={`Delete label ${l.name || i + 1}`} title="Delete label" onClick={() => setLabels((prev) => prev.filter((x) => x.key !== l.key))}>
                        <Icon name="trash" size={18} />
                      </button>
                    )}
                  </li>
                ))}
              </ul>
              {isAdmin && (
                <button
                  type="button"
                  className="btn"
                  data-testid="ticket-label-add"
                  onClick={() => setLabels((prev) => [...prev, { key: `new-${nextKey++}`, name: '', color: PALETTE[prev.length % PALETTE.length] }])}
                >
                  <Icon name="plus" size={16} /> Add label
                </button>
              )}
            </section>

            <section className="settings-section" aria-labelledby="defaults-title">
              <h2 id="defaults-title">Defaults for new tickets</h2>
              <label className="field">
                <span>Default priority</span>
                <select value={priority} disabled={!isAdmin} onChange={(e) => setPriority(Number(e.target.value) as TicketPriority)} data-testid="ticket-default-priority">
                  <Options options={PRIORITY_OPTIONS} />
                </select>
              </label>
              <label className="field">
                <span>Default assignee</span>
                <select value={assignee} disabled={!isAdmin} onChange={(e) => setAssignee(e.target.value as typeof assignee)} data-testid="ticket-default-assignee">
                  <option value="chat_assignee">The chat’s assignee</option>
                  <option value="none">Nobody (unassigned)</option>
                </select>
              </label>
            </section>

            {error && (
              <p className="form-error" role="alert">
                {error}
              </p>
            )}
            {isAdmin && (
              <div className="settings-actions">
                <button type="button" className="btn" disabled={!dirty || busy} onClick={reset}>
                  Discard changes
                </button>
                <button type="submit" className="btn btn-primary" disabled={!dirty || busy} data-testid="ticket-settings-save">
                  {busy ? 'Saving…' : 'Save'}
                </button>
              </div>
            )}
          </>
        )}
      </form>
    </div>
  );
}
