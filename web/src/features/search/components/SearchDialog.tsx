/**
 * The global search dialog (spec §2, §9; issue 14): opened with Ctrl/Cmd+F or from the box above
 * the chat list. 500 ms debounce, tabs per kind with counts, ↑/↓ and Enter to pick, highlighted
 * snippets, filters (number, label, sender, date range, message type). Choosing a hit opens it
 * (a message, note or media item: its thread scrolled to it and highlighted, loading older pages
 * as needed — useThreadScroll's ?message=) and the dialog closes 500 ms later (1 s for tickets).
 * Hits come through the access guard: chats the member may not open never appear (spec §6), so
 * there is nothing to show a 'no access' tooltip on.
 */
import { Fragment, useEffect, useMemo, useRef, useState, type KeyboardEvent } from 'react';
import { useNavigate } from 'react-router-dom';
import type { SearchItem, SearchKind } from '#shared/search-api/search.schemas.ts';
import { Dialog } from '../../../components/ui/Dialog.tsx';
import { Tabs } from '../../../components/ui/Tabs.tsx';
import { Options } from '../../../components/ui/Options.tsx';
import { useSession } from '../../../app/session.tsx';
import { useChatLabels } from '../../chats/index.ts';
import { errorMessage } from '../../../lib/api.ts';
import { chatIdLabel } from '../../../lib/format.ts';
import { closeDelay, countText, hitPath, KIND_LABELS, KIND_ORDER, type SearchFilters } from '../api/search.ts';
import { useSearch } from '../hooks/useSearch.ts';
import './search.css';

const TYPES = [
  ['', 'Any type'],
  ['text', 'Text'],
  ['image', 'Image'],
  ['video', 'Video'],
  ['audio', 'Audio'],
  ['ptt', 'Voice'],
  ['document', 'Document'],
  ['sticker', 'Sticker'],
  ['location', 'Location'],
] as const;

/** The server's snippet (escaped text, match in <mark>) as React nodes, without innerHTML. */
function Snippet({ html }: { html: string }) {
  const unescape = (s: string) => s.replace(/&lt;/g, '<').replace(/&gt;/g, '>').replace(/&amp;/g, '&');
  const parts = html.split(/<mark>(.*?)<\/mark>/g);
  return (
    <span className="search-snippet">
      {parts.map((p, i) => (i % 2 ? <mark key={i}>{unescape(p)}</mark> : <Fragment key={i}>{unescape(p)}</Fragment>))}
    </span>
  );
}

const when = (ms?: number | null) => (ms ? new Date(ms).toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'short' }) : '');

function titleOf(kind: SearchKind, it: SearchItem): string {
  if (kind === 'tickets' || kind === 'chats' || kind === 'contacts') return it.title ?? chatIdLabel(it.chat_id);
  return it.author || it.sender_phone || chatIdLabel(it.chat_id);
}

