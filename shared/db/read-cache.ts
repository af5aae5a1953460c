import { LRUCache } from 'lru-cache';
import { watchWrites, type ItemKey } from './write-watch.ts';

/**
 * Per-process caches of read results (Query pages), kept only while this process is the table's
 * **only writer**: the local runtime (`npm start`, one process for every use case) says so with
 * `setSingleWriter(true)`. Then every write reaches the table through this process's document
 * client, whose middleware reports each write's item keys (shared/db/write-watch.ts): a write
 * forgets the cached results of its scope (e.g. an org's chat rows) before it is sent and again
 * after it settles, and a read that overlapped such a write is not kept. A cached result is
 * therefore exactly what the table would answer, with no time window.
 *
 * In AWS many Lambda instances write the table and none sees the others' writes, so there these
 * caches are off (`setSingleWriter` is never called) and every read goes to DynamoDB.
 *
 * Why (issue 14, the read path at 10 clients): on one machine DynamoDB Local's JVM and the
 * runtime share 2 cores, and a chat-list page cost about 12 ms of CPU, most of it the two DynamoDB
 * calls (SDK, ElectroDB formatting, the JVM). A cached page skips all of that.
 *
 * Callers must not mutate a cached value: it is shared by every request that hits it.
 */

let singleWriter = false;
const all: Array<{ clear: () => void }> = [];

/**
 * Turns the caches on (`true`: this process is the table's only writer; the local runtime at
 * start) or off (`false`, which also empties them; the runtime at stop).
 */
export function setSingleWriter(on: boolean): void {
  singleWriter = on;
  for (const c of all) c.clear();
}

/** Whether the read caches are on (see setSingleWriter). */
export const singleWriterCaches = (): boolean => singleWriter;

export interface ScopedReadCache<T> {
  /**
   * The cached result of `key` in `scope`, or `load()`'s (kept when no write of the scope overlapped
   * it). Concurrent misses of one key share one load. Off (see setSingleWriter): always `load()`.
   */
  get(scope: string, key: string, load: () => Promise<T>): Promise<T>;
  /** Drops everything (tests; setSingleWriter). */
  clear(): void;
}

/**
 * A read cache whose results are grouped by scope: a write of an item forgets the scope
 * `scopeOf(key)` names (null: the write concerns no cached result).
 * @param opts.scopeOf maps a written item key to the scope it invalidates (see module doc)
 * @param opts.maxScopes scopes kept (least recently used dropped); default 1,000
 * @param opts.maxKeysPerScope results kept per scope (the scope is emptied past it); default 64
 */
export function scopedReadCache<T>(opts: { scopeOf: (key: ItemKey) => string | null; maxScopes?: number; maxKeysPerScope?: number }): ScopedReadCache<T> {
  const maxKeys = opts.maxKeysPerScope ?? 64;
  const entries = new LRUCache<string, Map<string, T>>({ max: opts.maxScopes ?? 1_000 });
  const pending = new Map<string, Map<string, Promise<T>>>();
  // writes seen while loads were in flight: scope -> tick of its latest write; emptied when none is
  let tick = 0;
  let inflight = 0;
  const dirty = new Map<string, number>();

  watchWrites(
    (key) => opts.scopeOf(key) !== null,
    (keys) => {
      for (const key of keys) {
        const scope = opts.scopeOf(key);
        if (scope === null) continue;
        entries.delete(scope);
        pending.delete(scope);
        if (inflight) dirty.set(scope, ++tick);
      }
    },
  );

  const cache: ScopedReadCache<T> = {
    get(scope, key, load) {
      if (!singleWriter) return load();
      const kept = entries.get(scope);
      if (kept?.has(key)) return Promise.resolve(kept.get(key) as T);
      const shared = pending.get(scope)?.get(key);
      if (shared) return shared;
      const start = ++tick;
      inflight++;
      const p = load()
        .then((value) => {
          if ((dirty.get(scope) ?? 0) < start && singleWriter) {
            let m = entries.get(scope);
            if (!m) entries.set(scope, (m = new Map()));
            if (m.size >= maxKeys) m.clear();
            m.set(key, value);
          }
          return value;
        })
        .finally(() => {
          if (--inflight === 0) dirty.clear();
          const inScope = pending.get(scope);
          if (inScope?.get(key) === p) {
            inScope.delete(key);
            if (!inScope.size) pending.delete(scope);
          }
        });
      let inScope = pending.get(scope);
      if (!inScope) pending.set(scope, (inScope = new Map()));
      inScope.set(key, p);
      return p;
    },
    clear() {
      entries.clear();
      pending.clear();
    },
  };
  all.push(cache);
  return cache;
}

const ORG_PK = '$chorus#org_id_';

/**
 * The org part of an ElectroDB partition key (`$chorus#org_id_<org lower-cased>`, the service's
 * key prefix and the `org_id` composite, which every org-scoped entity has first), or null when
 * `pk` is not org-scoped.
 */
export function orgScopeOfPk(pk: string): string | null {
  if (!pk.startsWith(ORG_PK)) return null;
  const end = pk.indexOf('#', ORG_PK.length);
  return end < 0 ? pk : pk.slice(0, end);
}

/**
 * The scope string of an org as orgScopeOfPk derives it from a written key, or null when the org
 * id holds a '#' (its keys could not be told apart: such an org is never cached).
 */
export function orgScope(orgId: string): string | null {
  return orgId.includes('#') ? null : ORG_PK + orgId.toLowerCase();
}
