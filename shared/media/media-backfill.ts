import { ScanCommand } from '@aws-sdk/lib-dynamodb';
import { config } from '../config.ts';
import { documentClient } from '../db/client.ts';
import { db } from '../db/service.ts';
import { LIBRARY_MEDIA_TYPES } from './media.schemas.ts';
import { recordMediaItem } from './media-library.ts';
import type { StoredMedia } from './media.ts';

/**
 * MediaItem backfill (issue 5; ACCESS_PATTERNS.md 30-32): files stored before the media library
 * existed have no MediaItem row, so /media and the viewer's carousel miss them. This walks an
 * org's chats (pattern 7's table index, one Query per page) and each chat's messages (pattern 9,
 * Query pages filtered to the library's media types) and puts the rows that are missing
 * (BatchGet first, so a re-run writes nothing: idempotent, and a row written meanwhile by the
 * live path is not rewritten). Only messages whose file is stored (`media.path`, status stored)
 * get a row, as on the live path (recordMediaItem).
 *
 * Listing every org is the one Scan: no index lists organizations (every pattern is org-scoped by
 * design and Organization rows are keyed by their own id), so `listOrgIds` reads the table in
 * parallel segments, a page at a time, keeping only Organization rows' ids. Pass org ids to skip it.
 */

export interface BackfillProgress {
  org_id: string;
  chat_id: string;
  /** media messages with a stored file seen in this chat */
  media: number;
  /** rows written for this chat (missing before) */
  written: number;
}

export interface BackfillTotals {
  orgs: number;
  chats: number;
  media: number;
  written: number;
}

/** Messages read per Query page, and MediaItem keys per BatchGet (DynamoDB's limit). */
const PAGE = 500;
const BATCH_GET = 100;

/**
 * Ids of every organization: a paginated parallel Scan (`segments` segments at once, `limit`
 * items evaluated per request), filtered to Organization items and projected to `org_id`.
 */
export async function listOrgIds(opts: { segments?: number; limit?: number } = {}): Promise<string[]> {
  const segments = opts.segments ?? 4;
  const ids = new Set<string>();
  await Promise.all(
    Array.from({ length: segments }, async (_, segment) => {
      let start: Record<string, unknown> | undefined;
      do {
        const res = await documentClient().send(
          new ScanCommand({
            TableName: config().TABLE_NAME,
            Segment: segment,
            TotalSegments: segments,
            Limit: opts.limit ?? 1000,
            FilterExpression: '#e = :e',
            ProjectionExpression: 'org_id',
            ExpressionAttributeNames: { '#e': '__edb_e__' },
            ExpressionAttributeValues: { ':e': 'organization' },
            ExclusiveStartKey: start,
          }),
        );
        for (const item of res.Items ?? []) if (typeof item.org_id === 'string') ids.add(item.org_id);
        start = res.LastEvaluatedKey;
      } while (start);
    }),
  );
  return [...ids].sort();
}

type MessageRow = Awaited<ReturnType<ReturnType<ReturnType<typeof db>['entities']['message']['query']['byChat']>['go']>>['data'][number];

const hasStoredFile = (m: MessageRow) => {
  const media = m.media as StoredMedia | undefined;
  return !!media?.path && (!media.status || media.status === 'stored');
};

/** Backfill one chat: page its media messages, write the missing rows. */
async function backfillChat(orgId: string, chat: { chat_id: string; chat_name?: string | null }, dryRun: boolean): Promise<BackfillProgress> {
  const out: BackfillProgress = { org_id: orgId, chat_id: chat.chat_id, media: 0, written: 0 };
  let cursor: string | null = null;
  do {
    const page: { data: MessageRow[]; cursor: string | null } = await db()
      .entities.message.query.byChat({ org_id: orgId, chat_id: chat.chat_id })
      .where((a, { eq }) => (LIBRARY_MEDIA_TYPES as readonly string[]).map((t) => eq(a.message_type, t)).join(' OR '))
      .go({ limit: PAGE, cursor });
    cursor = page.cursor;
    const stored = page.data.filter(hasStoredFile);
    out.media += stored.length;
    for (let i = 0; i < stored.length; i += BATCH_GET) {
      const chunk = stored.slice(i, i + BATCH_GET);
      const got = await db()
        .entities.mediaItem.get(chunk.map((m) => ({ org_id: orgId, timestamp: m.timestamp, unique_id: m.unique_id })))
        .go();
      const have = new Set(got.data.map((r) => r.unique_id));
      // keys DynamoDB did not answer (throttling) are treated as missing: the put is idempotent
      for (const m of chunk) {
        if (have.has(m.unique_id)) continue;
        if (!dryRun) await recordMediaItem(m, chat.chat_name ?? null);
        out.written++;
      }
    }
  } while (cursor);
  return out;
}

/**
 * Write the missing MediaItem rows of `orgIds` (every org when omitted: listOrgIds' Scan).
 * @param opts.dryRun count what would be written, write nothing
 * @param onProgress called after each chat with what it found and wrote
 * @returns totals
 */
export async function backfillMediaItems(opts: { orgIds?: string[]; dryRun?: boolean } = {}, onProgress: (p: BackfillProgress) => void = () => {}): Promise<BackfillTotals> {
  const orgIds = opts.orgIds?.length ? opts.orgIds : await listOrgIds();
  const totals: BackfillTotals = { orgs: orgIds.length, chats: 0, media: 0, written: 0 };
  for (const orgId of orgIds) {
    let cursor: string | null = null;
    do {
      const page: { data: Array<{ chat_id: string; chat_name?: string | null }>; cursor: string | null } = await db()
        .entities.chat.query.byId({ org_id: orgId })
        .go({ limit: 200, cursor, attributes: ['chat_id', 'chat_name'] });
      cursor = page.cursor;
      for (const chat of page.data) {
        const p = await backfillChat(orgId, chat, !!opts.dryRun);
        totals.chats++;
        totals.media += p.media;
        totals.written += p.written;
        onProgress(p);
      }
    } while (cursor);
  }
  return totals;
}
