import type { SearchDoc, SearchIndexName } from '../shared/ports/search.ts';
import { SEARCH_INDEXES } from '../shared/ports/search.ts';
import { fold, maxTypos, words } from '../shared/search/text.ts';

/** MiniSearch, the former embedded engine, as measured by `npm run bench:search` (issue 14). */
type Doc = { id: string; org_id: string; doc: SearchDoc; v: number } & Record<string, unknown>;

/**
 * MiniSearch options of an index : accents and case folded, every word
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

/** The filter check is the embedded adapter's own (scripts/local/search.ts), so both engines filter alike. */
export { passes } from './local/search.ts';

/** The MiniSearch document of a search document (exported for the bench). */
export function toDoc(d: SearchDoc, v = d.version ?? 0): Doc {
  return { ...d.fields, id: d.id, org_id: d.org_id, doc: d, v };
}
