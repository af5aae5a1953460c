import { existsSync } from 'node:fs';
import { mkdir, readFile, rename, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import MiniSearch from 'minisearch';
import { SEARCH_INDEXES, type SearchDoc, type SearchFilter, type SearchIndexName, type SearchPort } from '../../shared/ports/search.ts';
import { fold, maxTypos, words } from '../../shared/search/text.ts';

/**
 * The local search adapter: one embedded MiniSearch index per search index (local-stack.md:
 * 100k messages index in 1.2 s, queries 36-40 ms), behind the same port as OpenSearch.
 * Saved to `<dataDir>/search/<index>.json` (written to a temp file and renamed, so a crash never
 * leaves half a file) a second after changes and at stop; loaded at start. When the file is
 * missing (first start, or a `.data/` from before search) the index is rebuilt from the table
 * with `rebuild`, so it never silently misses documents.
 */
type Doc = { id: string; org_id: string; doc: SearchDoc; v: number } & Record<string, unknown>;

/**
 * MiniSearch options of an index (exported for the bench): accents and case folded, every word
 * required, the last word as a prefix, one typo in words of 4+ letters; the org and the whole
 * document (JSON) stored for filtering and snippets.
 */
export const miniSearchOptions = (index: SearchIndexName) => ({
  fields: [...SEARCH_INDEXES[index].fields],
  storeFields: ['org_id', 'doc', 'v'],
  tokenize: (text: string) => words(text),
  processTerm: (term: string) => fold(term),
  searchOptions: {
    combineWith: 'AND' as const,
    prefix: (_t: string, i: number, terms: string[]) => i === terms.length - 1,
    fuzzy: (t: string) => maxTypos(t),
    maxFuzzy: 1,
  },
});

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
  return true;
}

export interface LocalSearch extends SearchPort {
  /** write pending changes now */
  flush(): Promise<void>;
  stop(): Promise<void>;
}

export async function startLocalSearch(dataDir: string, rebuild: (index: SearchIndexName) => Promise<SearchDoc[]>): Promise<LocalSearch> {
  const dir = join(dataDir, 'search');
  await mkdir(dir, { recursive: true });
  const options = miniSearchOptions;
  /** id -> version of removed documents (so a late older upsert does not bring them back) */
  const tombstones = new Map<SearchIndexName, Map<string, number>>();
  const indexes = new Map<SearchIndexName, MiniSearch<Doc>>();
  const dirty = new Set<SearchIndexName>();
  let timer: NodeJS.Timeout | undefined;

  for (const index of Object.keys(SEARCH_INDEXES) as SearchIndexName[]) {
    const file = join(dir, `${index}.v2.json`);
    let ms: MiniSearch<Doc> | undefined;
    if (existsSync(file)) {
      try {
        ms = MiniSearch.loadJSON<Doc>(await readFile(file, 'utf8'), options(index));
      } catch {
        ms = undefined; // unreadable: rebuilt below
      }
    }
    if (!ms) {
      ms = new MiniSearch<Doc>(options(index));
      ms.addAll((await rebuild(index)).map((d) => toDoc(d)));
      dirty.add(index);
    }
    indexes.set(index, ms);
    tombstones.set(index, new Map());
  }

  const save = async () => {
    timer = undefined;
    for (const index of [...dirty]) {
      dirty.delete(index);
      const file = join(dir, `${index}.v2.json`);
      await writeFile(`${file}.tmp`, JSON.stringify(indexes.get(index)));
      await rename(`${file}.tmp`, file);
    }
  };
  const touch = (index: SearchIndexName) => {
    dirty.add(index);
    timer ??= setTimeout(() => void save().catch(() => undefined), 1000);
  };
  await save();

  return {
    async upsert(index, docs) {
      const ms = indexes.get(index)!;
      const dead = tombstones.get(index)!;
      for (const d of docs) {
        const v = d.version ?? Number.MAX_SAFE_INTEGER;
        if (d.version != null && (dead.get(d.id) ?? -1) > d.version) continue;
        if (ms.has(d.id)) {
          const stored = ms.getStoredFields(d.id) as { v?: number } | undefined;
          if (d.version != null && (stored?.v ?? -1) > d.version) continue;
          ms.discard(d.id);
        }
        dead.delete(d.id);
        ms.add(toDoc(d, v));
      }
      touch(index);
    },
    async remove(index, ids, version) {
      const ms = indexes.get(index)!;
      for (const id of ids) {
        if (ms.has(id)) {
          const stored = ms.getStoredFields(id) as { v?: number } | undefined;
          if (version != null && (stored?.v ?? -1) > version) continue;
          ms.discard(id);
        }
        if (version != null) tombstones.get(index)!.set(id, version);
      }
      touch(index);
    },
    async search(index, orgId, text, limit, opts) {
      const ms = indexes.get(index)!;
      if (!words(text).length) return [];
      const f = opts?.filter;
      const offset = opts?.offset ?? 0;
      const res = ms.search(text, { filter: (r) => r.org_id === orgId && (!f || passes(r.doc as SearchDoc, f)) });
      return res.slice(offset, offset + limit).map((r) => ({ id: String(r.id), score: r.score, doc: r.doc as SearchDoc, terms: r.terms }));
    },
    async flush() {
      if (timer) clearTimeout(timer);
      await save();
    },
    async stop() {
      if (timer) clearTimeout(timer);
      await save();
    },
  };
}

/** The MiniSearch document of a search document (exported for the bench). */
export function toDoc(d: SearchDoc, v = d.version ?? 0): Doc {
  return { ...d.fields, id: d.id, org_id: d.org_id, doc: d, v };
}
