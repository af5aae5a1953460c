import type { EntityItem } from 'electrodb';
import { checkKeyCursor, collectFiltered, keyCursor } from '../db/paging.ts';
import { db } from '../db/service.ts';
import type { MediaItemEntity } from './media-item.entity.ts';
import { log } from '../log.ts';
import { blobPort } from '../ports/blobs.ts';
import type { Actor } from '../auth/actor.ts';
import { chatGuard } from '../access/guard.ts';
import { orgLibrarySettings } from '../org/org-settings.ts';
import type { StoredMedia } from './media.ts';
import { LIBRARY_MEDIA_TYPES, type ListMediaQuery, type ListMediaResponse, type LibraryMediaType, type MediaItem } from './media.schemas.ts';
import { downloadNameOf } from './media.rules.ts';

/**
 * The media library (issue 5 "Media viewer"): MediaItem rows (ACCESS_PATTERNS.md 30-32), one per
 * stored media message, listed newest first by org, by type or by chat, with a date range as a
 * `between` on the sort key. Combined filters use the most selective index (chat, then type, then
 * the org) and check the rest on its pages, reading at most READ_BUDGET items per call (like
 * shared/ticket/ticket-list.ts); a short page then comes with a cursor and the UI offers 'Load more'.
 */

/** How long the URLs in a list live, seconds (as GET …/media of one message). */
const URL_TTL_S = 300;
/** Items read per call at most when filters are checked on an index's pages. */

type MediaItemRow = EntityItem<typeof MediaItemEntity>;

const isLibraryType = (t: string): t is LibraryMediaType => (LIBRARY_MEDIA_TYPES as readonly string[]).includes(t);

/** What recordMediaItem needs of a message. */
export interface MediaMessage {
  org_id: string;
  chat_id: string;
  unique_id: string;
  timestamp: number;
  message_type: string;
  from_me: boolean;
  author?: string | null;
  media?: unknown;
}

/**
 * Put the library row of a message whose file is stored (idempotent: the same message always
 * writes the same key, so redelivery or a retry overwrites it with the same values). Messages
 * that are not a library type (stickers, text) or have no stored file are skipped, and so are
 * incoming or outgoing files when settings/library says not to keep them; with a retention the row
 * expires (TTL) that many days after the message.
 * @param chatName the chat's name; read from the chat when not given
 */
export async function recordMediaItem(m: MediaMessage, chatName?: string | null): Promise<void> {
  const media = (m.media ?? {}) as StoredMedia;
  if (!isLibraryType(m.message_type) || !media.path || (media.status && media.status !== 'stored')) return;
  // settings/library (issue 22): what the library keeps, and for how long (the file stays in its chat)
  const lib = await orgLibrarySettings(m.org_id);
  if (m.from_me ? !lib.save_outgoing : !lib.save_incoming) return;
  const expires_at = lib.retention_days ? Math.floor(m.timestamp / 1000) + lib.retention_days * 86_400 : undefined;
  let name = chatName;
  if (name === undefined) name = (await db().entities.chat.get({ org_id: m.org_id, chat_id: m.chat_id }).go()).data?.chat_name ?? null;
  await db()
    .entities.mediaItem.put({
      org_id: m.org_id,
      chat_id: m.chat_id,
      unique_id: m.unique_id,
      timestamp: m.timestamp,
      message_type: m.message_type,
      path: media.path,
      from_me: m.from_me,
      ...(name ? { chat_name: name } : {}),
      ...(media.mimetype ? { mimetype: media.mimetype } : {}),
      ...(media.filename ? { filename: media.filename } : {}),
      ...(media.size != null ? { size: media.size } : {}),
      ...(media.thumbnail ? { thumbnail: media.thumbnail } : {}),
      ...(media.caption ? { caption: media.caption } : {}),
      ...(m.author ? { author: m.author } : {}),
      ...(expires_at ? { expires_at } : {}),
    })
    .go();
}

/**
 * recordMediaItem that never fails its caller: the message and its file are already stored, so a
 * failed library write is logged (the file stays reachable from its chat) rather than undoing that.
 */
export async function recordMediaItemSafely(m: MediaMessage, chatName?: string | null): Promise<void> {
  try {
    await recordMediaItem(m, chatName);
  } catch (e) {
    log('error', 'media.library_write_failed', { org_id: m.org_id, chat_id: m.chat_id, unique_id: m.unique_id, error: String((e as Error)?.message ?? e) });
  }
}

