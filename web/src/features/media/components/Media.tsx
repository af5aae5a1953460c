/**
 * Inbound media in a bubble (spec §9: thumbnails 120x80; viewer for image, video, audio, ptt,
 * document). The message's `media.status` says what to draw: absent, 'pending' or 'retrying' =
 * downloading (with the reason while retrying), 'failed' = the reason in words, 'stored' = the
 * file, whose short-lived URLs come from GET …/messages/{unique_id}/media (fetched when shown and
 * again once they expire).
 * - image / sticker: the 120x80 thumbnail (the file itself when there is no thumbnail); click
 *   opens the lightbox (zoom up to 4x the device pixel ratio, Esc closes);
 * - video: a 120x80 play tile opening the viewer with a player;
 * - audio / ptt: an inline <audio> player;
 * - document: a file row with Download (fetched and saved under its file name; spec §8 toasts).
 * The viewer is a carousel: opened from a bubble it walks the chat's files (GET /media?chat_id=…,
 * oldest on the left); the /media page opens it over its filtered list (web/src/media/MediaPage.tsx).
 */
import { useCallback, useEffect, useLayoutEffect, useRef, useState, type ReactNode } from 'react';
import { createPortal } from 'react-dom';
import type { Message } from '#shared/message/message.schemas.ts';
import type { MediaUrlResponse } from '#shared/media/media.schemas.ts';
import type { MediaItem } from '#shared/media/media.schemas.ts';
import { api, errorMessage } from '../../../lib/api.ts';
import './media.css';
import { getConfig } from '../../../lib/config.ts';
import { fileSize } from '../../chats/index.ts';
import { exactTime, MEDIA_NAMES } from '../../../lib/format.ts';
import { useSession } from '../../../app/session.tsx';
import { useToast } from '../../../app/toast.tsx';
import { Icon } from '../../../components/ui/Icon.tsx';

export const DOWNLOAD_OK = 'Media downloaded successfully!';
export const DOWNLOAD_FAILED = 'Error in downloading media';
/** spec §9 'Lightbox zoom max 4 times pixel ratio' */
const MAX_ZOOM_PIXEL_RATIO = 4;

/** A URL from the media endpoint as the browser can load it (the local store answers with a path). */
export function absoluteUrl(url: string): string {
  if (/^(https?:|blob:|data:)/i.test(url)) return url;
  const base = getConfig().apiUrl || window.location.origin;
  return new URL(url, base.endsWith('/') ? base : `${base}/`).toString();
}

/** What a download or URL fetch needs of a message (a Message, or a media library item). */
export interface MediaRef {
  chat_id: string;
  unique_id: string;
  media?: { status?: string | null; path?: string | null; filename?: string | null } | null;
}

const cache = new Map<string, Promise<MediaUrlResponse>>();
const cacheKey = (m: MediaRef) => `${m.chat_id}|${m.unique_id}|${m.media?.status ?? ''}|${m.media?.path ?? ''}`;

/** The media URLs of a message, shared between its bubble and viewer until they expire. */
function mediaUrls(orgId: string, m: MediaRef, fresh = false): Promise<MediaUrlResponse> {
  const key = cacheKey(m);
  const hit = cache.get(key);
  if (hit && !fresh) return hit;
  const p = api.mediaUrl(orgId, m.chat_id, m.unique_id).then((r) => {
    // forget it shortly before the URLs stop working
    const ttl = r.expires_at ? Math.max(5_000, r.expires_at - Date.now() - 30_000) : 5_000;
    setTimeout(() => {
      if (cache.get(key) === p) cache.delete(key);
    }, ttl);
    return r;
  });
  p.catch(() => cache.delete(key));
  cache.set(key, p);
  return p;
}

/** Fetch a message's file and save it under its name. @throws when there is no file or it cannot be fetched */
export async function downloadMessageMedia(orgId: string, m: MediaRef): Promise<void> {
  const r = await mediaUrls(orgId, m, true);
  if (!r.url) throw new Error(r.error ?? 'The file is not downloaded yet.');
  const res = await fetch(absoluteUrl(r.url));
  if (!res.ok) throw new Error(`HTTP ${res.status}`);
  const blob = await res.blob();
  const href = URL.createObjectURL(blob);
  const a = document.createElement('a');
  a.href = href;
  a.download = r.filename || m.media?.filename || `${m.unique_id}`;
  a.rel = 'noopener';
  document.body.appendChild(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(href), 30_000);
}

