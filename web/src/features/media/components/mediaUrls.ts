/**
 * A message's media URLs (GET …/messages/{unique_id}/media, short-lived, cached per file and fetched
 * again once they expire) and downloading a file under its name with the spec §8 toasts.
 */
import { useCallback, useEffect, useState } from 'react';
import type { Message } from '#shared/message/message.schemas.ts';
import type { MediaUrlResponse } from '#shared/media/media.schemas.ts';
import { api, errorMessage } from '../../../lib/api.ts';
import { getConfig } from '../../../lib/config.ts';
import { useSession } from '../../../app/session.tsx';
import { useToast } from '../../../app/toast.tsx';

export const DOWNLOAD_OK = 'Media downloaded successfully!';
export const DOWNLOAD_FAILED = 'Error in downloading media';
/** spec §9 'Lightbox zoom max 4 times pixel ratio' */
export const MAX_ZOOM_PIXEL_RATIO = 4;

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
export function mediaUrls(orgId: string, m: MediaRef, fresh = false): Promise<MediaUrlResponse> {
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

export type UrlState = { kind: 'loading' } | { kind: 'ready'; r: MediaUrlResponse } | { kind: 'error'; message: string };

export function useMediaUrls(m: Message, enabled: boolean): [UrlState, () => void] {
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
