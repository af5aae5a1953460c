/**
 * /settings/general (admins, spec §2/§6; issue 22): the organization's name, image, display
 * language (spec §3), time zone and business hours (shared/org/business-hours.rules.ts: rules and
 * SLA timers read them). One form, validated with the API's own schema before saving, so the
 * messages match its 400 reasons; Save sends only what changed.
 */
import { useEffect, useMemo, useState, type FormEvent } from 'react';
import { DISPLAY_LANGUAGES, ORG_NAME_MAX, UpdateGeneralSettingsInput, type GeneralSettings } from '#shared/org/org-settings.schemas.ts';
import { isTimeZone, WEEKDAYS, type Weekday, type WeeklyHours } from '#shared/org/business-hours.rules.ts';
import { errorMessage } from '../../../lib/api.ts';
import { useSession } from '../../../app/session.tsx';
import { useToast } from '../../../app/toast.tsx';
import { CharCount } from '../../../components/ui/CharCount.tsx';
import { lengthProblem } from '../../../lib/length.ts';
import { MenuButton } from '../../../app/shell/MenuButton.tsx';
import { SettingsTitle } from '../components/SettingsTitle.tsx';
import { useOrgSettings, useSaveOrgSettings } from './api.ts';
import './org-settings.css';

const DAY_NAMES: Record<Weekday, string> = { sun: 'Sunday', mon: 'Monday', tue: 'Tuesday', wed: 'Wednesday', thu: 'Thursday', fri: 'Friday', sat: 'Saturday' };
/** Monday first, as people read a business week. */
const WEEK_ORDER: Weekday[] = [...WEEKDAYS.slice(1), WEEKDAYS[0]];

/** Current IANA names that ICU (Chromium's Intl) still lists under their old alias (Asia/Calcutta…). */
const IANA_CURRENT = ['Asia/Kolkata', 'Asia/Kathmandu', 'Asia/Yangon', 'Asia/Ho_Chi_Minh', 'Europe/Kyiv', 'America/Nuuk', 'Atlantic/Faroe'];

function timeZones(current: string): string[] {
  const all = typeof Intl.supportedValuesOf === 'function' ? Intl.supportedValuesOf('timeZone') : [];
  const known = IANA_CURRENT.filter((z) => isTimeZone(z));
  return Array.from(new Set(['UTC', ...[...all, ...known, current].sort()]));
}

type Draft = Omit<GeneralSettings, 'org_image'> & { org_image: string };
const toDraft = (s: GeneralSettings): Draft => ({ ...s, org_image: s.org_image ?? '' });