/** Download with the spec §8 toasts. */
export function useDownload(): (m: MediaRef) => Promise<void> {
  const { org } = useSession();
  const toast = useToast();
  return useCallback(
    async (m: MediaRef) => {
      try {
        await downloadMessageMedia(org.org_id, m);
        toast.show(DOWNLOAD_OK, 'success');
      } catch (e) {
        console.warn('media download failed', errorMessage(e));
        toast.show(DOWNLOAD_FAILED, 'error');
      }
    },
    [org.org_id, toast],
  );
}

type UrlState = { kind: 'loading' } | { kind: 'ready'; r: MediaUrlResponse } | { kind: 'error'; message: string };

function useMediaUrls(m: Message, enabled: boolean): [UrlState, () => void] {
  const { org } = useSession();
  const [state, setState] = useState<UrlState>({ kind: 'loading' });
  const [attempt, setAttempt] = useState(0);
  const key = cacheKey(m);
  useEffect(() => {
    if (!enabled) return;
    let live = true;
    setState({ kind: 'loading' });
    mediaUrls(org.org_id, m, attempt > 0)
      .then((r) => live && setState({ kind: 'ready', r }))
      .catch((e) => live && setState({ kind: 'error', message: errorMessage(e) }));
    return () => {
      live = false;
    };
    // (the key covers the message fields that change the URLs)
  }, [org.org_id, key, enabled, attempt]);
  return [state, () => setAttempt((n) => n + 1)];
}

function Caption({ text }: { text: string | null | undefined }) {
  return text ? <p className="msg-text media-caption">{text}</p> : null;
}

/** The download state of a message's file as the bubble shows it. */
export function mediaState(m: Message): 'downloading' | 'failed' | 'stored' {
  const s = m.media?.status;
  if (s === 'failed') return 'failed';
  if (s === 'stored' || (!s && m.media?.path)) return 'stored';
  return 'downloading';
}

