/**
 * Writes this process sends to the table, by item key: lets a per-process read cache forget an
 * item the moment this process writes it (shared/auth/actor.ts caches member rows). The document
 * client (shared/db/client.ts) calls `noteWrite` for every write command, once before it is sent
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

type Watcher = { match: (key: ItemKey) => boolean; onWrite: () => void };
const watchers: Watcher[] = [];

/** Calls `onWrite` whenever a write of this process touches an item `match` accepts (before it is sent and after it settles). */
export function watchWrites(match: (key: ItemKey) => boolean, onWrite: () => void): void {
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

/** Tells the watchers about a write command (the document client's middleware; see the module doc). */
export function noteWrite(commandName: string, input: unknown): void {
  if (!watchers.length) return;
  const keys = writtenKeys(commandName, input);
  for (const w of watchers) if (keys.some(w.match)) w.onWrite();
}
