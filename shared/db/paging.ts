/**
 * ElectroDB cursor (base64url JSON of DynamoDB's LastEvaluatedKey) that resumes right after
 * `item`, built from the item's physical keys (read with `data: 'includeKeys'`): the table keys
 * plus, for a GSI, that index's keys. Used by lists that filter an index's pages themselves and
 * stop mid-page (ElectroDB 3.9 has no public composite-to-cursor conversion).
 * @param gsi the index name (`gsi1`…), or undefined for the table index
 */
export const keyCursor =
  (gsi: string | undefined) =>
  (item: Record<string, unknown>): string => {
    const key: Record<string, unknown> = { pk: item.pk, sk: item.sk };
    if (gsi) {
      key[`${gsi}pk`] = item[`${gsi}pk`];
      key[`${gsi}sk`] = item[`${gsi}sk`];
    }
    return Buffer.from(JSON.stringify(key)).toString('base64url');
  };

import { AppError } from '../errors.ts';
import { looksLikeKeyCursor } from '../message/message.schemas.ts';

/** Most items a filtered list reads per call before it answers with what it has and a cursor. */
export const READ_BUDGET = 5000;

/**
 * Read one index until `want` items pass `matches`, the index ends, or READ_BUDGET items were
 * read. `run(cursor, limit)` makes one Query request (pages: 1). Unfiltered reads ask for exactly
 * what is missing; filtered ones read bigger pages. When a request returns more matches than
 * needed, the cursor is rebuilt right after the last kept item (`toCursor`, see keyCursor).
 * `visible` (optional) decides per page which items the caller may see at all (the access guard,
 * shared/access/guard.ts: one batch read of the page's chats); hidden items are skipped like
 * non-matching ones, so pages stay full and the cursor still resumes right after the last item
 * handed out.
 * `keep` (optional, 0 < keep <= 1): the share of read items the caller expects to pass, for a
 * filter that keeps most rows (the chat list's type=user). The first request then reads about
 * `want / keep` items rather than a big page, and any next one is sized from the share that passed
 * so far, so a page costs about what an unfiltered one does when the guess holds, and a few more
 * requests when it does not (never a wrong answer: the same items pass either way).
 * @returns the items and the cursor to continue from (null when the index ended)
 * @throws AppError 400 validation.failed (field query.cursor) when DynamoDB refuses the start key
 */
export async function collectFiltered<T>(
  run: (cursor: string | null, limit: number) => Promise<{ data: T[]; cursor: string | null }>,
  toCursor: (item: Record<string, unknown>) => string,
  matches: ((item: T) => boolean) | null,
  want: number,
  start: string | null,
  visible?: (items: T[]) => Promise<(item: T) => boolean>,
  keep?: number,
): Promise<{ items: T[]; cursor: string | null }> {
  const items: T[] = [];
  let cursor = start;
  let read = 0;
  const size = (): number => {
    if (!matches) return want - items.length;
    if (keep === undefined) return Math.min(1000, Math.max(want * 4, 200));
    // expected to pass: the guess at first (no spare: on DynamoDB Local ~18 more items cost more
    // than the occasional second Query, bench:chats Unread + User 2.13x -> 1.84-1.85x), then what
    // passed so far (at least 2%) with 25% and 5 items spare
    const share = read === 0 ? keep : Math.max(items.length / read, 0.02);
    return Math.min(1000, read === 0 ? Math.ceil(want / share) : Math.ceil(((want - items.length) / share) * 1.25) + 5);
  };
  for (;;) {
    const limit = size();
    const res = await withCursor(cursor === start ? start : null, () => run(cursor, limit));
    read += res.data.length;
    const sees = visible ? await visible(res.data) : null;
    for (const item of res.data) {
      if (matches && !matches(item)) continue;
      if (sees && !sees(item)) continue;
      items.push(item);
      if (items.length === want) return { items, cursor: toCursor(item as unknown as Record<string, unknown>) };
    }
    cursor = res.cursor;
    if (!cursor || read >= READ_BUDGET) return { items, cursor };
  }
}

/** The 400 of a page cursor that is not one of this list's (field `query.cursor`). */
export const badCursor = () =>
  new AppError('validation.failed', 'query.cursor: is not a cursor from this list', { status: 400, details: [{ field: 'query.cursor', reason: 'is not a cursor from this list' }] });

/**
 * The one check of a key cursor a client sends back (issue 42 §4): base64url JSON of an object with
 * string `pk` and `sk` and at most 8 string or number attributes (message.schemas.ts
 * looksLikeKeyCursor), at most 2,048 characters. Anything else is refused here, before ElectroDB
 * (which throws on bad base64 or JSON) or DynamoDB (which fails on a start key of another shape).
 * @returns the cursor unchanged; null when there is none
 * @throws AppError 400 validation.failed, field `query.cursor`
 */
export function checkKeyCursor(cursor: string | null | undefined): string | null {
  if (cursor === undefined || cursor === null) return null;
  if (cursor === '' || cursor.length > 2048 || !looksLikeKeyCursor(cursor)) throw badCursor();
  return cursor;
}

/**
 * Run one Query that starts at a client's `cursor`: a cursor of the wrong shape (checkKeyCursor),
 * and DynamoDB's refusal of the start key (ValidationException: not this index's keys, outside the
 * partition the Query reads), are the client's bad cursor (400 `query.cursor`), never a 500.
 * Without a cursor the Query runs unchanged.
 */
export async function withCursor<T>(cursor: string | null | undefined, run: () => Promise<T>): Promise<T> {
  if (!cursor) return run();
  checkKeyCursor(cursor);
  try {
    return await run();
  } catch (e) {
    const text = `${(e as Error)?.message ?? ''} ${String((e as { cause?: Error })?.cause?.message ?? '')}`;
    if (/cursor|starting key|start key|ExclusiveStartKey|query boundaries|key schema|Invalid attribute value type/i.test(text)) throw badCursor();
    throw e;
  }
}

