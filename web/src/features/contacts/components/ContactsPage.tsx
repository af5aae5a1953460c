/**
 * /contacts (spec §2; issue 15): the org's contacts as a virtualized list (TanStack Virtual, as the
 * chat list) with search by name, number and property value, filters by label, org number and
 * last-seen range, sorting, and a contact panel (details, chats on each number, edit, delete).
 * Members reach it per member_permissions.contacts (PageGate in app/App.tsx; the API says 403 too).
 * Phone-width screens show one pane at a time (the list, or the open contact with a back button).
 */
import { useEffect, useMemo, useRef, useState } from 'react';
import { useVirtualizer } from '@tanstack/react-virtual';
import { useSearchParams } from 'react-router-dom';
import type { ContactView } from '#shared/contact/contact.schemas.ts';
import { useSession } from '../../../app/session.tsx';
import { MenuButton } from '../../../app/shell/MenuButton.tsx';
import { Icon } from '../../../components/ui/Icon.tsx';
import { ListSkeleton, LoadError } from '../../../components/ui/ListStates.tsx';
import { avatarHue, formatPhone, initials, listTime } from '../../../lib/format.ts';
import { useMediaQuery } from '../../../lib/useMediaQuery.ts';
import { useLabels } from '../hooks/useLabels.ts';
import { downloadContactsCsv, type ContactFilters } from '../api/contacts.ts';
import { useToast } from '../../../app/toast.tsx';
import { errorMessage } from '../../../lib/api.ts';
import { useContacts } from '../hooks/useContacts.ts';
import { ContactPanel } from './ContactPanel.tsx';
import { contactName, IDENTITY_WORDS } from './ContactIdentity.tsx';
import { CreateContactDialog } from './ContactDialogs.tsx';
import { ImportDialog } from './ImportDialog.tsx';
import { usePropertyDefs } from './PropertyFields.tsx';
import './contacts.css';

const ROW_HEIGHT = 64;
const DAY = 86_400_000;
const SEEN: Array<{ value: string; label: string }> = [
  { value: '', label: 'Any time' },
  { value: '1', label: 'Last 24 hours' },
  { value: '7', label: 'Last 7 days' },
  { value: '30', label: 'Last 30 days' },
  { value: '-30', label: 'Not in 30 days' },
];

/** The seen filter as an epoch-ms range. */
function seenRange(v: string, now: number): { seen_from?: number; seen_to?: number } {
  if (!v) return {};
  const days = Number(v);
  return days > 0 ? { seen_from: now - days * DAY } : { seen_to: now + days * DAY };
}

export { contactName };

function ContactRow({ c, selected, onOpen, labelColor }: { c: ContactView; selected: boolean; onOpen: () => void; labelColor: (id: string) => string | undefined }) {
  const name = contactName(c);
  return (
    <button type="button" className={`contact-row ${selected ? 'selected' : ''}`} onClick={onOpen} aria-current={selected || undefined} data-testid="contact-row">
      <span className="contact-avatar" style={{ ['--avatar-hue' as string]: String(avatarHue(c.contact_id)) }} aria-hidden="true">
        {initials(name)}
      </span>
      <span className="contact-main">
        <span className="contact-name">{name}</span>
        <span className="contact-sub">
          {c.display_name ? (c.phone ? formatPhone(c.phone) : c.username && c.username !== c.display_name ? c.username : IDENTITY_WORDS.numberNotShared) : c.source === 'manual' ? 'Added by hand' : 'WhatsApp'}
          {c.label_ids.map((l) => (labelColor(l) ? <span key={l} className="contact-dot" style={{ background: labelColor(l) }} aria-hidden="true" /> : null))}
        </span>
      </span>
      <span className="contact-seen muted small" title={c.last_seen_at ? new Date(c.last_seen_at).toLocaleString() : 'Never wrote'}>
        {c.last_seen_at ? listTime(c.last_seen_at) : '—'}
      </span>
    </button>
  );
}

