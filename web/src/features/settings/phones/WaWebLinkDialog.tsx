/**
 * Link a number as a WhatsApp Web device (admins, /settings/phones; whatsapp-protocols.md §B.2):
 * the admin enters the number and accepts the risk of an unofficial client (§B.1), the server
 * writes the phone and its session, a session worker starts it and its QR arrives over the socket
 * (`phone.session_updated`, admins only) and is drawn here; scanning it in WhatsApp → Settings →
 * Linked devices opens the session, which this dialog shows before closing. A QR that is replaced
 * (they expire after about 20 s) is redrawn. The same dialog re-links a logged-out number.
 */
import { useCallback, useEffect, useRef, useState, type FormEvent } from 'react';
import QRCode from 'qrcode';
import { AddWaWebPhoneInput, WA_WEB_STATE_LABELS, type PhoneView, type WaWebSessionView } from '#shared/phone/phone.schemas.ts';
import { api, errorMessage, fieldErrors } from '../../../lib/api.ts';
import { useInbox } from '../../../app/inbox.tsx';
import { useToast } from '../../../app/toast.tsx';
import { Dialog, DialogFooter } from '../../../components/ui/Dialog.tsx';

export function WaWebLinkDialog({ orgId, relink, onClose, onChanged }: { orgId: string; relink?: PhoneView; onClose: () => void; onChanged: () => void }) {
  const toast = useToast();
  const { subscribe } = useInbox();
  const [phone, setPhone] = useState('');
  const [accepted, setAccepted] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  // a number still linking (or reconnecting) shows its QR at once; a logged-out one asks first
  const [phoneId, setPhoneId] = useState<string | null>(relink && relink.session_state !== 'logged_out' ? relink.phone_id : null);
  const [session, setSession] = useState<WaWebSessionView | null>(null);
  const [qrImage, setQrImage] = useState<string | null>(null);
  const changed = useRef(onChanged);
  changed.current = onChanged;
  const lastState = useRef<string | null>(null);

  // live state and QR from the socket; the GET covers what came before we subscribed
  useEffect(() => {
    if (!phoneId) return;
    const off = subscribe((e) => {
      if (e.kind === 'phone_session' && e.session.phone_id === phoneId) setSession((s) => (s && s.at > e.session.at ? s : e.session));
    });
    void api
      .waWebSession(orgId, phoneId)
      .then((s) => setSession((cur) => (cur && cur.at >= s.at ? cur : s)))
      .catch((e) => setError(errorMessage(e)));
    return off;
  }, [orgId, phoneId, subscribe]);

  useEffect(() => {
    let live = true;
    if (session?.state === 'qr' && session.qr) {
      void QRCode.toDataURL(session.qr, { margin: 1, width: 264, errorCorrectionLevel: 'L' }).then((url) => live && setQrImage(url));
    } else setQrImage(null);
    // once per change of state: the list shows the new state; opening is worth a toast
    const state = session?.state ?? null;
    if (state !== lastState.current) {
      lastState.current = state;
      if (state === 'open') toast.show('WhatsApp Web linked: the number is ready.', 'success');
      if (state) changed.current();
    }
    return () => {
      live = false;
    };
  }, [session, toast]);

  const start = useCallback(async () => {
    if (!relink) return;
    setBusy(true);
    try {
      const s = await api.relinkWaWeb(orgId, relink.phone_id);
      setSession(s);
      setPhoneId(relink.phone_id);
    } catch (e) {
      setError(errorMessage(e));
    } finally {
      setBusy(false);
    }
  }, [orgId, relink]);

  async function submit(e: FormEvent) {
    e.preventDefault();
    if (relink) return void start();
    const parsed = AddWaWebPhoneInput.safeParse({ phone });
    if (!parsed.success) return setError(parsed.error.issues[0]?.message ?? 'Please check the number');
    setError(null);
    setBusy(true);
    try {
      const p = await api.addWaWebPhone(orgId, parsed.data.phone);
      setPhoneId(p.phone_id);
      changed.current();
    } catch (err) {
      setError(fieldErrors(err)[0]?.reason ?? errorMessage(err));
    } finally {
      setBusy(false);
    }
  }

  const state = session?.state ?? (phoneId ? 'linking' : null);
  return (
    <Dialog title={relink ? 'Link WhatsApp Web again' : 'Link a WhatsApp Web number'} onClose={onClose} testId="wa-web-dialog" className="dialog-narrow">
      {!phoneId ? (
        <form className="dialog-body form-grid" onSubmit={(e) => void submit(e)} noValidate>
          <p className="muted small">
            Chorus connects as a linked device of the WhatsApp app on your phone, like WhatsApp Web. This is not Meta's official API: WhatsApp may block numbers used this way, without notice. Prefer a
            Cloud API number where you can.
          </p>
          {!relink && (
            <label className="field">
              <span>Phone number, with country code</span>
              <input name="phone" value={phone} inputMode="tel" placeholder="+91 98765 43210" autoComplete="off" onChange={(e) => setPhone(e.target.value)} aria-invalid={error ? true : undefined} data-testid="wa-web-phone" />
            </label>
          )}
          <label className="checkbox">
            <input type="checkbox" checked={accepted} onChange={(e) => setAccepted(e.target.checked)} data-testid="wa-web-accept" /> I understand the risk for this number
          </label>
          <DialogFooter error={error} errorClass="field-error" errorTestId="wa-web-error" onCancel={onClose} submitLabel="Show QR code" busyLabel="Starting…" busy={busy} disabled={busy || !accepted} submitTestId="wa-web-submit" />
        </form>
      ) : (
        <div className="dialog-body wa-web-link" data-testid="wa-web-link" data-state={state ?? ''}>
          <p className="wa-web-state" role="status" data-testid="wa-web-state">
            {state ? WA_WEB_STATE_LABELS[state] : ''}
            {session?.detail ? ` (${session.detail})` : ''}
          </p>
          {qrImage ? (
            <>
              <img src={qrImage} width={264} height={264} alt="QR code to link this number in WhatsApp" data-testid="wa-web-qr" />
              <p className="muted small">On the phone: WhatsApp → Settings → Linked devices → Link a device, then scan this code. It changes every few seconds until scanned.</p>
            </>
          ) : state === 'open' ? (
            <p data-testid="wa-web-linked">Linked. Messages of this number now arrive in the inbox.</p>
          ) : state === 'logged_out' ? (
            <button type="button" className="btn btn-primary" onClick={() => void start()} disabled={busy}>
              Link again
            </button>
          ) : (
            <p className="muted small">Waiting for a session worker to start the link…</p>
          )}
          {error && (
            <p className="field-error" role="alert">
              {error}
            </p>
          )}
          <div className="dialog-actions">
            <button type="button" className="btn" onClick={onClose} data-testid="wa-web-close">
              {state === 'open' ? 'Done' : 'Close'}
            </button>
          </div>
        </div>
      )}
    </Dialog>
  );
}
