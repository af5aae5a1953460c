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
 */
import { useCallback, useEffect, useLayoutEffect, useRef, useState, type ReactNode } from 'react';
import { createPortal } from 'react-dom';
import type { Message } from '#shared/message/message.schemas.ts';
import type { MediaUrlResponse } from '#shared/media/media.schemas.ts';
import { api, errorMessage } from '../lib/api.ts';
import { getConfig } from '../lib/config.ts';
import { fileSize } from '../lib/messageActions.ts';
import { MEDIA_NAMES } from '../lib/format.ts';
import { useSession } from '../app/session.tsx';
import { useToast } from '../app/toast.tsx';
import { Icon } from '../layout/Icon.tsx';

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

const cache = new Map<string, Promise<MediaUrlResponse>>();
const cacheKey = (m: Message) => `${m.chat_id}|${m.unique_id}|${m.media?.status ?? ''}|${m.media?.path ?? ''}`;

/** The media URLs of a message, shared between its bubble and viewer until they expire. */
function mediaUrls(orgId: string, m: Message, fresh = false): Promise<MediaUrlResponse> {
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
export async function downloadMessageMedia(orgId: string, m: Message): Promise<void> {
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
export function useDownload(): (m: Message) => Promise<void> {
  const { org } = useSession();
  const toast = useToast();
  return useCallback(
    async (m: Message) => {
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
    const src = r ? (type === 'video' ? null : (r.thumbnail_url ?? r.url)) : null;
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
      {viewer && r?.url && <MediaViewer m={m} urls={r} onClose={() => setViewer(false)} />}
    </>
  );
}

/**
 * Full-screen viewer: image (zoom with the buttons, +/-, the wheel or a double click, up to 4x the
 * device pixel ratio of the image's own pixels; pan by scrolling), video and audio players, and a
 * document's Download. Esc or the close button closes; focus returns to what opened it.
 */
export function MediaViewer({ m, urls, onClose }: { m: Message; urls: MediaUrlResponse; onClose: () => void }) {
  const ref = useRef<HTMLDivElement>(null);
  const imgRef = useRef<HTMLImageElement>(null);
  const stageRef = useRef<HTMLDivElement>(null);
  const [zoom, setZoom] = useState(1);
  const [fit, setFit] = useState<{ w: number; h: number; max: number } | null>(null);
  const download = useDownload();
  const type = m.message_type;
  const isImage = type === 'image' || type === 'sticker';
  const name = MEDIA_NAMES[type] ?? type;
  const url = absoluteUrl(urls.url!);

  useEffect(() => {
    const opener = document.activeElement as HTMLElement | null;
    ref.current?.querySelector<HTMLElement>('.viewer-close')?.focus();
    return () => opener?.focus?.();
  }, []);

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

  // keys work wherever focus is (a zoom button that became disabled drops it to the page), and Esc
  // never reaches the page's own Esc (which would close the chat)
  const zoomRef = useRef(zoom);
  zoomRef.current = zoom;
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if (e.key === 'Escape') onClose();
      else if (isImage && (e.key === '+' || e.key === '=')) setClamped(zoomRef.current * 1.5);
      else if (isImage && e.key === '-') setClamped(zoomRef.current / 1.5);
      else if (isImage && e.key === '0') setZoom(1);
      else return;
      e.preventDefault();
      e.stopPropagation();
    };
    window.addEventListener('keydown', onKey, true);
    return () => window.removeEventListener('keydown', onKey, true);
  }, [isImage, onClose, setClamped]);
  useEffect(() => {
    if (ref.current && !ref.current.contains(document.activeElement)) ref.current.focus();
  }, [zoom]);

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
          <strong>{name}</strong>
          {m.media?.filename && <span className="muted small">{m.media.filename}</span>}
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
        <button type="button" className="icon-btn viewer-btn" aria-label="Download" title="Download" onClick={() => void download(m)}>
          ⤓
        </button>
        <button type="button" className="icon-btn viewer-btn viewer-close" aria-label="Close viewer (Esc)" title="Close (Esc)" data-testid="media-viewer-close" onClick={onClose}>
          <Icon name="close" />
        </button>
      </div>
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
        {isImage && (
          <img
            ref={imgRef}
            src={url}
            alt={m.media?.caption ?? name}
            onLoad={measure}
            onDoubleClick={() => setClamped(zoom > 1 ? 1 : Math.min(2, maxZoom))}
            style={fit ? { width: fit.w * zoom, height: fit.h * zoom } : { maxWidth: '100%', maxHeight: '100%' }}
            draggable={false}
          />
        )}
        {type === 'video' && <video src={url} controls autoPlay playsInline className="viewer-video" />}
        {(type === 'audio' || type === 'ptt') && <audio src={url} controls autoPlay />}
        {type === 'document' && (
          <div className="viewer-doc">
            <Icon name="file" size={48} />
            <div>{urls.filename ?? 'Document'}</div>
            <div className="muted small">{fileSize(urls.size)}</div>
            <button type="button" className="btn btn-primary" onClick={() => void download(m)}>
              Download
            </button>
          </div>
        )}
      </div>
      {m.media?.caption && <div className="viewer-caption">{m.media.caption}</div>}
    </div>,
    document.body,
  );
}