export function GeneralSettingsPage() {
  const { org } = useSession();
  const toast = useToast();
  const query = useOrgSettings(org.org_id, 'general');
  const save = useSaveOrgSettings(org.org_id, 'general');
  const [draft, setDraft] = useState<Draft | null>(null);
  const [errors, setErrors] = useState<Record<string, string>>({});

  useEffect(() => {
    if (query.data) setDraft(toDraft(query.data));
  }, [query.data]);

  const zones = useMemo(() => timeZones(draft?.time_zone ?? 'UTC'), [draft?.time_zone]);
  const saved = query.data ? toDraft(query.data) : null;
  const dirty = !!draft && !!saved && JSON.stringify(draft) !== JSON.stringify(saved);

  function setDay(day: Weekday, value: WeeklyHours[Weekday]) {
    setDraft((d) => (d ? { ...d, business_hours: { ...d.business_hours, [day]: value } } : d));
  }

  async function submit(e: FormEvent) {
    e.preventDefault();
    if (!draft || !saved) return;
    const changed: Record<string, unknown> = {};
    for (const k of Object.keys(draft) as Array<keyof Draft>) if (JSON.stringify(draft[k]) !== JSON.stringify(saved[k])) changed[k] = draft[k];
    if ('org_image' in changed) changed.org_image = draft.org_image.trim() || null;
    const parsed = UpdateGeneralSettingsInput.safeParse(changed);
    if (!parsed.success) {
      setErrors(Object.fromEntries(parsed.error.issues.map((i) => [i.path.join('.'), i.message])));
      return;
    }
    setErrors({});
    try {
      await save.mutateAsync(parsed.data);
      toast.show('Settings saved', 'success');
    } catch (err) {
      toast.show(errorMessage(err), 'error');
    }
  }

  const err = (field: string) =>
    errors[field] ? (
      <span className="os-field-error" role="alert" data-testid={`error-${field}`}>
        {errors[field]}
      </span>
    ) : null;

  return (
    <div className="page" data-testid="general-settings">
      <header className="page-header">
        <MenuButton />
        <SettingsTitle title="General" />
      </header>
      <div className="page-body">
        {query.isPending && <p className="muted">Loading settings…</p>}
        {query.isError && (
          <div className="inline-state" role="alert">
            <span>Could not load the settings: {errorMessage(query.error)}</span>
            <button type="button" className="link-btn" onClick={() => void query.refetch()}>
              Retry
            </button>
          </div>
        )}
        {draft && (
          <form className="os-form" onSubmit={(e) => void submit(e)} noValidate>
            <section className="os-section" aria-labelledby="gs-org">
              <h2 id="gs-org">Organization</h2>
              <label className="field">
                <span>Name</span>
                <input value={draft.org_name} onChange={(e) => setDraft({ ...draft, org_name: e.target.value })} data-testid="general-org_name" />
                {/* counted and refused on save (UpdateGeneralSettingsInput), never cut (issue 49 §7) */}
                {!lengthProblem(draft.org_name, ORG_NAME_MAX, 'Name') && err('org_name')}
                <CharCount value={draft.org_name} max={ORG_NAME_MAX} field="Name" testId="general-org_name-count" />
              </label>
              <div className="os-image-row">
                {draft.org_image.trim() ? <img className="os-avatar" src={draft.org_image.trim()} alt="" /> : <span className="os-avatar" aria-hidden="true" />}
                <label className="field">
                  <span>Image URL</span>
                  <input type="url" placeholder="https://…" value={draft.org_image} onChange={(e) => setDraft({ ...draft, org_image: e.target.value })} data-testid="general-org_image" />
                  {err('org_image')}
                </label>
              </div>
              <label className="field">
                <span>Display language</span>
                <select value={draft.display_language} onChange={(e) => setDraft({ ...draft, display_language: e.target.value as Draft['display_language'] })} data-testid="general-display_language">
                  {DISPLAY_LANGUAGES.map((l) => (
                    <option key={l.code} value={l.code}>
                      {l.label}
                    </option>
                  ))}
                </select>
              </label>
            </section>

            <section className="os-section" aria-labelledby="gs-hours">
              <h2 id="gs-hours">Time zone and business hours</h2>
              <p className="muted small">Automation rules and response-time targets count time in this zone and only while you are open.</p>
              <label className="field">
                <span>Time zone</span>
                <select value={draft.time_zone} onChange={(e) => setDraft({ ...draft, time_zone: e.target.value })} data-testid="general-time_zone">
                  {zones.map((z) => (
                    <option key={z} value={z}>
                      {z.replace(/_/g, ' ')}
                    </option>
                  ))}
                </select>
                {err('time_zone')}
              </label>
              <ul className="os-hours" data-testid="business-hours">
                {WEEK_ORDER.map((day) => {
                  const h = draft.business_hours[day];
                  return (
                    <li key={day} data-testid={`hours-${day}`}>
                      <label className="os-day">
                        <input type="checkbox" checked={!!h} onChange={(e) => setDay(day, e.target.checked ? { open: '09:00', close: '17:00' } : null)} data-testid={`hours-${day}-open-toggle`} />
                        {DAY_NAMES[day]}
                      </label>
                      <span className="os-times">
                        {h ? (
                          <>
                            <input type="time" aria-label={`${DAY_NAMES[day]} opens`} value={h.open} onChange={(e) => setDay(day, { ...h, open: e.target.value })} data-testid={`hours-${day}-from`} />
                            <span aria-hidden="true">to</span>
                            <input type="time" aria-label={`${DAY_NAMES[day]} closes`} value={h.close} onChange={(e) => setDay(day, { ...h, close: e.target.value })} data-testid={`hours-${day}-to`} />
                          </>
                        ) : (
                          <span className="os-closed">Closed</span>
                        )}
                        {err(`business_hours.${day}.close`) ?? err(`business_hours.${day}.open`)}
                      </span>
                    </li>
                  );
                })}
              </ul>
            </section>

            <div className="os-actions">
              <button type="button" className="btn" disabled={!dirty || save.isPending} onClick={() => saved && (setDraft(saved), setErrors({}))}>
                Discard changes
              </button>
              <button type="submit" className="btn btn-primary" disabled={!dirty || save.isPending} data-testid="general-save">
                {save.isPending ? 'Saving…' : 'Save'}
              </button>
            </div>
          </form>
        )}
      </div>
    </div>
  );
}
