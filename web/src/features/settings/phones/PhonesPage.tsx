/**
 * /settings/phones (any member may open it, spec §2; adding is for admins, spec §6): the org's
 * WhatsApp numbers with their status (Ready / Not connected, first connected date), the spec §9
 * counter 'connected / max(phone count, plan limit)', and for admins an Add phone dialog for a
 * Cloud API number (phone number id, WABA id, access token) with the spec §8 toasts. The server
 * checks the token with Meta and stores it encrypted; the web app never sees it again.
 */
import { useCallback, useEffect, useState, type FormEvent } from 'react';
import { Link } from 'react-router-dom';
import { parsePhoneNumberFromString } from 'libphonenumber-js';
import type { PhoneList, PhoneView } from '#shared/phone/phone.schemas.ts';
import { AddPhoneInput, PHONE_MESSAGES, WA_WEB_STATE_LABELS } from '#shared/phone/phone.schemas.ts';
import { WaWebLinkDialog } from './WaWebLinkDialog.tsx';
import { api, errorMessage, fieldErrors } from '../../../lib/api.ts';
import { useSession } from '../../../app/session.tsx';
import { useToast } from '../../../app/toast.tsx';
import { MenuButton } from '../../../app/shell/MenuButton.tsx';
import { Dialog, DialogFooter } from '../../../components/ui/Dialog.tsx';
import { ListSkeleton, LoadError } from '../../../components/ui/ListStates.tsx';
import { SettingsTitle } from '../components/SettingsTitle.tsx';
import './phones.css';

/** '+1 555-012-3456' from stored digits; the digits when libphonenumber cannot read them. */
function displayNumber(digits: string): string {
  return parsePhoneNumberFromString(`+${digits}`)?.formatInternational() ?? digits;
}

/** Spec §9 date format 'DD MMM YY', e.g. '22 Nov 26'. */
const dateFmt = new Intl.DateTimeFormat('en-GB', { day: '2-digit', month: 'short', year: '2-digit' });
const exactFmt = new Intl.DateTimeFormat(undefined, { dateStyle: 'full', timeStyle: 'short' });

export function PhonesPage() {
  const { org } = useSession();
  const isAdmin = org.role === 'admin';
  const [data, setData] = useState<PhoneList | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [adding, setAdding] = useState(false);
  /** the WhatsApp Web link dialog: true = a new number, a phone = link that one again */
  const [linking, setLinking] = useState<PhoneView | true | null>(null);

  const load = useCallback(async () => {
    setError(null);
    try {
      setData(await api.phones(org.org_id));
    } catch (e) {
      setError(errorMessage(e));
    }
  }, [org.org_id]);
  useEffect(() => {
    setData(null);
    void load();
  }, [load]);

  const added = (p: PhoneView) => {
    setAdding(false);
    // the counter comes from the server (plan limit); reload it, showing the new row at once
    setData((d) => (d ? { ...d, phones: [...d.phones.filter((x) => x.phone_id !== p.phone_id), p] } : d));
    void load();
  };

  return (
    <div className="page" data-testid="phones-page">
      <header className="page-header">
        <MenuButton />
        <SettingsTitle title="Phones" />
        <div className="phones-head-actions">
          {isAdmin && (
            <button type="button" className="btn" onClick={() => setLinking(true)} data-testid="link-wa-web">
              Link WhatsApp Web
            </button>
          )}
          {isAdmin && (
            <button type="button" className="btn btn-primary" onClick={() => setAdding(true)} data-testid="add-phone">
              Add phone
            </button>
          )}
        </div>
      </header>
      <div className="page-body">
        {data && (
          <p className="phone-counter">
            <span data-testid="phone-counter" title="Connected phones / the larger of your phone count and your plan's phone limit">
              <strong>{data.connected}</strong> / {data.limit} connected
            </span>
            {/* issue 16: the Cloud API numbers' message templates */}
            {data.phones.some((p) => p.connection_type !== 'wa_web') && (
              <>
                {' · '}
                <Link to="/settings/templates" data-testid="phones-templates-link">
                  Message templates
                </Link>
              </>
            )}
          </p>
        )}
        {!data && !error && <ListSkeleton rows={2} label="Loading phones" />}
        {error && !data && <LoadError what="phones" error={error} onRetry={() => void load()} />}
        {data && data.phones.length === 0 && (
          <div className="state-box empty" data-testid="phones-empty">
            <p>No phones connected yet.</p>
            <p className="muted">{isAdmin ? 'Add your WhatsApp Cloud API number to start receiving chats.' : 'Ask an admin to add your WhatsApp number.'}</p>
          </div>
        )}
        {data && data.phones.length > 0 && (
          <ul className="phone-list" aria-label="Phones">
            {data.phones.map((p) => (
              <li key={p.phone_id} className="phone-row" data-testid="phone-row" data-phone-id={p.phone_id}>
                <div className="phone-main">
                  <div className="phone-number">{displayNumber(p.org_phone)}</div>
                  <div className="muted small">
                    {p.connection_type === 'wa_web' ? (
                      'WhatsApp Web (linked device)'
                    ) : (
                      <>
                        {p.verified_name ? `${p.verified_name} · ` : ''}Cloud API id <span className="phone-id">{p.phone_id}</span>
                      </>
                    )}
                  </div>
                </div>
                <span className={`status-tag ${p.is_ready ? 'phone-ready' : 'phone-down'}`} data-testid="phone-status">
                  {p.connection_type === 'wa_web' && p.session_state ? WA_WEB_STATE_LABELS[p.session_state] : p.is_ready ? 'Ready' : 'Not connected'}
                </span>
                {isAdmin && p.connection_type === 'wa_web' && p.session_state !== 'open' && (
                  <button type="button" className="btn btn-small" onClick={() => setLinking(p)} data-testid="wa-web-relink">
                    {p.session_state === 'logged_out' ? 'Link again' : 'Show QR code'}
                  </button>
                )}
                <div className="phone-since muted small">
                  {p.first_connected_at ? (
                    <>
                      Connected since <time dateTime={new Date(p.first_connected_at).toISOString()} title={exactFmt.format(p.first_connected_at)}>{dateFmt.format(p.first_connected_at)}</time>
                    </>
                  ) : (
                    'Never connected'
                  )}
                </div>
              </li>
            ))}
          </ul>
        )}
      </div>
      {adding && <AddPhoneDialog orgId={org.org_id} onClose={() => setAdding(false)} onAdded={added} />}
      {linking && <WaWebLinkDialog orgId={org.org_id} relink={linking === true ? undefined : linking} onClose={() => setLinking(null)} onChanged={() => void load()} />}
    </div>
  );
}

