/**
 * /media (spec §2 Media; issue 5 "Media viewer"): the org's stored files newest first from
 * GET /media, as a grid (images as thumbnails, video as a play tile, audio, voice notes and
 * documents as tiles with their name and size), filtered by type, chat (a searchable list of the
 * loaded chats) and date range ('DD MMM YY', whole days in the browser's time zone through
 * normalizeDateRange). More pages load with 'Load more' (or on reaching the end); a click opens the
 * viewer as a carousel over the filtered list.
 */
import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { Link } from 'react-router-dom';
import type { LibraryMediaType, MediaItem } from '#shared/media/media.schemas.ts';
import { formatDay, normalizeDateRange } from '#shared/task/task.rules.ts';
import { api, errorMessage } from '../../../lib/api.ts';
import { chatDisplayName, exactTime, MEDIA_NAMES } from '../../../lib/format.ts';
import { fileSize } from '../../chats/index.ts';
import { browserTimeZone, fromDayInput, toDayInput } from '../../tasks/index.ts';
import { useInbox } from '../../../app/inbox.tsx';
import { useSession } from '../../../app/session.tsx';
import { absoluteUrl, libraryViewerItem, MediaViewer } from './Media.tsx';
import { Icon } from '../../../components/ui/Icon.tsx';
import { MenuButton } from '../../../app/shell/MenuButton.tsx';
import './media.css';

const PAGE_SIZE = 60;

/** Type filters, in the order shown. */
const TYPES: Array<{ value: LibraryMediaType | ''; label: string }> = [
  { value: '', label: 'All' },
  { value: 'image', label: 'Images' },
  { value: 'video', label: 'Videos' },
  { value: 'audio', label: 'Audio' },
  { value: 'ptt', label: 'Voice' },
  { value: 'document', label: 'Documents' },
];

interface Filters {
  type: LibraryMediaType | '';
  chatId: string;
  /** 'yyyy-MM-dd' of the date inputs ('' = open end) */
  from: string;
  to: string;
}

const NO_FILTERS: Filters = { type: '', chatId: '', from: '', to: '' };
/** an open end of the date range, ms (100 years) */
const FAR = 100 * 365 * 86_400_000;

/** The filters' date range as inclusive epoch ms (whole days in `tz`), or null when open. */
function dateRange(f: Filters, tz: string): { from: number; to: number } | null {
  const a = fromDayInput(f.from);
  const b = fromDayInput(f.to);
  if (a == null && b == null) return null;
  return normalizeDateRange(a ?? 0, b ?? (a as number) + FAR, tz, 0);
}

type State = { kind: 'loading' } | { kind: 'error'; message: string } | { kind: 'ready'; items: MediaItem[]; cursor: string | null };