interface Filters {
  type?: string;
  chat_id?: string;
  from?: number;
  to?: number;
}

const matches = (r: MediaItemRow, f: Filters) =>
  (!f.type || r.message_type === f.type) && (!f.chat_id || r.chat_id === f.chat_id) && (f.from === undefined || r.timestamp >= f.from) && (f.to === undefined || r.timestamp <= f.to);

type Run = (cursor: string | null, limit: number) => Promise<{ data: MediaItemRow[]; cursor: string | null }>;

/**
 * Files of the actor's org, newest first, filtered by type, chat and date, cursor paged, each
 * with 5-minute URLs of the file (documents download under their name) and thumbnail. Files of
 * chats the actor may not see are left out page by page (the guard; a `chat_id` filter naming such
 * a chat is refused before, by the HTTP middleware), and authors / chat names are masked by its view.
 * @throws AppError 400 validation.failed (a cursor that is not from this list); 403 chat.no_access
 */
export async function listMedia(actor: Actor, query: ListMediaQuery): Promise<ListMediaResponse> {
  const org = actor.org_id;
  const e = db().entities.mediaItem;
  const start = checkKeyCursor(query.cursor);
  const { type, chat_id, to } = query;
  // rows past the library's retention are swept by TTL (within days): never listed meanwhile
  const retention = (await orgLibrarySettings(org)).retention_days;
  const from = retention ? Math.max(query.from ?? 0, Date.now() - retention * 86_400_000) : query.from;
  const idx = e.schema.indexes;
  // the most selective index: one chat, then one type, then the whole org
  const [q, gsi, rest] = chat_id
    ? [e.query.byChat({ org_id: org, chat_id }), idx.byChat.index, { type }]
    : type
      ? [e.query.byType({ org_id: org, message_type: type }), idx.byType.index, {}]
      : [e.query.byOrg({ org_id: org }), undefined, {}];
  // between on the sort key: [from, to + 1 ms) covers every unique_id of the last millisecond
  const ranged = from !== undefined || to !== undefined ? q.between({ timestamp: from ?? 0 }, { timestamp: (to ?? 999_999_999_999_998) + 1 }) : q;
  const run: Run = (cursor, limit) =>
    ranged.go({ order: 'desc', cursor, limit, pages: 1, data: 'includeKeys' }) as unknown as Promise<{ data: MediaItemRow[]; cursor: string | null }>;
  const f: Filters = { ...rest, from, to };
  const guard = await chatGuard(actor);
  if (chat_id) await guard.assertChat(chat_id);
  const page = await collectFiltered(run, keyCursor(gsi), f.type || f.chat_id ? (r) => matches(r, f) : null, query.limit, start, guard.pageFilter<MediaItemRow>((r) => r.chat_id));

  const blobs = await blobPort();
  const expiresAt = Date.now() + URL_TTL_S * 1000;
  const items = await Promise.all(page.items.map(async (r): Promise<MediaItem> => {
    const [url, thumbnailUrl] = await Promise.all([
      // issue 42 §4: every file is a download (attachment), never a page of whatever type it claims
      blobs.url(r.path, { expiresInS: URL_TTL_S, downloadAs: downloadNameOf(r.filename, r.path) }),
      r.thumbnail ? blobs.url(r.thumbnail, { expiresInS: URL_TTL_S, downloadAs: downloadNameOf(null, r.thumbnail) }) : Promise.resolve(null),
    ]);
    return guard.viewMedia({
      org_id: r.org_id,
      chat_id: r.chat_id,
      chat_name: r.chat_name ?? null,
      unique_id: r.unique_id,
      timestamp: r.timestamp,
      message_type: r.message_type as LibraryMediaType,
      mimetype: r.mimetype ?? null,
      filename: r.filename ?? null,
      size: r.size ?? null,
      path: r.path,
      thumbnail: r.thumbnail ?? null,
      caption: r.caption ?? null,
      from_me: r.from_me,
      author: r.author ?? null,
      url,
      thumbnail_url: thumbnailUrl,
      expires_at: expiresAt,
    });
  }));
  return { items, cursor: page.cursor };
}