export function MediaBody({ m }: { m: Message }) {
  const type = m.message_type;
  const media = m.media ?? {};
  const state = mediaState(m);
  const caption = media.caption ?? (m.body && m.body !== media.filename ? m.body : null);
  const name = MEDIA_NAMES[type] ?? type;
  const [urls, retry] = useMediaUrls(m, state === 'stored');
  const [viewer, setViewer] = useState(false);
  const download = useDownload();
  const [downloading, setDownloading] = useState(false);

  if (!media.media_id && !media.path) {
    return (
      <>
        <div className="media-card" data-testid="media" data-state="none">
          <span className="media-icon" aria-hidden="true">
            <Icon name="file" />
          </span>
          <div className="media-info">
            <div className="media-type">{name}</div>
            <div className="media-note">No file was sent with this message.</div>
          </div>
        </div>
        <Caption text={caption} />
      </>
    );
  }

  if (state !== 'stored') {
    const failed = state === 'failed';
    return (
      <>
        <div className={`media-card ${failed ? 'media-failed' : ''}`} data-testid="media" data-state={state}>
          <span className="media-icon" aria-hidden="true">
            {failed ? '⚠️' : <span className="spinner" />}
          </span>
          <div className="media-info">
            <div className="media-type">
              {name}
              {media.filename ? <span className="media-detail"> · {media.filename}</span> : null}
            </div>
            {failed ? (
              <div className="media-error" role="note">
                {media.error ?? 'Chorus could not download this file from WhatsApp.'}
              </div>
            ) : (
              <>
                <div className="media-note" aria-live="polite">
                  Downloading…
                </div>
                {media.status === 'retrying' && media.error && <div className="media-detail">{media.error}</div>}
              </>
            )}
          </div>
        </div>
        <Caption text={caption} />
      </>
    );
  }

  const r = urls.kind === 'ready' ? urls.r : null;
  const urlError =
    urls.kind === 'error' ? (
      <div className="media-error" role="note">
        Could not load this file: {urls.message}{' '}
        <button type="button" className="link-btn" onClick={retry}>
          Retry
        </button>
      </div>
    ) : null;

  let body: ReactNode;
  if (type === 'image' || type === 'sticker' || type === 'video') {
    // videos show their 120x80 frame when the server made one (ffmpeg), else just the play mark
    const src = r ? (type === 'video' ? r.thumbnail_url : (r.thumbnail_url ?? r.url)) : null;
    body = (
      <button
        type="button"
        className={`media-thumb ${type === 'sticker' ? 'sticker' : ''}`}
        data-testid="media-thumb"
        aria-label={`Open ${name.toLowerCase()}${media.filename ? ` ${media.filename}` : ''}`}
        disabled={!r?.url}
        onClick={() => setViewer(true)}
      >
        {src ? <img src={absoluteUrl(src)} alt={caption ?? name} width={120} height={80} loading="lazy" decoding="async" /> : null}
        {type === 'video' && <span className="media-play" aria-hidden="true">▶</span>}
        {!r && urls.kind === 'loading' && <span className="spinner" aria-label="Loading" />}
      </button>
    );
  } else if (type === 'audio' || type === 'ptt') {
    body = (
      <div className="media-audio">
        <span className="media-icon small" aria-hidden="true">
          {type === 'ptt' ? '🎤' : '🎵'}
        </span>
        {r?.url ? <audio controls preload="metadata" src={absoluteUrl(r.url)} aria-label={name} data-testid="media-audio" /> : <span className="media-note">Loading…</span>}
      </div>
    );
  } else {
    const filename = r?.filename ?? media.filename ?? 'Document';
    body = (
      <div className="media-card media-doc" data-testid="media-document">
        <span className="media-icon" aria-hidden="true">
          <Icon name="file" />
        </span>
        <div className="media-info">
          <div className="media-type" title={filename}>
            <span className="media-filename">{filename}</span>
          </div>
          <div className="media-detail">{[fileSize(r?.size ?? media.size), (r?.mimetype ?? media.mimetype ?? '').split(';')[0]].filter(Boolean).join(' · ')}</div>
        </div>
        <button
          type="button"
          className="btn btn-small"
          data-testid="media-download"
          disabled={downloading}
          onClick={async () => {
            setDownloading(true);
            await download(m);
            setDownloading(false);
          }}
        >
          {downloading ? 'Downloading…' : 'Download'}
        </button>
      </div>
    );
  }

  return (
    <>
      <div className="media" data-testid="media" data-state="stored">
        {body}
        {urlError}
      </div>
      <Caption text={caption} />
      {viewer && r?.url && <ChatMediaViewer m={m} urls={r} onClose={() => setViewer(false)} />}
    </>
  );
}

/** One file the viewer shows: a media library item, or a message with its URLs. */
export interface ViewerItem {
  chat_id: string;
  unique_id: string;
  message_type: string;
  filename: string | null;
  caption: string | null;
  mimetype: string | null;
  /** bytes */
  size: number | null;
  /** epoch ms of the message, when known */
  timestamp: number | null;
  chat_name: string | null;
  url: string | null;
  thumbnail_url: string | null;
  /** epoch ms after which the URLs stop working (null: unknown, fetch again when shown) */
  expires_at: number | null;
}

/** A media library item as the viewer shows it. */
export const libraryViewerItem = (i: MediaItem): ViewerItem => ({
  chat_id: i.chat_id,
  unique_id: i.unique_id,
  message_type: i.message_type,
  filename: i.filename,
  caption: i.caption,
  mimetype: i.mimetype,
  size: i.size,
  timestamp: i.timestamp,
  chat_name: i.chat_name,
  url: i.url,
  thumbnail_url: i.thumbnail_url,
  expires_at: i.expires_at,
});

const messageViewerItem = (m: Message, r: MediaUrlResponse): ViewerItem => ({
  chat_id: m.chat_id,
  unique_id: m.unique_id,
  message_type: m.message_type,
  filename: r.filename ?? m.media?.filename ?? null,
  caption: m.media?.caption ?? null,
  mimetype: r.mimetype,
  size: r.size,
  timestamp: m.timestamp,
  chat_name: null,
  url: r.url,
  thumbnail_url: r.thumbnail_url,
  expires_at: r.expires_at,
});

