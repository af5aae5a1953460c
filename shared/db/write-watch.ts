/**
 * Writes this process sends to the table, by item key: lets a per-process read cache forget an
 * item the moment this process writes it (shared/auth/actor.ts caches member rows). The document
 * client (shared/db/client.ts) calls the watchers of every write command (`watchersOf`), once before it is sent
 * and once after it settles, so a read that overlapped the write cannot put the old item back:
 * a cache compares `writeGeneration()` before and after its read and keeps the result only if no
 * matching write happened in between.
 *
 * Only this process's writes are seen. Other processes (other Lambda instances in AWS) are bounded
 * by each cache's own maximum age.
 */

/** A table key as ElectroDB writes it (`pk`, `sk` strings). */
export interface ItemKey {
  pk: string;
  sk: string;
}

type Watcher = { match: (key: ItemKey) => boolean; onWrite: (keys: ItemKey[]) => void };
const watchers: Watcher[] = [];

/**
 * Calls `onWrite` whenever a write of this process touches an item `match` accepts (before it is
 * sent and after it settles), with the keys of that write that `match` accepted.
 */
export function watchWrites(match: (key: ItemKey) => boolean, onWrite: (keys: ItemKey[]) => void): void {
  watchers.push({ match, onWrite });
}

const keyOf = (o: unknown): ItemKey | undefined => {
  const r = o as { pk?: unknown; sk?: unknown } | undefined;
  return typeof r?.pk === 'string' && typeof r.sk === 'string' ? { pk: r.pk, sk: r.sk } : undefined;
};

/**
 * The item keys a document-client write command names: Put's `Item`, Update's and Delete's `Key`,
 * each `TransactItems` entry's Put, Update or Delete, and each `RequestItems` put or delete of a
 * BatchWrite. Reads and condition checks name none. @param commandName e.g. 'PutItemCommand'
 */
export function writtenKeys(commandName: string, input: unknown): ItemKey[] {
  const i = input as Record<string, unknown>;
  switch (commandName) {
    case 'PutItemCommand':
      return [keyOf(i.Item)].filter((k): k is ItemKey => !!k);
    case 'UpdateItemCommand':
    case 'DeleteItemCommand':
      return [keyOf(i.Key)].filter((k): k is ItemKey => !!k);
    case 'TransactWriteItemsCommand':
      return ((i.TransactItems as Array<Record<string, { Item?: unknown; Key?: unknown }>>) ?? [])
        .map((t) => keyOf(t.Put?.Item) ?? keyOf(t.Update?.Key) ?? keyOf(t.Delete?.Key))
        .filter((k): k is ItemKey => !!k);
    case 'BatchWriteItemCommand':
      return Object.values((i.RequestItems as Record<string, Array<{ PutRequest?: { Item?: unknown }; DeleteRequest?: { Key?: unknown } }>>) ?? {})
        .flat()
        .map((r) => keyOf(r.PutRequest?.Item) ?? keyOf(r.DeleteRequest?.Key))
        .filter((k): k is ItemKey => !!k);
    default:
      return [];
  }
}

/**
 * The watchers a write command concerns (none for reads): the document client's middleware calls
 * each one's `onWrite` before the command is sent and again after it settles (see the module doc).
 */
export function watchersOf(commandName: string, input: unknown): Array<() => void> {
  if (!watchers.length) return [];
  const keys = writtenKeys(commandName, input);
  if (!keys.length) return [];
  const out: Array<() => void> = [];
  for (const w of watchers) {
    const matched = keys.filter(w.match);
    if (matched.length) out.push(() => w.onWrite(matched));
  }
  return out;
}