export function MediaPage() {
  const { org } = useSession();
  const tz = useMemo(() => browserTimeZone(), []);
  const [filters, setFilters] = useState<Filters>(NO_FILTERS);
  const [state, setState] = useState<State>({ kind: 'loading' });
  const [more, setMore] = useState<{ busy: boolean; error: string | null }>({ busy: false, error: null });
  const [open, setOpen] = useState<number | null>(null);
  const [attempt, setAttempt] = useState(0);
  const range = dateRange(filters, tz);
  const params = useMemo(
    () => ({ type: filters.type || undefined, chat_id: filters.chatId || undefined, from: range?.from, to: range?.to }),
    [filters.type, filters.chatId, range?.from, range?.to],
  );
  const generation = useRef(0);

  useEffect(() => {
    const gen = ++generation.current;
    setState({ kind: 'loading' });
    setMore({ busy: false, error: null });
    setOpen(null);
    api
      .listMedia(org.org_id, { ...params, limit: PAGE_SIZE })
      .then((page) => gen === generation.current && setState({ kind: 'ready', items: page.items, cursor: page.cursor }))
      .catch((e) => gen === generation.current && setState({ kind: 'error', message: errorMessage(e) }));
  }, [org.org_id, params, attempt]);

  const loadMore = useCallback(() => {
    if (state.kind !== 'ready' || !state.cursor || more.busy) return;
    const gen = generation.current;
    setMore({ busy: true, error: null });
    api
      .listMedia(org.org_id, { ...params, limit: PAGE_SIZE, cursor: state.cursor })
      .then((page) => {
        if (gen !== generation.current) return;
        setState((s) => (s.kind === 'ready' ? { kind: 'ready', items: [...s.items, ...page.items.filter((i) => !s.items.some((o) => o.unique_id === i.unique_id))], cursor: page.cursor } : s));
        setMore({ busy: false, error: null });
      })
      .catch((e) => gen === generation.current && setMore({ busy: false, error: errorMessage(e) }));
  }, [state, more.busy, org.org_id, params]);

  // the next page loads on its own when the end of the grid scrolls into view
  const sentinel = useRef<HTMLDivElement>(null);
  useEffect(() => {
    const el = sentinel.current;
    if (!el || typeof IntersectionObserver === 'undefined') return;
    const io = new IntersectionObserver((entries) => entries.some((e) => e.isIntersecting) && !more.error && loadMore(), { rootMargin: '200px' });
    io.observe(el);
    return () => io.disconnect();
  }, [loadMore, more.error]);

  const filtered = filters.type !== '' || filters.chatId !== '' || range != null;
  const items = state.kind === 'ready' ? state.items : [];
  const viewerItems = useMemo(() => items.map(libraryViewerItem), [items]);

  return (
    <div className="page media-page" data-testid="media-page">
      <header className="page-header">
        <MenuButton />
        <h1>Media</h1>
        {state.kind === 'ready' && (
          <span className="muted small" data-testid="media-count">
            {items.length}
            {state.cursor ? '+' : ''} {items.length === 1 && !state.cursor ? 'file' : 'files'}
          </span>
        )}
      </header>
      <div className="media-filters" role="group" aria-label="Filters">
        <div className="media-types" role="radiogroup" aria-label="Type">
          {TYPES.map((t) => (
            <button
              key={t.value || 'all'}
              type="button"
              role="radio"
              aria-checked={filters.type === t.value}
              className={`media-type-chip ${filters.type === t.value ? 'active' : ''}`}
              data-testid={`media-type-${t.value || 'all'}`}
              onClick={() => setFilters((f) => ({ ...f, type: t.value }))}
            >
              {t.label}
            </button>
          ))}
        </div>
        <div className="media-filter-row">
          <ChatPicker value={filters.chatId} onChange={(chatId) => setFilters((f) => ({ ...f, chatId }))} />
          <div className="media-dates">
            <input
              type="date"
              aria-label="From date"
              data-testid="media-from"
              value={filters.from}
              onChange={(e) => {
                const from = e.target.value;
                setFilters((f) => orderedDays({ ...f, from }, tz));
              }}
            />
            <span aria-hidden="true">–</span>
            <input
              type="date"
              aria-label="To date"
              data-testid="media-to"
              value={filters.to}
              onChange={(e) => {
                const to = e.target.value;
                setFilters((f) => orderedDays({ ...f, to }, tz));
              }}
            />
          </div>
          {range && (
            <span className="muted small" data-testid="media-range">
              {filters.from ? formatDay(range.from, tz) : 'Any time'} – {filters.to ? formatDay(range.to, tz) : 'any time'}
            </span>
          )}
          {filtered && (
            <button type="button" className="link-btn" data-testid="media-clear" onClick={() => setFilters(NO_FILTERS)}>
              Clear filters
            </button>
          )}
        </div>
      </div>

      <div className="media-body">
        {state.kind === 'loading' && (
          <div className="media-grid" aria-label="Loading media" aria-busy="true">
            {Array.from({ length: 12 }, (_, i) => (
              <div className="media-tile skeleton" key={i} />
            ))}
          </div>
        )}
        {state.kind === 'error' && (
          <div className="state-box" role="alert">
            <p>Could not load media: {state.message}</p>
            <button type="button" className="btn" onClick={() => setAttempt((n) => n + 1)}>
              Retry
            </button>
          </div>
        )}
        {state.kind === 'ready' && items.length === 0 && (
          <div className="state-box empty" data-testid="media-empty">
            {filtered ? (
              <>
                <p>No media matches these filters.</p>
                <button type="button" className="btn" onClick={() => setFilters(NO_FILTERS)}>
                  Clear filters
                </button>
              </>
            ) : (
              <>
                <p>No media yet. Photos, videos, voice messages and documents from your chats will appear here.</p>
                <Link className="btn" to="/chats">
                  Go to chats
                </Link>
              </>
            )}
          </div>
        )}
        {items.length > 0 && (
          <ul className="media-grid" aria-label="Media files" data-testid="media-grid">
            {items.map((item, i) => (
              <li key={`${item.chat_id}|${item.unique_id}`}>
                <Tile item={item} onOpen={() => setOpen(i)} />
              </li>
            ))}
          </ul>
        )}
        {state.kind === 'ready' && state.cursor && (
          <div className="media-more" ref={sentinel}>
            {more.error && (
              <span className="form-error small" role="alert">
                Could not load more: {more.error}
              </span>
            )}
            <button type="button" className="btn" data-testid="media-load-more" disabled={more.busy} onClick={loadMore}>
              {more.busy ? 'Loading…' : more.error ? 'Try again' : 'Load more'}
            </button>
          </div>
        )}
      </div>
      {open != null && viewerItems[open] && (
        <MediaViewer items={viewerItems} index={open} onIndex={setOpen} onClose={() => setOpen(null)} onEnd={state.kind === 'ready' && state.cursor ? loadMore : undefined} />
      )}
    </div>
  );
}

/** Both date inputs in order (a range given backwards is swapped, spec §9). */
function orderedDays(f: Filters, tz: string): Filters {
  const a = fromDayInput(f.from);
  const b = fromDayInput(f.to);
  if (a == null || b == null) return f;
  const r = normalizeDateRange(a, b, tz);
  return { ...f, from: toDayInput(r.from), to: toDayInput(r.to) };
}