export function ContactsPage() {
  const { org } = useSession();
  const labels = useLabels(org.org_id);
  const narrow = useMediaQuery('(max-width: 760px)');
  const [params, setParams] = useSearchParams();
  const [text, setText] = useState(params.get('q') ?? '');
  const [creating, setCreating] = useState(false);
  const [exporting, setExporting] = useState(false);
  const [importing, setImporting] = useState(false);
  const importDefs = usePropertyDefs(org.org_id);
  const toast = useToast();
  const selected = params.get('contact');
  const seen = params.get('seen') ?? '';
  const [now] = useState(() => Date.now());

  // the search box waits for a pause in typing
  useEffect(() => {
    const t = setTimeout(() => set('q', text.trim()), 250);
    return () => clearTimeout(t);
  }, [text]);

  function set(key: string, value: string | null) {
    setParams(
      () => {
        // from the URL as it is now: react-router hands the updater the params of the last render, so
        // two updates before a render (the search box's debounce and opening a new contact) undid each other
        const n = new URLSearchParams(window.location.search);
        if (value) n.set(key, value);
        else n.delete(key);
        return n;
      },
      { replace: true },
    );
  }

  const filters: ContactFilters = useMemo(
    () => ({
      q: params.get('q') || undefined,
      label_id: params.get('label') || undefined,
      phone_id: params.get('phone') || undefined,
      sort: (params.get('sort') as ContactFilters['sort']) || 'name',
      ...seenRange(seen, now),
    }),
    [params, seen, now],
  );
  const list = useContacts(org.org_id, filters);
  const parentRef = useRef<HTMLDivElement>(null);
  const footer = list.hasMore;
  const virtualizer = useVirtualizer({
    count: list.contacts.length + (footer ? 1 : 0),
    getScrollElement: () => parentRef.current,
    estimateSize: () => ROW_HEIGHT,
    overscan: 10,
    getItemKey: (i) => list.contacts[i]?.contact_id ?? '__footer__',
  });
  const items = virtualizer.getVirtualItems();
  const lastIndex = items.length ? items[items.length - 1].index : -1;
  useEffect(() => {
    if (list.status === 'ready' && list.hasMore && !list.loadingMore && lastIndex >= list.contacts.length - 5) list.loadMore();
  }, [list, lastIndex]);

  const labelColor = (id: string) => labels.find((l) => l.label_id === id)?.color;
  const filtered = !!(filters.q || filters.label_id || filters.phone_id || seen);
  const showList = !narrow || !selected;
  const showPanel = !!selected && (!narrow || !!selected);

  return (
    <div className="page contacts-page" data-testid="contacts-page">
      <header className="page-header">
        <MenuButton />
        <h1>Contacts</h1>
        <button type="button" className="btn contacts-import" onClick={() => setImporting(true)} aria-label="Import CSV" data-testid="contact-import-open">
          <Icon name="upload" size={16} /> <span className="contacts-btn-text">Import CSV</span>
        </button>
        <button
          type="button"
          className="btn contacts-export"
          disabled={exporting}
          title="Download the contacts this list shows (its search and filters) as a CSV file"
          onClick={() => {
            setExporting(true);
            downloadContactsCsv(org.org_id, filters)
              .then(() => toast.show('Contacts exported', 'success'))
              .catch((e: unknown) => toast.show(`Export failed: ${errorMessage(e)}`, 'error'))
              .finally(() => setExporting(false));
          }}
          aria-label="Export CSV"
          data-testid="contact-export"
        >
          <Icon name="download" size={16} /> <span className="contacts-btn-text">{exporting ? 'Exporting…' : 'Export CSV'}</span>
        </button>
        <button type="button" className="btn btn-primary contacts-new" onClick={() => setCreating(true)} aria-label="New contact" data-testid="contact-new">
          <Icon name="plus" size={16} /> <span className="contacts-new-text">New contact</span>
        </button>
      </header>
      <div className="contacts-body">
        {showList && (
          <section className="contacts-list-pane" aria-label="Contact list">
            <div className="contacts-toolbar">
              <label className="contacts-search">
                <span className="visually-hidden">Search contacts</span>
                <input type="search" value={text} placeholder="Search by name, number or property" onChange={(e) => setText(e.target.value)} data-testid="contact-search" />
              </label>
              <div className="contacts-filters">
                <select aria-label="Label" value={filters.label_id ?? ''} onChange={(e) => set('label', e.target.value)} data-testid="contact-filter-label">
                  <option value="">All labels</option>
                  {labels.map((l) => (
                    <option key={l.label_id} value={l.label_id}>
                      {l.name}
                    </option>
                  ))}
                </select>
                {org.phones.length > 1 && (
                  <select aria-label="Number" value={filters.phone_id ?? ''} onChange={(e) => set('phone', e.target.value)}>
                    <option value="">All numbers</option>
                    {org.phones.map((p) => (
                      <option key={p.phone_id} value={p.phone_id}>
                        {formatPhone(p.org_phone)}
                      </option>
                    ))}
                  </select>
                )}
                <select aria-label="Last seen" value={seen} onChange={(e) => set('seen', e.target.value)} data-testid="contact-filter-seen">
                  {SEEN.map((s) => (
                    <option key={s.value} value={s.value}>
                      {s.label}
                    </option>
                  ))}
                </select>
                <select aria-label="Sort" value={filters.sort} onChange={(e) => set('sort', e.target.value === 'name' ? null : e.target.value)} data-testid="contact-sort">
                  <option value="name">Name A–Z</option>
                  <option value="last_seen">Last seen</option>
                  <option value="created">Newest</option>
                </select>
              </div>
            </div>
            {list.status === 'loading' && <ListSkeleton rows={8} label="Loading contacts" avatar />}
            {list.status === 'error' && <LoadError what="contacts" error={list.error} onRetry={list.retry} />}
            {list.status === 'ready' && list.contacts.length === 0 && (
              <p className="contacts-empty muted" data-testid="contacts-empty">
                {filtered ? 'No contacts match. Clear the search or filters to see everyone.' : 'No contacts yet. A contact is created when a customer first writes, or add one with New contact.'}
              </p>
            )}
            {list.status === 'ready' && list.contacts.length > 0 && (
              <div className="contacts-scroll" ref={parentRef} data-testid="contact-list">
                <div style={{ height: virtualizer.getTotalSize(), position: 'relative' }}>
                  {items.map((it) => {
                    const c = list.contacts[it.index];
                    return (
                      <div key={it.key} className="contact-slot" style={{ transform: `translateY(${it.start}px)`, height: it.size }}>
                        {c ? (
                          <ContactRow c={c} selected={c.contact_id === selected} onOpen={() => set('contact', c.contact_id)} labelColor={labelColor} />
                        ) : (
                          <div className="contacts-more muted small">{list.loadingMore ? 'Loading more…' : ''}</div>
                        )}
                      </div>
                    );
                  })}
                </div>
              </div>
            )}
          </section>
        )}
        {showPanel && selected && <ContactPanel key={selected} contactId={selected} labels={labels} onClose={() => set('contact', null)} onChanged={list.refresh} />}
        {!narrow && !selected && (
          <div className="contacts-placeholder muted" aria-hidden="true">
            <Icon name="contacts" size={40} />
            <p>Select a contact to see their chats on every number, labels and notes.</p>
          </div>
        )}
      </div>
      {importing && <ImportDialog orgId={org.org_id} defs={importDefs} onClose={() => setImporting(false)} onChanged={() => list.refresh()} />}
      {creating && (
        <CreateContactDialog
          orgId={org.org_id}
          onClose={() => setCreating(false)}
          onCreated={(c) => {
            setCreating(false);
            list.refresh();
            set('contact', c.contact_id);
          }}
        />
      )}
    </div>
  );
}