/** Library pages read at most when the viewer gathers a chat's files around the one opened. */
const CHAT_MEDIA_PAGES = 5;

/**
 * The viewer opened from a chat bubble: a carousel over the chat's files (GET /media?chat_id=…),
 * oldest on the left as in WhatsApp, starting at the message opened. Until the list arrives (or
 * when the message is not in it) it shows just that message.
 */
export function ChatMediaViewer({ m, urls, onClose }: { m: Message; urls: MediaUrlResponse; onClose: () => void }) {
  const { org } = useSession();
  const first = messageViewerItem(m, urls);
  const [items, setItems] = useState<ViewerItem[]>([first]);
  const [index, setIndex] = useState(0);
  useEffect(() => {
    let live = true;
    void (async () => {
      const all: MediaItem[] = [];
      let cursor: string | null = null;
      try {
        for (let n = 0; n < CHAT_MEDIA_PAGES; n++) {
          const page = await api.listMedia(org.org_id, { chat_id: m.chat_id, limit: 200, cursor });
          all.push(...page.items);
          cursor = page.cursor;
          if (!cursor || all.some((i) => i.unique_id === m.unique_id)) break;
        }
      } catch (e) {
        console.warn('chat media list failed', errorMessage(e));
        return;
      }
      if (!live) return;
      const list = all.reverse().map(libraryViewerItem);
      const at = list.findIndex((i) => i.unique_id === m.unique_id);
      if (at < 0) return; // not in the library (e.g. a sticker): the viewer shows just this file
      list[at] = first;
      setItems(list);
      setIndex(at);
    })();
    return () => {
      live = false;
    };
    // once per opening
  }, []);
  return <MediaViewer items={items} index={index} onIndex={setIndex} onClose={onClose} />;
}

/** The item's URLs, fetched again when they expired (or are about to) while the viewer is open. */
function useFreshItem(item: ViewerItem): { item: ViewerItem; error: string | null } {
  const { org } = useSession();
  const stale = !item.url || item.expires_at == null || item.expires_at - Date.now() < 15_000;
  const [fresh, setFresh] = useState<{ key: string; item: ViewerItem } | null>(null);
  const [error, setError] = useState<string | null>(null);
  const key = `${item.chat_id}|${item.unique_id}`;
  useEffect(() => {
    if (!stale) return;
    let live = true;
    setError(null);
    api
      .mediaUrl(org.org_id, item.chat_id, item.unique_id)
      .then((r) => live && setFresh({ key, item: { ...item, url: r.url, thumbnail_url: r.thumbnail_url, expires_at: r.expires_at, size: item.size ?? r.size, filename: item.filename ?? r.filename } }))
      .catch((e) => live && setError(errorMessage(e)));
    return () => {
      live = false;
    };
    // the key names the item; staleness is checked when it is shown
  }, [key, stale, org.org_id]);
  if (!stale) return { item, error: null };
  return { item: fresh?.key === key ? fresh.item : { ...item, url: null }, error };
}

/**
 * Full-screen viewer and carousel: the previous and next buttons (and ← / →) move through
 * `items`; `onEnd` asks for more when the last one is reached (the /media page's next page).
 * Images zoom with the buttons, +/-, the wheel or a double click, up to 4x the device pixel ratio
 * of the image's own pixels (pan by scrolling); video and audio play; every file has Download
 * (spec §8 toasts). Esc or the close button closes; focus returns to what opened it.
 */