function Tile({ item, onOpen }: { item: MediaItem; onOpen: () => void }) {
  const name = MEDIA_NAMES[item.message_type] ?? item.message_type;
  const visual = item.message_type === 'image' || item.message_type === 'video';
  // a video's tile shows its frame when the server made one (ffmpeg)
  const src = item.message_type === 'image' ? (item.thumbnail_url ?? item.url) : item.message_type === 'video' ? item.thumbnail_url : null;
  const label = `Open ${name.toLowerCase()}${item.filename ? ` ${item.filename}` : ''} from ${item.chat_name || item.chat_id}`;
  return (
    <button type="button" className={`media-tile ${visual ? 'visual' : 'file'}`} data-testid="media-tile" data-type={item.message_type} aria-label={label} title={exactTime(item.timestamp)} onClick={onOpen}>
      {visual ? (
        <span className="media-tile-visual">
          {src ? <img src={absoluteUrl(src)} alt="" loading="lazy" decoding="async" /> : null}
          {item.message_type === 'video' && (
            <span className="media-play" aria-hidden="true">
              ▶
            </span>
          )}
        </span>
      ) : (
        <span className="media-tile-file">
          <span className="media-tile-icon" aria-hidden="true">
            {item.message_type === 'ptt' ? '🎤' : item.message_type === 'audio' ? '🎵' : <Icon name="file" size={28} />}
          </span>
          <span className="media-tile-name">{item.filename ?? name}</span>
          <span className="media-tile-size">{[fileSize(item.size), item.message_type === 'document' ? null : name].filter(Boolean).join(' · ')}</span>
        </span>
      )}
      <span className="media-tile-meta">
        <span className="media-tile-chat">{item.chat_name || item.chat_id.split('@')[0]}</span>
        <span className="media-tile-date">{formatDay(item.timestamp)}</span>
      </span>
    </button>
  );
}

/** A chat filter: a button naming the chosen chat that opens a searchable list of the loaded chats. */
function ChatPicker({ value, onChange }: { value: string; onChange: (chatId: string) => void }) {
  const inbox = useInbox();
  const [open, setOpen] = useState(false);
  const [q, setQ] = useState('');
  const [active, setActive] = useState(0);
  const boxRef = useRef<HTMLDivElement>(null);
  const chosen = inbox.chats.find((c) => c.chat_id === value);
  const matches = useMemo(() => {
    const needle = q.trim().toLowerCase();
    const list = inbox.chats.filter((c) => !needle || chatDisplayName(c).toLowerCase().includes(needle) || c.chat_id.includes(needle));
    return list.slice(0, 50);
  }, [inbox.chats, q]);

  useEffect(() => {
    if (!open) return;
    const onDown = (e: MouseEvent) => {
      if (!boxRef.current?.contains(e.target as Node)) setOpen(false);
    };
    document.addEventListener('mousedown', onDown);
    return () => document.removeEventListener('mousedown', onDown);
  }, [open]);
  useEffect(() => setActive(0), [q]);

  const pick = (chatId: string) => {
    onChange(chatId);
    setOpen(false);
    setQ('');
  };

  return (
    <div className="media-chat-picker" ref={boxRef}>
      <button type="button" className="btn media-chat-button" aria-haspopup="listbox" aria-expanded={open} data-testid="media-chat" onClick={() => setOpen((o) => !o)}>
        <span className="media-chat-label">{value ? (chosen ? chatDisplayName(chosen) : value.split('@')[0]) : 'All chats'}</span>
        <span aria-hidden="true">▾</span>
      </button>
      {open && (
        <div className="media-chat-pop" role="dialog" aria-label="Filter by chat">
          <input
            autoFocus
            type="search"
            placeholder="Search chats"
            aria-label="Search chats"
            aria-controls="media-chat-list"
            data-testid="media-chat-search"
            value={q}
            onChange={(e) => setQ(e.target.value)}
            onKeyDown={(e) => {
              if (e.key === 'ArrowDown') setActive((i) => Math.min(matches.length, i + 1));
              else if (e.key === 'ArrowUp') setActive((i) => Math.max(0, i - 1));
              else if (e.key === 'Enter') pick(active === 0 ? '' : (matches[active - 1]?.chat_id ?? ''));
              else if (e.key === 'Escape') setOpen(false);
              else return;
              e.preventDefault();
              e.stopPropagation();
            }}
          />
          <ul id="media-chat-list" role="listbox" aria-label="Chats">
            <li role="option" aria-selected={value === ''} className={active === 0 ? 'active' : ''} onMouseDown={(e) => e.preventDefault()} onClick={() => pick('')}>
              All chats
            </li>
            {matches.map((c, i) => (
              <li key={c.chat_id} role="option" aria-selected={value === c.chat_id} className={active === i + 1 ? 'active' : ''} onMouseDown={(e) => e.preventDefault()} onClick={() => pick(c.chat_id)}>
                {chatDisplayName(c)}
              </li>
            ))}
            {matches.length === 0 && <li className="muted">No loaded chat matches.</li>}
          </ul>
          {inbox.cursor && (
            <button type="button" className="link-btn small" disabled={inbox.loadingMore} onClick={inbox.loadMore}>
              {inbox.loadingMore ? 'Loading chats…' : 'Load more chats'}
            </button>
          )}
        </div>
      )}
    </div>
  );
}
