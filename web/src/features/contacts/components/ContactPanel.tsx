/**
 * The contact panel of /contacts: name (profile and edited), numbers ('Number not shared' when
 * WhatsApp withholds it) and WhatsApp username, the WhatsApp identifiers with their history
 * (issue 41 §7), last seen and created, the contact's chats on each org number (links into /chats; chats the member may not open are shown
 * dimmed), labels and notes to edit, and delete with a confirmation that says what is kept.
 */
import { useEffect, useState, type FormEvent } from 'react';
import { Link } from 'react-router-dom';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import type { ChatLabel } from '#shared/chat/chat.schemas.ts';
import type { ContactDetail } from '#shared/contact/contact.schemas.ts';
import { useSession } from '../../../app/session.tsx';
import { useToast } from '../../../app/toast.tsx';
import { Icon } from '../../../components/ui/Icon.tsx';
import { errorMessage } from '../../../lib/api.ts';
import { useMembers } from '../../../lib/members.ts';
import { exactTime, formatPhone, listTime } from '../../../lib/format.ts';
import { contactName, IdentifierList, IdentityFacts, IDENTITY_WORDS } from './ContactIdentity.tsx';
import { contactKeys, contactsApi } from '../api/contacts.ts';
import { DeleteContactDialog } from './ContactDialogs.tsx';
import { MergeSection } from './MergeSection.tsx';
import { PropertyFields, usePropertyDefs } from './PropertyFields.tsx';
import { CharCount } from '../../../components/ui/CharCount.tsx';