export function MediaViewer({ items, index, onIndex, onClose, onEnd }: { items: ViewerItem[]; index: number; onIndex: (i: number) => void; onClose: () => void; onEnd?: () => void }) {
  const ref = useRef<HTMLDivElement>(null);
  const imgRef = useRef<HTMLImageElement>(null);
  const stageRef = useRef<HTMLDivElement>(null);
  const [zoom, setZoom] = useState(1);
  const [fit, setFit] = useState<{ w: number; h: number; max: number } | null>(null);
  const download = useDownload();
  const at = Math.min(Math.max(0, index), Math.max(0, items.length - 1));
  const { item, error } = useFreshItem(items[at]);
  const type = item.message_type;
  const isImage = type === 'image' || type === 'sticker';
  const name = MEDIA_NAMES[type] ?? type;
  const url = item.url ? absoluteUrl(item.url) : null;
  const hasPrev = at > 0;
  const hasNext = at < items.length - 1;
  const ref_ = { chat_id: item.chat_id, unique_id: item.unique_id, media: { filename: item.filename } };

  useEffect(() => {
    const opener = document.activeElement as HTMLElement | null;
    ref.current?.querySelector<HTMLElement>('.viewer-close')?.focus();
    return () => opener?.focus?.();
  }, []);

  // a new file starts unzoomed and is measured again once it loads
  useEffect(() => {
    setZoom(1);
    setFit(null);
    if (at === items.length - 1) onEnd?.();
  }, [item.unique_id, item.chat_id]);

  // the image fitted to the stage; the largest zoom shows one image pixel on 4 device pixels
  const measure = useCallback(() => {
    const img = imgRef.current;
    const stage = stageRef.current;
    if (!img || !stage || !img.naturalWidth) return;
    const sw = stage.clientWidth - 32;
    const sh = stage.clientHeight - 32;
    const scale = Math.min(1, sw / img.naturalWidth, sh / img.naturalHeight);
    const w = img.naturalWidth * scale;
    const h = img.naturalHeight * scale;
    const max = Math.max(1, (img.naturalWidth * MAX_ZOOM_PIXEL_RATIO) / (window.devicePixelRatio || 1) / w);
    setFit({ w, h, max });
  }, []);
  useLayoutEffect(() => {
    window.addEventListener('resize', measure);
    return () => window.removeEventListener('resize', measure);
  }, [measure]);

  const maxZoom = fit?.max ?? 1;
  const setClamped = useCallback((z: number) => setZoom(Math.min(maxZoom, Math.max(1, Math.round(z * 100) / 100))), [maxZoom]);
  const go = useCallback((d: -1 | 1) => {
    const next = at + d;
    if (next >= 0 && next < items.length) onIndex(next);
  }, [at, items.length, onIndex]);

  // keys work wherever focus is (a zoom button that became disabled drops it to the page), and Esc
  // never reaches the page's own Esc (which would close the chat); arrows inside a player seek it
  const zoomRef = useRef(zoom);
  zoomRef.current = zoom;
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      const inPlayer = document.activeElement instanceof HTMLMediaElement;
      if (e.key === 'Escape') onClose();
      else if (e.key === 'ArrowLeft' && !inPlayer) go(-1);
      else if (e.key === 'ArrowRight' && !inPlayer) go(1);
      else if (isImage && (e.key === '+' || e.key === '=')) setClamped(zoomRef.current * 1.5);
      else if (isImage && e.key === '-') setClamped(zoomRef.current / 1.5);
      else if (isImage && e.key === '0') setZoom(1);
      else return;
      e.preventDefault();
      e.stopPropagation();
    };
    window.addEventListener('keydown', onKey, true);
    return () => window.removeEventListener('keydown', onKey, true);
  }, [isImage, onClose, setClamped, go]);
  useEffect(() => {
    if (ref.current && !ref.current.contains(document.activeElement)) ref.current.focus();
  }, [zoom, at]);

  const subtitle = [item.filename, item.chat_name, item.timestamp ? exactTime(item.timestamp) : null].filter(Boolean).join(' · ');

  return createPortal(
    <div
      ref={ref}
      className="viewer"
      role="dialog"
      aria-modal="true"
      aria-label={`${name} viewer`}
      data-testid="media-viewer"
      data-zoom={zoom}
      data-max-zoom={maxZoom.toFixed(2)}
      data-index={at}
      data-count={items.length}
      data-unique-id={item.unique_id}
      tabIndex={-1}
      onKeyDown={(e) => {
        if (e.key === 'Tab') {
          // keep focus inside the viewer
          const els = [...(ref.current?.querySelectorAll<HTMLElement>('button:not([disabled]), audio, video') ?? [])];
          const i = els.indexOf(document.activeElement as HTMLElement);
          const next = e.shiftKey ? (i <= 0 ? els.length - 1 : i - 1) : (i + 1) % els.length;
          els[next]?.focus();
        } else return;
        e.preventDefault();
        e.stopPropagation();
      }}
    >
      <div className="viewer-bar">
        <div className="viewer-title">
          <strong>
            {name}
            {items.length > 1 && (
              <span className="viewer-count" data-testid="media-viewer-position">
                {' '}
                {at + 1} of {items.length}
              </span>
            )}
          </strong>
          {subtitle && <span className="muted small">{subtitle}</span>}
        </div>
        {isImage && (
          <>
            <button type="button" className="icon-btn viewer-btn" aria-label="Zoom out" title="Zoom out (-)" disabled={zoom <= 1} onClick={() => setClamped(zoom / 1.5)}>
              −
            </button>
            <span className="viewer-zoom" aria-live="polite">
              {Math.round(zoom * 100)}%
            </span>
            <button type="button" className="icon-btn viewer-btn" aria-label="Zoom in" title="Zoom in (+)" data-testid="viewer-zoom-in" disabled={zoom >= maxZoom} onClick={() => setClamped(zoom * 1.5)}>
              +
            </button>
          </>
        )}
        <button type="button" className="icon-btn viewer-btn" aria-label="Download" title="Download" data-testid="media-viewer-download" onClick={() => void download(ref_)}>
          ⤓
        </button>
        <button type="button" className="icon-btn viewer-btn viewer-close" aria-label="Close viewer (Esc)" title="Close (Esc)" data-testid="media-viewer-close" onClick={onClose}>
          <Icon name="close" />
        </button>
      </div>
      <div className="viewer-main">
        {items.length > 1 && (
          <button type="button" className="viewer-nav viewer-prev" aria-label="Previous file (←)" title="Previous (←)" data-testid="media-viewer-prev" disabled={!hasPrev} onClick={() => go(-1)}>
            ‹
          </button>
        )}
        <div
          ref={stageRef}
          className={`viewer-stage ${zoom > 1 ? 'zoomed' : ''}`}
          onClick={(e) => {
            if (e.target === stageRef.current) onClose();
          }}
          onWheel={(e) => {
            if (!isImage || !(e.ctrlKey || e.metaKey || zoom === 1 || e.deltaY < 0)) return;
            setClamped(zoom * (e.deltaY < 0 ? 1.2 : 1 / 1.2));
          }}
        >
          {!url && !error && <span className="spinner" aria-label="Loading" />}
          {!url && error && (
            <div className="viewer-doc" role="alert">
              Could not load this file: {error}
            </div>
          )}
          {url && isImage && (
            <img
              key={item.unique_id}
              ref={imgRef}
              src={url}
              alt={item.caption ?? name}
              onLoad={measure}
              onDoubleClick={() => setClamped(zoom > 1 ? 1 : Math.min(2, maxZoom))}
              style={fit ? { width: fit.w * zoom, height: fit.h * zoom } : { maxWidth: '100%', maxHeight: '100%' }}
              draggable={false}
            />
          )}
          {url && type === 'video' && <video key={item.unique_id} src={url} controls autoPlay playsInline className="viewer-video" data-testid="media-viewer-video" />}
          {url && (type === 'audio' || type === 'ptt') && (
            <div className="viewer-doc">
              <span className="viewer-audio-icon" aria-hidden="true">
                {type === 'ptt' ? '🎤' : '🎵'}
              </span>
              <audio key={item.unique_id} src={url} controls autoPlay aria-label={name} data-testid="media-viewer-audio" />
            </div>
          )}
          {url && type === 'document' && (
            <div className="viewer-doc" data-testid="media-viewer-document">
              <Icon name="file" size={48} />
              <div>{item.filename ?? 'Document'}</div>
              <div className="muted small">{[fileSize(item.size), (item.mimetype ?? '').split(';')[0]].filter(Boolean).join(' · ')}</div>
              <button type="button" className="btn btn-primary" data-testid="media-viewer-document-download" onClick={() => void download(ref_)}>
                Download
              </button>
            </div>
          )}
        </div>
        {items.length > 1 && (
          <button type="button" className="viewer-nav viewer-next" aria-label="Next file (→)" title="Next (→)" data-testid="media-viewer-next" disabled={!hasNext} onClick={() => go(1)}>
            ›
          </button>
        )}
      </div>
      {item.caption && <div className="viewer-caption">{item.caption}</div>}
    </div>,
    document.body,
  );
}
