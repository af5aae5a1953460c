import { existsSync } from 'node:fs';
import { appendFile, mkdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { Charset, Index } from 'flexsearch';
import { SEARCH_INDEXES, type SearchDoc, type SearchFilter, type SearchHit, type SearchIndexName, type SearchPort } from '../../shared/ports/search.ts';
import { editDistance, words } from '../../shared/search/text.ts';
import { GroupCommit } from '../../shared/group-commit.ts';

/**
 * The local search adapter (issue 14): FlexSearch, chosen over MiniSearch by `npm run bench:search`
 * (README 'Search'), behind the same port as OpenSearch.
 *   - one FlexSearch Index per (search index, org): tenancy by construction, and each org's
 *     index only as big as its data; its documents, numeric ids and tombstones are the org's too,
 *     so a document is stored and removed by (org, id) (issue 41 §6: ids are unique only within an
 *     org, and the same customer writing to two orgs gives both the same chat and contact ids);
 *   - `forward` tokenizer (every word matches as a prefix) with the Normalize charset (case and
 *     accents folded, like the OpenSearch analyzer); every query word is required;
 *   - one typo: a query word of 4+ letters that matches nothing is replaced by the org's most
 *     frequent indexed word within one edit (the org's vocabulary is kept beside the index);
 *   - documents (text and meta) are kept in a Map for filters (number, sender, type, dates,
 *     chats) and snippets; versions are compared so an older write never wins (SearchDoc.version),
 *     and removals leave a tombstone version so a late older upsert does not bring a doc back.
 * Kept on disk as a snapshot, `<dataDir>/search/<index>.docs.json` (temp file + rename, so a crash
 * never leaves half a file), plus a log of the changes since it, `<index>.log.jsonl`: each upsert
 * and remove appends a line before it resolves (the changes made while an append is under way
 * share the next one: shared/group-commit.ts), so an indexed document survives a kill, and a change costs its own bytes, not a
 * rewrite of every document. The log is folded into a new snapshot once it passes
 * LOG_COMPACT_BYTES and at stop. At start the FlexSearch indexes are rebuilt from the snapshot and
 * the log replayed over it (replay is idempotent: versions and tombstones decide). When the
 * snapshot is missing the documents are rebuilt from the table with `rebuild`, so the index never
 * silently misses documents. Removal without `fastupdate` walks the
 * org's index (fine for deletes and edits at local scale; the build stays lean).
 */
export interface LocalSearch extends SearchPort {
  /** fold the change logs into snapshots (after the changes under way) */
  stop(): Promise<void>;
}

/** One org's part of a search index: everything in it is keyed by the document's public id, unique within the org. */
interface OrgIndex {
  idx: Index;
  /** folded word -> documents holding it (for typo correction) */
  vocab: Map<string, number>;
  /**
   * hour (epoch ms / HOUR_MS, floored) of `meta.timestamp` -> numeric ids of the documents in it: a
   * date filter reads only the hours in its range, and its two boundary hours waste at most an hour
   * of documents each (weeks wasted up to 6 days: 6,200 documents read for 50 hits in bench:search)
   */
  hours: Map<number, Set<number>>;
  docs: Map<string, SearchDoc>;
  /** FlexSearch numeric id (numbered within the org) <-> document id */
  num: Map<string, number>;
  ids: string[];
  /** document id -> version of its removal */
  tombstones: Map<string, number>;
}

/** Width of a date bucket (ms). */
const HOUR_MS = 3_600_000;

interface Store {
  /** org id -> the org's documents and index */
  orgs: Map<string, OrgIndex>;
}

const newOrgIndex = (): OrgIndex => ({ idx: new Index({ tokenize: 'forward', encoder: Charset.Normalize }), vocab: new Map(), hours: new Map(), docs: new Map(), num: new Map(), ids: [], tombstones: new Map() });

/** Does a stored document pass the filter? */
export function passes(d: SearchDoc, f: SearchFilter | undefined): boolean {
  if (!f) return true;
  const m = d.meta ?? {};
  if (f.phone_id && m.phone_id !== f.phone_id) return false;
  if (f.message_type && m.message_type !== f.message_type) return false;
  if (f.sender) {
    const s = f.sender.toLowerCase();
    if ((m.sender_phone ?? '').toLowerCase() !== s && (m.author ?? '').toLowerCase() !== s) return false;
  }
  if (f.from != null && (m.timestamp ?? 0) < f.from) return false;
  if (f.to != null && (m.timestamp ?? 0) > f.to) return false;
  if (f.chat_ids && !f.chat_ids.includes(m.chat_id ?? d.id)) return false;
  // ticket meta: a document without a status (indexed before it was kept) passes, the caller re-checks
  if (m.status !== undefined) {
    if (f.status && m.status !== f.status) return false;
    if (f.assignee && (f.assignee === 'none' ? !!m.author : (m.author ?? '').toLowerCase() !== f.assignee.toLowerCase())) return false;
  }
  return true;
}

const textOf = (d: SearchDoc) => Object.values(d.fields).join(' ');

/**
 * One search index (all orgs) in memory, every document kept and removed by (org, id)
 * (issue 41 §6). Exported for the bench and tests.
 */
export function memoryIndex() {
  const s: Store = { orgs: new Map() };
  const org = (id: string) => {
    let o = s.orgs.get(id);
    if (!o) s.orgs.set(id, (o = newOrgIndex()));
    return o;
  };
  const vocab = (o: OrgIndex, d: SearchDoc, delta: number) => {
    for (const w of new Set(words(textOf(d)))) {
      if (/^\d+$/.test(w)) continue;
      const n = (o.vocab.get(w) ?? 0) + delta;
      if (n > 0) o.vocab.set(w, n);
      else o.vocab.delete(w);
    }
  };
  const hourOf = (d: SearchDoc) => (d.meta?.timestamp != null ? Math.floor(d.meta.timestamp / HOUR_MS) : null);
  const drop = (o: OrgIndex, id: string) => {
    const old = o.docs.get(id);
    if (!old) return;
    const n = o.num.get(id)!;
    o.idx.remove(n);
    vocab(o, old, -1);
    const w = hourOf(old);
    if (w != null) o.hours.get(w)?.delete(n);
    o.docs.delete(id);
  };
  return {
    store: s,
    /** Add or replace the document (org_id, id); an older version than the stored one or its tombstone is ignored. */
    upsert(d: SearchDoc) {
      const o = org(d.org_id);
      if (d.version != null && (o.tombstones.get(d.id) ?? -1) > d.version) return;
      const old = o.docs.get(d.id);
      if (old && d.version != null && (old.version ?? -1) > d.version) return;
      if (old) drop(o, d.id);
      o.tombstones.delete(d.id);
      let n = o.num.get(d.id);
      if (n === undefined) {
        n = o.ids.push(d.id) - 1;
        o.num.set(d.id, n);
      }
      o.docs.set(d.id, d);
      o.idx.add(n, textOf(d));
      vocab(o, d, 1);
      const w = hourOf(d);
      if (w != null) {
        let set = o.hours.get(w);
        if (!set) o.hours.set(w, (set = new Set()));
        set.add(n);
      }
    },
    /** Remove the org's document `id` (other orgs' documents with that id stay); with `version`, only when not older, leaving a tombstone. */
    remove(orgId: string, id: string, version?: number) {
      const o = version != null ? org(orgId) : s.orgs.get(orgId);
      if (!o) return;
      const old = o.docs.get(id);
      if (old && version != null && (old.version ?? -1) > version) return;
      drop(o, id);
      if (version != null) o.tombstones.set(id, version);
    },
    /** The orgs holding a document `id` (replaying a change log written before removals named their org). */
    orgsWith(id: string): string[] {
      return [...s.orgs].filter(([, o]) => o.docs.has(id)).map(([orgId]) => orgId);
    },
    search(orgId: string, text: string, limit: number, offset = 0, filter?: SearchFilter): SearchHit[] {
      const o = s.orgs.get(orgId);
      const ws = words(text);
      if (!o || !ws.length) return [];
      const query: string[] = [];
      for (const w of ws) {
        if (w.length < 4 || o.idx.search(w, { limit: 1 }).length) {
          query.push(w);
          continue;
        }
        // one typo: the most frequent word of the org within one edit
        let best: string | undefined;
        let bestN = 0;
        for (const [v, n] of o.vocab) if (n > bestN && Math.abs(v.length - w.length) <= 1 && editDistance(v, w, 1) <= 1) [best, bestN] = [v, n];
        if (!best) return [];
        query.push(best);
      }
      // the rarest word is looked up in the index; the other words are checked on its documents
      // (lazily, until the page is full): one short posting list instead of intersecting long ones
      const count = (w: string) => {
        let n = 0;
        for (const [v, c] of o.vocab) if (v.startsWith(w)) n += c;
        return n;
      };
      const ordered = query.length > 1 ? [...query].sort((a, b) => count(a) - count(b)) : query;
      const [lead, ...rest] = ordered as [string, ...string[]];
      const has = (d: SearchDoc) => {
        if (!rest.length) return true;
        const ws = words(textOf(d));
        return rest.every((r) => ws.some((w) => w.startsWith(r)));
      };
      const want = offset + limit;
      const hits: SearchHit[] = [];
      // a date range holding fewer documents than the lead word's posting list: walk the range's hours
      // (oldest first) and check every word on each document, instead of filtering a long posting list
      // (a document without a timestamp never passes a `from`, so the hours hold every candidate)
      if (filter?.from != null && o.hours.size) {
        const first = Math.floor(filter.from / HOUR_MS);
        const last = filter.to != null ? Math.floor(filter.to / HOUR_MS) : Infinity;
        // a range longer than the org's list of hours (or open-ended) is read from that list instead
        const inside =
          last - first < o.hours.size
            ? Array.from({ length: last - first + 1 }, (_, i) => first + i)
            : [...o.hours.keys()].filter((h) => h >= first && h <= last).sort((a, b) => a - b);
        let inRange = 0;
        const spans: Array<Set<number>> = [];
        for (const h of inside) {
          const set = o.hours.get(h);
          if (!set?.size) continue;
          inRange += set.size;
          spans.push(set);
        }
        if (inRange < count(lead)) {
          let seen = 0;
          for (const set of spans)
            for (const n of set) {
              const d = o.docs.get(o.ids[n]!);
              if (!d || !passes(d, filter)) continue;
              const ws = words(textOf(d));
              if (!query.every((q) => ws.some((w) => w.startsWith(q)))) continue;
              if (seen++ >= offset) hits.push({ id: d.id, score: 1 / seen, doc: d, terms: query });
              if (hits.length >= limit) return hits;
            }
          return hits;
        }
      }
      // a filter or other words: a larger first slice of the posting list, growing 8x until the page is full
      for (let cap = filter ? Math.max(2000, want * 40) : rest.length ? Math.max(500, want * 10) : want; ; cap *= 8) {
        const ids = o.idx.search(lead, { limit: cap }) as number[];
        hits.length = 0;
        let seen = 0;
        for (const n of ids) {
          const d = o.docs.get(o.ids[n]!);
          if (!d || !passes(d, filter) || !has(d)) continue;
          if (seen++ >= offset) hits.push({ id: d.id, score: 1 / seen, doc: d, terms: query });
          if (hits.length >= limit) return hits;
        }
        if (ids.length < cap) return hits;
      }
    },
  };
}

/** The change log's size (bytes) past which it is folded into a new snapshot. */
const LOG_COMPACT_BYTES = 16 * 1024 * 1024;

/**
 * One line of an index's change log: upserted documents (each names its org), or removed ids of
 * org `o` (issue 41 §6; a line written before removals named their org has no `o`).
 */
type LogLine = { u: SearchDoc[] } | { r: string[]; o?: string; v?: number };

/**
 * An index's snapshot file. Tombstones are `[org_id, id, version]`; a snapshot written before
 * documents were kept by org holds `[id, version]` pairs, which name no org and are dropped at
 * load (a tombstone only turns away a late older upsert, long delivered by then). Its documents
 * name their org, so they load under (org, id) as they are.
 */
interface Snapshot {
  docs: SearchDoc[];
  tombstones: Array<[string, string, number] | [string, number]>;
}

/**
 * Start the local search adapter over `<dataDir>/search/`.
 * @param rebuild the documents of an index whose snapshot is missing or unreadable (from the table)
 * @param opts.persist false: memory only (benchmarks) @default true
 * @param opts.compactBytes change-log size (bytes) that triggers a new snapshot @default LOG_COMPACT_BYTES
 */
export async function startLocalSearch(dataDir: string, rebuild: (index: SearchIndexName) => Promise<SearchDoc[]>, opts: { persist?: boolean; compactBytes?: number } = {}): Promise<LocalSearch> {
  const persist = opts.persist ?? true;
  const compactBytes = opts.compactBytes ?? LOG_COMPACT_BYTES;
  const dir = join(dataDir, 'search');
  await mkdir(dir, { recursive: true });
  const indexes = new Map<SearchIndexName, ReturnType<typeof memoryIndex>>();
  const dirty = new Set<SearchIndexName>();
  const fileOf = (index: SearchIndexName) => join(dir, `${index}.docs.json`);
  const logOf = (index: SearchIndexName) => join(dir, `${index}.log.jsonl`);

  for (const index of Object.keys(SEARCH_INDEXES) as SearchIndexName[]) {
    const mi = memoryIndex();
    let docs: SearchDoc[] | undefined;
    if (persist && existsSync(fileOf(index))) {
      try {
        const saved = JSON.parse(await readFile(fileOf(index), 'utf8')) as Snapshot;
        docs = saved.docs;
        for (const t of saved.tombstones) if (t.length === 3) mi.remove(t[0], t[1], t[2]);
      } catch {
        docs = undefined; // unreadable: rebuilt below
      }
    }
    if (!docs) {
      docs = await rebuild(index);
      dirty.add(index);
    }
    for (const d of docs) mi.upsert(d);
    if (!dirty.has(index) && existsSync(logOf(index))) {
      // the changes since the snapshot; a torn last line (a kill mid-append) was never acknowledged
      for (const line of (await readFile(logOf(index), 'utf8')).split('\n')) {
        let op: LogLine;
        try {
          op = JSON.parse(line) as LogLine;
        } catch {
          continue;
        }
        if ('u' in op) for (const d of op.u) mi.upsert(d);
        // a line without its org was written when an id named one document in all orgs: it removes the id wherever it is
        else for (const id of op.r) for (const orgId of op.o !== undefined ? [op.o] : mi.orgsWith(id)) mi.remove(orgId, id, op.v);
      }
      dirty.add(index);
    }
    indexes.set(index, mi);
  }

  /** Write a new snapshot of the index and empty its log (the log's lines are all in the snapshot). */
  const snapshot = async (index: SearchIndexName) => {
    const orgs = [...indexes.get(index)!.store.orgs];
    const saved: Snapshot = { docs: orgs.flatMap(([, o]) => [...o.docs.values()]), tombstones: orgs.flatMap(([orgId, o]) => [...o.tombstones].map(([id, v]): [string, string, number] => [orgId, id, v])) };
    await writeFile(`${fileOf(index)}.tmp`, JSON.stringify(saved));
    await rename(`${fileOf(index)}.tmp`, fileOf(index));
    await rm(logOf(index), { force: true });
    logBytes.set(index, 0);
  };

  /** Per index: its change log's size (bytes), and its writer (log lines; `null` asks for a snapshot). */
  const logBytes = new Map<SearchIndexName, number>();
  const writers = new Map<SearchIndexName, GroupCommit<string | null, void>>();
  /**
   * The index's log writer: the lines added while an append is under way share the next one
   * (shared/group-commit.ts), and an append or snapshot never overlaps another. The log becomes a
   * snapshot when asked (`null`) or once it passes compactBytes.
   */
  const writerOf = (index: SearchIndexName) => {
    let w = writers.get(index);
    if (!w) {
      w = new GroupCommit<string | null, void>(async (ops) => {
        const lines = ops.filter((o): o is string => o !== null);
        if (lines.length) {
          const text = `${lines.join('\n')}\n`;
          await appendFile(logOf(index), text);
          logBytes.set(index, (logBytes.get(index) ?? 0) + Buffer.byteLength(text));
        }
        if (ops.includes(null) || (logBytes.get(index) ?? 0) > compactBytes) await snapshot(index);
        return ops.map(() => undefined);
      });
      writers.set(index, w);
    }
    return w;
  };

  /** Append a change to the index's log; resolves once it is on disk. */
  const append = async (index: SearchIndexName, op: LogLine): Promise<void> => {
    if (persist) await writerOf(index).add(JSON.stringify(op));
  };

  /** Fold into snapshots every index rebuilt or replayed at start, or written since (after its appends under way). */
  const save = async () => {
    if (!persist) return;
    const all = new Set([...dirty, ...writers.keys()]);
    dirty.clear();
    await Promise.all([...all].map((index) => writerOf(index).add(null)));
  };
  await save();

  return {
    async upsert(index, docs) {
      const mi = indexes.get(index)!;
      for (const d of docs) mi.upsert(d);
      await append(index, { u: docs });
    },
    async remove(index, orgId, ids, version) {
      const mi = indexes.get(index)!;
      for (const id of ids) mi.remove(orgId, id, version);
      await append(index, version === undefined ? { r: ids, o: orgId } : { r: ids, o: orgId, v: version });
    },
    async search(index, orgId, text, limit, o) {
      return indexes.get(index)!.search(orgId, text, limit, o?.offset ?? 0, o?.filter);
    },
    async stop() {
      await save();
    },
  };
}
