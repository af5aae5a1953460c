/**
 * The full-screen media viewer (spec §9): a carousel with zoom for images, players for video and
 * audio, and Download. Used from a chat bubble (ChatMediaViewer) and the /media page.
 */
import { useCallback, useEffect, useLayoutEffect, useRef, useState } from 'react';
import { createPortal } from 'react-dom';
import { fileSize } from '../../chats/index.ts';
import { exactTime, MEDIA_NAMES } from '../../../lib/format.ts';
import { Icon } from '../../../components/ui/Icon.tsx';
import { MAX_ZOOM_PIXEL_RATIO, absoluteUrl, useDownload } from './mediaUrls.ts';
import { useFreshItem, type ViewerItem } from './viewerItems.ts';

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