export function SearchDialog({ initial, onClose }: { initial: string; onClose: () => void }) {
  const { org } = useSession();
  const labels = useChatLabels(org.org_id);
  const navigate = useNavigate();
  const [text, setText] = useState(initial);
  const [filters, setFilters] = useState<SearchFilters>({});
  const [showFilters, setShowFilters] = useState(false);
  const [kind, setKind] = useState<SearchKind>('messages');
  const [active, setActive] = useState(0);
  const [chosen, setChosen] = useState<string | null>(null);
  const input = useRef<HTMLInputElement>(null);
  const listRef = useRef<HTMLUListElement>(null);
  const s = useSearch(org.org_id, text, filters);
  const results = s.data?.results;
  const items = useMemo(() => results?.[kind]?.items ?? [], [results, kind]);

  // the first tab with hits when a new answer comes and the current one has none
  useEffect(() => {
    if (!results || (results[kind]?.items.length ?? 0) > 0) return;
    const first = KIND_ORDER.find((k) => (results[k]?.items.length ?? 0) > 0);
    if (first) setKind(first);
  }, [results, kind]);
  useEffect(() => setActive(0), [items]);
  useEffect(() => {
    listRef.current?.querySelector<HTMLElement>(`[data-index="${active}"]`)?.scrollIntoView({ block: 'nearest' });
  }, [active]);

  const choose = (it: SearchItem) => {
    const key = `${kind}:${it.ticket_id ?? it.unique_id ?? it.contact_id ?? it.chat_id}`;
    setChosen(key);
    navigate(hitPath(kind, it));
    setTimeout(onClose, closeDelay(kind));
  };

  const onKeyDown = (e: KeyboardEvent) => {
    if (e.key === 'ArrowDown' || e.key === 'ArrowUp') {
      e.preventDefault();
      setActive((a) => Math.max(0, Math.min(items.length - 1, a + (e.key === 'ArrowDown' ? 1 : -1))));
    } else if (e.key === 'Enter' && items[active]) {
      e.preventDefault();
      choose(items[active]);
    } else if ((e.key === 'ArrowRight' || e.key === 'ArrowLeft') && e.altKey) {
      e.preventDefault();
      const i = KIND_ORDER.indexOf(kind);
      setKind(KIND_ORDER[(i + (e.key === 'ArrowRight' ? 1 : KIND_ORDER.length - 1)) % KIND_ORDER.length]!);
    }
  };

  const set = (k: keyof SearchFilters) => (e: { target: { value: string } }) => setFilters((f) => ({ ...f, [k]: e.target.value }));
  const filterCount = Object.values(filters).filter(Boolean).length;

  return (
    <Dialog title="Search" onClose={onClose} testId="search-dialog" className="search-dialog">
      <div className="search-body" onKeyDown={onKeyDown}>
      <div className="search-bar">
        <input
          ref={input}
          autoFocus
          type="search"
          className="input search-input"
          placeholder="Search messages, chats, contacts, notes, tickets, media"
          aria-label="Search"
          aria-controls="search-results"
          aria-activedescendant={items[active] ? `search-hit-${active}` : undefined}
          data-testid="search-input"
          value={text}
          onChange={(e) => setText(e.target.value)}
        />
        <button type="button" className={`btn ${showFilters ? 'active' : ''}`} aria-expanded={showFilters} onClick={() => setShowFilters((v) => !v)} data-testid="search-filters-toggle">
          Filters{filterCount ? ` (${filterCount})` : ''}
        </button>
      </div>
      {showFilters && (
        <div className="search-filters" data-testid="search-filters">
          <label>
            Number
            <select className="input" value={filters.phone_id ?? ''} onChange={set('phone_id')} data-testid="search-filter-phone">
              <Options options={[['', 'Any number'], ...org.phones.map((p) => [p.phone_id, p.org_phone] as const)]} />
            </select>
          </label>
          <label>
            Label
            <select className="input" value={filters.label_id ?? ''} onChange={set('label_id')} data-testid="search-filter-label">
              <Options options={[['', 'Any label'], ...labels.map((l) => [l.label_id, l.name] as const)]} />
            </select>
          </label>
          <label>
            Sender
            <input className="input" value={filters.sender ?? ''} onChange={set('sender')} placeholder="Number, name or email" data-testid="search-filter-sender" />
          </label>
          <label>
            Type
            <select className="input" value={filters.message_type ?? ''} onChange={set('message_type')} data-testid="search-filter-type">
              <Options options={TYPES} />
            </select>
          </label>
          <label>
            From
            <input className="input" type="date" value={filters.from ?? ''} onChange={set('from')} data-testid="search-filter-from" />
          </label>
          <label>
            To
            <input className="input" type="date" value={filters.to ?? ''} onChange={set('to')} data-testid="search-filter-to" />
          </label>
        </div>
      )}
      <Tabs
        label="Result kinds"
        value={kind}
        onChange={(v) => {
          setKind(v as SearchKind);
          input.current?.focus();
        }}
        items={KIND_ORDER.map((k) => ({ value: k, testId: `search-tab-${k}`, label: `${KIND_LABELS[k]}${results ? ` (${countText(results[k]?.items.length ?? 0, !!results[k]?.cursor)})` : ''}` }))}
      />
      <div className="search-results" aria-live="polite">
        {!s.active && <p className="muted small search-hint">Type to search. ↑ ↓ to move, Enter to open, Alt+← → to change tabs.</p>}
        {s.active && s.isError && <p role="alert">Search failed: {errorMessage(s.error)}</p>}
        {s.active && !s.isError && results && !items.length && !s.pending && <p className="muted">No {KIND_LABELS[kind].toLowerCase()} found.</p>}
        {s.active && s.pending && !items.length && <p className="muted small">Searching…</p>}
        <ul id="search-results" role="listbox" aria-label={KIND_LABELS[kind]} ref={listRef} className="search-list">
          {items.map((it, i) => {
            const key = `${kind}:${it.ticket_id ?? it.unique_id ?? it.contact_id ?? it.chat_id}`;
            return (
              <li
                key={key}
                id={`search-hit-${i}`}
                data-index={i}
                role="option"
                aria-selected={i === active}
                className={`search-hit ${i === active ? 'active' : ''} ${chosen === key ? 'chosen' : ''}`}
                data-testid="search-hit"
                onMouseEnter={() => setActive(i)}
                onClick={() => choose(it)}
              >
                <span className="search-hit-head">
                  <strong>{titleOf(kind, it)}</strong>
                  <span className="muted small">{when(it.timestamp)}</span>
                </span>
                <Snippet html={it.snippet} />
              </li>
            );
          })}
        </ul>
      </div>
      </div>
    </Dialog>
  );
}
