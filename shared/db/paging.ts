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

/** Most items a filtered list reads per call before it answers with what it has and a cursor. */
export const READ_BUDGET = 5000;

/**
 * Read one index until `want` items pass `matches`, the index ends, or READ_BUDGET items were
 * read. `run(cursor, limit)` makes one Query request (pages: 1). Unfiltered reads ask for exactly
 * what is missing; filtered ones read bigger pages. When a request returns more matches than
 * needed, the cursor is rebuilt right after the last kept item (`toCursor`, see keyCursor).
 * @returns the items and the cursor to continue from (null when the index ended)
 */
export async function collectFiltered<T>(
  run: (cursor: string | null, limit: number) => Promise<{ data: T[]; cursor: string | null }>,
  toCursor: (item: Record<string, unknown>) => string,
  matches: ((item: T) => boolean) | null,
  want: number,
  start: string | null,
): Promise<{ items: T[]; cursor: string | null }> {
  const items: T[] = [];
  let cursor = start;
  let read = 0;
  for (;;) {
    const res = await run(cursor, matches ? Math.min(1000, Math.max(want * 4, 200)) : want - items.length);
    read += res.data.length;
    for (const item of res.data) {
      if (matches && !matches(item)) continue;
      items.push(item);
      if (items.length === want) return { items, cursor: toCursor(item as unknown as Record<string, unknown>) };
    }
    cursor = res.cursor;
    if (!cursor || read >= READ_BUDGET) return { items, cursor };
  }
}
