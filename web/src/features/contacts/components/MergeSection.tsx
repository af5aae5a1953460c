/**
 * Merge and unmerge in the contact panel (issue 15 item 2): "Merge with another contact…" finds
 * the other contact by name or number, then a confirmation says what happens (MERGE_CONTACT_NOTE:
 * the rules of shared/contact/merge.rules.ts); the contacts merged into this one are listed with
 * "Unmerge", which asks first too.
 */
import { useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import { MERGE_CONTACT_NOTE, type ContactView } from '#shared/contact/contact.schemas.ts';
import { useSession } from '../../../app/session.tsx';
import { useToast } from '../../../app/toast.tsx';
import { Dialog, DialogFooter } from '../../../components/ui/Dialog.tsx';
import { errorMessage } from '../../../lib/api.ts';
import { formatPhone, listTime } from '../../../lib/format.ts';
import { contactKeys, contactsApi } from '../api/contacts.ts';
import { contactName as nameOf, IDENTITY_WORDS } from './ContactIdentity.tsx';

/** A contact's numbers, its username, or 'Number not shared' (issue 41). */
const numbersOf = (c: Pick<ContactView, 'numbers' | 'username'>): string => (c.numbers.length ? c.numbers.map(formatPhone).join(', ') : (c.username ?? IDENTITY_WORDS.numberNotShared));

export function MergeSection({ contact, onChanged }: { contact: ContactView; onChanged: () => void }) {
  const { org } = useSession();
  const toast = useToast();
  const [merging, setMerging] = useState(false);
  const [unmerging, setUnmerging] = useState<ContactView | null>(null);
  const has = contact.merged_ids.length > 0;
  const merges = useQuery({ queryKey: [...contactKeys.merges(org.org_id, contact.contact_id), contact.merged_ids.join()], queryFn: () => contactsApi.merges(org.org_id, contact.contact_id), enabled: has });
  return (
    <section aria-labelledby="contact-merge-title" className="contact-merge">
      <h3 id="contact-merge-title">Merged contacts</h3>
      {has ? (
        <ul className="contact-merged">
          {(merges.data?.merged ?? []).map((m) => (
            <li key={m.contact_id} data-testid="contact-merged-row">
              <span>
                {nameOf(m)} <span className="muted small">{numbersOf(m)}</span>
              </span>
              <button type="button" className="btn btn-ghost" onClick={() => setUnmerging(m)} data-testid="contact-unmerge">
                Unmerge
              </button>
            </li>
          ))}
        </ul>
      ) : (
        <p className="muted small">Same person writing from another number? Merge the two contacts into this one.</p>
      )}
      {merges.data && merges.data.audit.length > 0 && (
        <p className="muted small" data-testid="contact-merge-audit">
          Last change: {merges.data.audit[0]!.action.replace('_', ' ')} by {merges.data.audit[0]!.actor}, {listTime(merges.data.audit[0]!.at)}
        </p>
      )}
      <button type="button" className="btn" onClick={() => setMerging(true)} data-testid="contact-merge-open">
        Merge with another contact…
      </button>
      {merging && (
        <MergeDialog
          contact={contact}
          onClose={() => setMerging(false)}
          onMerged={(other) => {
            setMerging(false);
            toast.show(`${nameOf(other)} merged into ${nameOf(contact)}`, 'success');
            onChanged();
          }}
        />
      )}
      {unmerging && (
        <ConfirmDialog
          title={`Unmerge ${nameOf(unmerging)}?`}
          text={`${nameOf(unmerging)} becomes a contact of its own again, with its numbers, labels, properties, notes and chats. What the merge added to ${nameOf(contact)} is taken off; changes made since the merge stay.`}
          submitLabel="Unmerge"
          testId="contact-unmerge-dialog"
          onClose={() => setUnmerging(null)}
          onConfirm={async () => {
            await contactsApi.unmerge(org.org_id, contact.contact_id, unmerging.contact_id);
            setUnmerging(null);
            toast.show(`${nameOf(unmerging)} unmerged`, 'success');
            onChanged();
          }}
        />
      )}
    </section>
  );
}

function MergeDialog({ contact, onClose, onMerged }: { contact: ContactView; onClose: () => void; onMerged: (other: ContactView) => void }) {
  const { org } = useSession();
  const [q, setQ] = useState('');
  const [picked, setPicked] = useState<ContactView | null>(null);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const search = q.trim();
  const found = useQuery({ queryKey: contactKeys.list(org.org_id, { q: search, sort: 'name' }), queryFn: () => contactsApi.list(org.org_id, { q: search, sort: 'name', limit: 20 }), enabled: search.length >= 2 });
  const options = (found.data?.contacts ?? []).filter((c) => c.contact_id !== contact.contact_id);
  if (picked)
    return (
      <Dialog title={`Merge ${nameOf(picked)} into ${nameOf(contact)}?`} onClose={onClose} testId="contact-merge-dialog">
<div className="dialog-body form-grid">
        <p data-testid="contact-merge-note">{MERGE_CONTACT_NOTE}</p>
        <p className="muted small">
          {nameOf(contact)} keeps its name{contact.phone ? ` and main number (${formatPhone(contact.phone)})` : ''};{' '}
          {picked.numbers.length ? `${nameOf(picked)}’s number${picked.numbers.length > 1 ? 's' : ''} ${numbersOf(picked)} join it.` : `${nameOf(picked)}’s WhatsApp identifiers join it.`}
        </p>
        <DialogFooter
          error={error}
          onCancel={() => setPicked(null)}
          cancelLabel="Back"
          onSubmit={() => {
            setBusy(true);
            setError(null);
            contactsApi
              .merge(org.org_id, contact.contact_id, picked.contact_id)
              .then(() => onMerged(picked))
              .catch((e: unknown) => setError(errorMessage(e)))
              .finally(() => setBusy(false));
          }}
          submitLabel="Merge contacts"
          busyLabel="Merging…"
          busy={busy}
          disabled={busy}
          submitTestId="contact-merge-confirm"
        /></div>

      </Dialog>
    );
  return (
    <Dialog title={`Merge into ${nameOf(contact)}`} onClose={onClose} testId="contact-merge-dialog">
<div className="dialog-body form-grid">
      <label className="field">
        <span>Find the other contact (name or number)</span>
        <input type="search" value={q} autoFocus onChange={(e) => setQ(e.target.value)} placeholder="e.g. Ana or +55 11" data-testid="contact-merge-search" />
      </label>
      {search.length >= 2 && found.isPending && <p className="muted small">Searching…</p>}
      {found.isError && <p className="form-error">{errorMessage(found.error)}</p>}
      {found.data && options.length === 0 && <p className="muted small">No other contact matches “{search}”.</p>}
      <ul className="contact-merge-options">
        {options.map((c) => (
          <li key={c.contact_id}>
            <button type="button" className="contact-merge-option" onClick={() => setPicked(c)} data-testid="contact-merge-option">
              <span>{nameOf(c)}</span>
              <span className="muted small">{numbersOf(c)}</span>
            </button>
          </li>
        ))}
      </ul></div>

    </Dialog>
  );
}

function ConfirmDialog({ title, text, submitLabel, testId, onClose, onConfirm }: { title: string; text: string; submitLabel: string; testId: string; onClose: () => void; onConfirm: () => Promise<void> }) {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  return (
    <Dialog title={title} onClose={onClose} testId={testId}>
<div className="dialog-body form-grid">
      <p>{text}</p>
      <DialogFooter
        error={error}
        onCancel={onClose}
        onSubmit={() => {
          setBusy(true);
          setError(null);
          onConfirm()
            .catch((e: unknown) => setError(errorMessage(e)))
            .finally(() => setBusy(false));
        }}
        submitLabel={submitLabel}
        busyLabel="Working…"
        busy={busy}
        disabled={busy}
        submitTestId={`${testId}-confirm`}
      /></div>

    </Dialog>
  );
}
