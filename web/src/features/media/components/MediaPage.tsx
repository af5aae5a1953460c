/**
 * /media (spec §2 Media; issue 5 "Media viewer"): the org's stored files newest first from
 * GET /media, as a grid (images as thumbnails, video as a play tile, audio, voice notes and
 * documents as tiles with their name and size), filtered by type, chat (a searchable list of the
 * loaded chats) and date range ('DD MMM YY', whole days in the browser's time zone through
 * normalizeDateRange). More pages load with 'Load more' (or on reaching the end); a click opens the
 * viewer as a carousel over the filtered list.
 */
import { useEffect, useMemo, useRef, useState } from 'react';
import { Link } from 'react-router-dom';
import type { LibraryMediaType } from '#shared/media/media.schemas.ts';
import { formatDay, normalizeDateRange } from '#shared/task/task.rules.ts';
import { browserTimeZone, fromDayInput, toDayInput } from '../../tasks/index.ts';
import { useSession } from '../../../app/session.tsx';
import { libraryViewerItem, MediaViewer } from './Media.tsx';
import { MenuButton } from '../../../app/shell/MenuButton.tsx';
import { Tabs } from '../../../components/ui/Tabs.tsx';
import { MediaChatPicker } from './MediaChatPicker.tsx';
import { MediaTile } from './MediaTile.tsx';
import { useMediaLibrary } from '../hooks/useMediaLibrary.ts';
import { useLibrarySettings } from '../api/library-settings.ts';
import './media.css';

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

export function MediaPage() {
  const { org } = useSession();
  const tz = useMemo(() => browserTimeZone(), []);
  const [filters, setFilters] = useState<Filters>(NO_FILTERS);
  // settings/library: the type the library opens on (until the person picks one)
  const libSettings = useLibrarySettings(org.org_id).data;
  const openedOn = useRef(false);
  useEffect(() => {
    if (!libSettings || openedOn.current) return;
    openedOn.current = true;
    const t = libSettings.default_type;
    if (t !== 'all') setFilters((f) => (f.type === '' ? { ...f, type: t } : f));
  }, [libSettings]);
  const [open, setOpen] = useState<number | null>(null);
  const range = dateRange(filters, tz);
  const params = useMemo(
    () => ({ type: filters.type || undefined, chat_id: filters.chatId || undefined, from: range?.from, to: range?.to }),
    [filters.type, filters.chatId, range?.from, range?.to],
  );
  const { status, error, items, hasMore, more, loadMore, retry } = useMediaLibrary(org.org_id, params);
  // new filters: the viewer closes
  useEffect(() => setOpen(null), [params]);

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
  const viewerItems = useMemo(() => items.map(libraryViewerItem), [items]);

  return (
    <div className="page media-page" data-testid="media-page">
      <header className="page-header">
        <MenuButton />
        <h1>Media</h1>
        {status === 'ready' && (
          <span className="muted small" data-testid="media-count">
            {items.length}
            {hasMore ? '+' : ''} {items.length === 1 && !hasMore ? 'file' : 'files'}
          </span>
        )}
      </header>
      <div className="media-filters" role="group" aria-label="Filters">
        <Tabs
          label="Type"
          className="media-types-tabs"
          listClassName="media-types"
          tabClassName="media-type-chip"
          value={filters.type || 'all'}
          onChange={(v) => setFilters((f) => ({ ...f, type: v === 'all' ? '' : (v as LibraryMediaType) }))}
          items={TYPES.map((t) => ({ value: t.value || 'all', label: t.label, testId: `media-type-${t.value || 'all'}` }))}
        />
        <div className="media-filter-row">
          <MediaChatPicker value={filters.chatId} onChange={(chatId) => setFilters((f) => ({ ...f, chatId }))} />
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
        {status === 'loading' && (
          <div className="media-grid" aria-label="Loading media" aria-busy="true">
            {Array.from({ length: 12 }, (_, i) => (
              <div className="media-tile skeleton" key={i} />
            ))}
          </div>
        )}
        {status === 'error' && (
          <div className="state-box" role="alert">
            <p>Could not load media: {error}</p>
            <button type="button" className="btn" onClick={retry}>
              Retry
            </button>
          </div>
        )}
        {status === 'ready' && items.length === 0 && (
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
                <MediaTile item={item} onOpen={() => setOpen(i)} />
              </li>
            ))}
          </ul>
        )}
        {status === 'ready' && hasMore && (
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
        <MediaViewer items={viewerItems} index={open} onIndex={setOpen} onClose={() => setOpen(null)} onEnd={status === 'ready' && hasMore ? loadMore : undefined} />
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