export function ContactPanel({ contactId, labels, onClose, onChanged }: { contactId: string; labels: ChatLabel[]; onClose: () => void; onChanged: () => void }) {
  const { org } = useSession();
  const toast = useToast();
  const qc = useQueryClient();
  const defs = usePropertyDefs(org.org_id);
  const members = useMembers(org.org_id);
  const q = useQuery({ queryKey: contactKeys.detail(org.org_id, contactId), queryFn: () => contactsApi.get(org.org_id, contactId) });
  const c = q.data?.contact;
  const [name, setName] = useState('');
  const [notes, setNotes] = useState('');
  const [labelIds, setLabelIds] = useState<string[]>([]);
  const [props, setProps] = useState<Record<string, string>>({});
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [deleting, setDeleting] = useState(false);

  useEffect(() => {
    if (!c) return;
    setName(c.edited_name ?? '');
    setNotes(c.notes ?? '');
    setLabelIds(c.label_ids);
    setProps(c.custom_properties);
  }, [c]);

  if (q.isError) {
    return (
      <aside className="contact-panel" aria-label="Contact">
        <PanelHead title="Contact" onClose={onClose} />
        <p className="form-error" role="alert">
          {errorMessage(q.error)}
        </p>
      </aside>
    );
  }
  if (!c || !q.data) {
    return (
      <aside className="contact-panel" aria-label="Contact" aria-busy="true">
        <PanelHead title="Contact" onClose={onClose} />
        <p className="muted">Loading…</p>
      </aside>
    );
  }
  const title = contactName(c);
  const propsChanged = JSON.stringify(props) !== JSON.stringify(c.custom_properties);
  const dirty = name !== (c.edited_name ?? '') || notes !== (c.notes ?? '') || labelIds.join() !== c.label_ids.join() || propsChanged;

  async function save(e: FormEvent) {
    e.preventDefault();
    setBusy(true);
    setError(null);
    try {
      const cleared = Object.fromEntries(Object.keys(c!.custom_properties).filter((k) => !(k in props)).map((k) => [k, '']));
      const r = await contactsApi.update(org.org_id, c!.contact_id, { name, notes, label_ids: labelIds, ...(propsChanged ? { custom_properties: { ...cleared, ...props } } : {}) });
      qc.setQueryData<ContactDetail>(contactKeys.detail(org.org_id, contactId), (d) => (d ? { ...d, contact: r.contact } : d));
      onChanged();
      toast.show('Contact saved', 'success');
    } catch (err) {
      setError(errorMessage(err));
    } finally {
      setBusy(false);
    }
  }

  return (
    <aside className="contact-panel" aria-label={`Contact ${title}`} data-testid="contact-panel">
      <PanelHead title={title} onClose={onClose} />
      <div className="contact-panel-body">
        <dl className="contact-facts">
          <IdentityFacts username={c.username} numbers={c.numbers} />
          {c.contact_name && c.edited_name && (
            <>
              <dt>WhatsApp name</dt>
              <dd>{c.contact_name}</dd>
            </>
          )}
          <dt>Last seen</dt>
          <dd title={c.last_seen_at ? exactTime(c.last_seen_at) : undefined}>{c.last_seen_at ? listTime(c.last_seen_at) : 'Never wrote'}</dd>
          {c.updated_by && (
            <>
              <dt>Edited by</dt>
              <dd>{members.find((m) => m.email.toLowerCase() === c.updated_by)?.member_name ?? c.updated_by}</dd>
            </>
          )}
          <dt>Added</dt>
          <dd title={c.created_at ? exactTime(c.created_at) : undefined}>{c.created_at ? listTime(c.created_at) : '—'}</dd>
        </dl>

        <section aria-labelledby="contact-ids-title">
          <h3 id="contact-ids-title">{IDENTITY_WORDS.identifiers}</h3>
          <IdentifierList identifiers={q.data.identifiers} />
        </section>

        <section aria-labelledby="contact-chats-title">
          <h3 id="contact-chats-title">Chats</h3>
          {q.data.chats.length === 0 && <p className="muted small">No chats yet.</p>}
          <ul className="contact-chats">
            {q.data.chats.map((ch) => (
              <li key={`${ch.chat_id}|${ch.org_phone}`}>
                {ch.has_access ? (
                  <Link to={`/chats/${encodeURIComponent(ch.chat_id)}`} data-testid="contact-chat-link">
                    <Icon name="chats" size={16} /> via {formatPhone(ch.org_phone)}
                  </Link>
                ) : (
                  <span className="muted" title="You do not have access to this chat">
                    <Icon name="chats" size={16} /> via {formatPhone(ch.org_phone)}
                  </span>
                )}
                {ch.latest_message_timestamp ? <span className="muted small"> · {listTime(ch.latest_message_timestamp)}</span> : null}
              </li>
            ))}
          </ul>
        </section>

        <MergeSection
          contact={c}
          onChanged={() => {
            void qc.invalidateQueries({ queryKey: contactKeys.detail(org.org_id, contactId) });
            onChanged();
          }}
        />

        <form className="contact-form" onSubmit={(e) => void save(e)}>
          <label className="field">
            <span>Name</span>
            <input type="text" value={name} placeholder={c.contact_name ?? 'Name'} onChange={(e) => setName(e.target.value)} data-testid="contact-edit-name" />
            <CharCount value={name} max={250} field="Name" testId="contact-edit-name-count" />
          </label>
          {labels.length > 0 && (
            <fieldset className="contact-labels">
              <legend>Labels</legend>
              {labels.map((l) => (
                <label key={l.label_id} className="contact-label-check">
                  <input type="checkbox" checked={labelIds.includes(l.label_id)} onChange={(e) => setLabelIds((ids) => (e.target.checked ? [...ids, l.label_id] : ids.filter((x) => x !== l.label_id)))} />
                  <span className="contact-dot" style={{ background: l.color }} aria-hidden="true" /> {l.name}
                </label>
              ))}
            </fieldset>
          )}
          <PropertyFields defs={defs} values={props} onChange={setProps} />
          <label className="field">
            <span>Notes</span>
            <textarea value={notes} rows={4} onChange={(e) => setNotes(e.target.value)} data-testid="contact-edit-notes" />
            <CharCount value={notes} max={5000} field="Notes" testId="contact-edit-notes-count" />
          </label>
          {error && (
            <p className="form-error" role="alert">
              {error}
            </p>
          )}
          <div className="contact-actions">
            <button type="button" className="btn contact-delete" onClick={() => setDeleting(true)} data-testid="contact-delete">
              <Icon name="trash" size={16} /> Delete
            </button>
            <button type="submit" className="btn btn-primary" disabled={!dirty || busy} data-testid="contact-save">
              {busy ? 'Saving…' : 'Save'}
            </button>
          </div>
        </form>
      </div>
      {deleting && (
        <DeleteContactDialog
          name={title}
          onClose={() => setDeleting(false)}
          onConfirm={async () => {
            try {
              await contactsApi.remove(org.org_id, c.contact_id);
              setDeleting(false);
              toast.show('Contact deleted. Its chats and messages are kept.', 'success');
              onChanged();
              onClose();
              return null;
            } catch (err) {
              return errorMessage(err);
            }
          }}
        />
      )}
    </aside>
  );
}

function PanelHead({ title, onClose }: { title: string; onClose: () => void }) {
  return (
    <div className="contact-panel-head">
      <button type="button" className="icon-btn" onClick={onClose} aria-label="Close contact" data-testid="contact-close">
        <Icon name="back" size={20} />
      </button>
      <h2>{title}</h2>
    </div>
  );
}
