/** Dialogs of /contacts: create a contact, and the delete confirmation that says the messages are kept (issue 15). */
import { useState, type FormEvent } from 'react';
import { DELETE_CONTACT_NOTE, type ContactView } from '#shared/contact/contact.schemas.ts';
import { errorMessage, fieldErrors } from '../../../lib/api.ts';
import { Dialog, DialogFooter } from '../../../components/ui/Dialog.tsx';
import { contactsApi } from '../api/contacts.ts';
import { CharCount } from '../../../components/ui/CharCount.tsx';

export function CreateContactDialog({ orgId, onClose, onCreated }: { orgId: string; onClose: () => void; onCreated: (c: ContactView) => void }) {
  const [phone, setPhone] = useState('');
  const [name, setName] = useState('');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  async function submit(e: FormEvent) {
    e.preventDefault();
    setBusy(true);
    setError(null);
    try {
      const r = await contactsApi.create(orgId, { phone, ...(name.trim() ? { name: name.trim() } : {}) });
      onCreated(r.contact);
    } catch (err) {
      const f = fieldErrors(err).find((x) => x.field === 'phone');
      setError(f ? `Phone number ${f.reason}.` : errorMessage(err));
      setBusy(false);
    }
  }
  return (
    <Dialog title="New contact" onClose={onClose} testId="contact-create-dialog">
      <form onSubmit={(e) => void submit(e)} className="contact-form">
        <label className="field">
          <span>Phone number</span>
          <input type="tel" value={phone} required autoFocus placeholder="+91 98765 43210" onChange={(e) => setPhone(e.target.value)} data-testid="contact-create-phone" />
        </label>
        <p className="muted small">With the country code; numbers without one are read as Indian (+91).</p>
        <label className="field">
          <span>Name (optional)</span>
          <input type="text" value={name} onChange={(e) => setName(e.target.value)} data-testid="contact-create-name" />
          <CharCount value={name} max={250} field="Name" testId="contact-create-name-count" />
        </label>
        <DialogFooter error={error} onCancel={onClose} submitLabel="Add contact" busyLabel="Adding…" busy={busy} disabled={busy || !phone.trim()} submitTestId="contact-create-submit" />
      </form>
    </Dialog>
  );
}

export function DeleteContactDialog({ name, onClose, onConfirm }: { name: string; onClose: () => void; onConfirm: () => Promise<string | null> }) {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  return (
    <Dialog title={`Delete ${name}?`} onClose={onClose} testId="contact-delete-dialog">
      <p data-testid="contact-delete-note">{DELETE_CONTACT_NOTE}</p>
      <DialogFooter
        error={error}
        onCancel={onClose}
        onSubmit={() => {
          setBusy(true);
          void onConfirm().then((err) => {
            setBusy(false);
            setError(err);
          });
        }}
        submitLabel="Delete contact"
        busyLabel="Deleting…"
        busy={busy}
        disabled={busy}
        submitTestId="contact-delete-confirm"
        danger
      />
    </Dialog>
  );
}
