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
import { useState, type ReactNode } from 'react';
import type { Message } from '#shared/message/message.schemas.ts';
import { fileSize } from '../../chats/index.ts';
import { MEDIA_NAMES } from '../../../lib/format.ts';
import { Icon } from '../../../components/ui/Icon.tsx';
import { absoluteUrl, useDownload, useMediaUrls } from './mediaUrls.ts';
import { ChatMediaViewer } from './ChatMediaViewer.tsx';

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