type Field = 'phone_number_id' | 'waba_id' | 'access_token';

/** The Add phone dialog: client-side checks with the API's own schema, then the spec §8 toasts. */
function AddPhoneDialog({ orgId, onClose, onAdded }: { orgId: string; onClose: () => void; onAdded: (p: PhoneView) => void }) {
  const toast = useToast();
  const [values, setValues] = useState<Record<Field, string>>({ phone_number_id: '', waba_id: '', access_token: '' });
  const [errors, setErrors] = useState<Partial<Record<Field | 'form', string>>>({});
  const [busy, setBusy] = useState(false);

  async function submit(e: FormEvent) {
    e.preventDefault();
    const parsed = AddPhoneInput.safeParse(values);
    if (!parsed.success) {
      const next: Partial<Record<Field, string>> = {};
      for (const i of parsed.error.issues) next[i.path[0] as Field] ??= i.message;
      return setErrors(next);
    }
    setErrors({});
    setBusy(true);
    toast.show(PHONE_MESSAGES.adding, 'info');
    try {
      const phone = await api.addPhone(orgId, parsed.data);
      toast.show(PHONE_MESSAGES.added, 'success');
      onAdded(phone);
    } catch (err) {
      toast.show(PHONE_MESSAGES.addFailed, 'error');
      const next: Partial<Record<Field | 'form', string>> = {};
      for (const f of fieldErrors(err)) if (f.field in values) next[f.field as Field] ??= f.reason;
      if (Object.keys(next).length === 0) next.form = errorMessage(err);
      setErrors(next);
    } finally {
      setBusy(false);
    }
  }

  const field = (name: Field, label: string, props: { type?: string; placeholder: string; hint?: string; inputMode?: 'numeric' }) => (
    <label className="field">
      <span>{label}</span>
      <input
        name={name}
        type={props.type ?? 'text'}
        inputMode={props.inputMode}
        value={values[name]}
        placeholder={props.placeholder}
        autoComplete="off"
        spellCheck={false}
        aria-invalid={errors[name] ? true : undefined}
        aria-describedby={errors[name] ? `${name}-error` : undefined}
        onChange={(e) => setValues((v) => ({ ...v, [name]: e.target.value }))}
        data-testid={`phone-${name}`}
      />
      {errors[name] ? (
        <span className="field-error" id={`${name}-error`} data-testid={`phone-${name}-error`}>
          {errors[name]}
        </span>
      ) : (
        props.hint && <span className="muted small">{props.hint}</span>
      )}
    </label>
  );

  return (
    <Dialog title="Add phone" onClose={onClose} testId="add-phone-dialog" className="dialog-narrow">
      <form className="dialog-body form-grid" onSubmit={(e) => void submit(e)} noValidate>
        <p className="muted small">From Meta's WhatsApp Manager (API Setup). Chorus checks the token with WhatsApp before saving it, and stores it encrypted.</p>
        {field('phone_number_id', 'Phone number id', { placeholder: '106540352242922', inputMode: 'numeric' })}
        {field('waba_id', 'WhatsApp Business Account id', { placeholder: '102290129340398', inputMode: 'numeric' })}
        {field('access_token', 'Access token', { type: 'password', placeholder: 'EAAG…', hint: 'A permanent System User token with whatsapp_business_messaging.' })}
        <DialogFooter error={errors.form} errorClass="field-error" onCancel={onClose} submitLabel="Add phone" busyLabel="Adding…" busy={busy} disabled={busy} submitTestId="add-phone-submit" />
      </form>
    </Dialog>
  );
}
