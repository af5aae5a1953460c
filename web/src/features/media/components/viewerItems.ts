/**
 * What the viewer shows: ViewerItem, made from a media library item or a message with its URLs,
 * and kept fresh (URLs fetched again once they expire).
 */
import { useEffect, useState } from 'react';
import type { Message } from '#shared/message/message.schemas.ts';
import type { MediaUrlResponse } from '#shared/media/media.schemas.ts';
import type { MediaItem } from '#shared/media/media.schemas.ts';
import { api, errorMessage } from '../../../lib/api.ts';
import { useSession } from '../../../app/session.tsx';

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

export const messageViewerItem = (m: Message, r: MediaUrlResponse): ViewerItem => ({
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

/** The item's URLs, fetched again when they expired (or are about to) while the viewer is open. */
export function useFreshItem(item: ViewerItem): { item: ViewerItem; error: string | null } {
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
