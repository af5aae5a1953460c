import MiniSearch from 'minisearch';
import { terms } from './text.ts';
import { customerText } from './faq.rules.ts';

/**
 * The embedded ranker of the local answering adapter (issue 18): BM25 retrieval over the FAQ
 * pairs with MiniSearch (the library the local search index uses), on the terms of text.ts
 * (accent folding, synonyms, Porter stemming), with fuzzy matching of long words for typos.
 *
 * Confidence (0..1) of a candidate pair, used for the threshold and hand-off:
 *   coverage  = share of the question's meaning the pair covers: IDF-weighted share of the
 *               question's terms found in the pair (question or customer-visible answer);
 *   focus     = IDF-weighted share of the pair's *question* terms the customer's question has;
 *   confidence = 0.65 * coverage + 0.35 * focus.
 * Terms no pair contains weigh the most (IDF of an unseen term), so a question about something the
 * pairs never mention scores low and the agent abstains. The top 5 BM25 hits are re-ranked by
 * confidence (BM25 breaks ties).
 */

export interface RankablePair {
  id: string;
  question: string;
  answer: string;
}

export interface RankedPair {
  id: string;
  /** 0..1 */
  confidence: number;
  /** the BM25 score of MiniSearch (unbounded) */
  score: number;
}

/** Default confidence threshold of the local adapter: below it the agent hands off. Tuned on tests/fixtures/ai/shop-qa.json (npm run bench:ai). */
export const DEFAULT_LOCAL_THRESHOLD = 0.45;

const COVERAGE_WEIGHT = 0.65;

export class LocalRanker {
  private readonly index: MiniSearch<{ id: string; question: string; answer: string }>;
  private readonly df = new Map<string, number>();
  private readonly pairTerms = new Map<string, { all: Set<string>; question: Set<string> }>();
  private readonly n: number;

  constructor(pairs: readonly RankablePair[]) {
    this.index = new MiniSearch({
      fields: ['question', 'answer'],
      storeFields: [],
      tokenize: (text) => terms(text),
      processTerm: (t) => t,
      searchOptions: { boost: { question: 2 }, fuzzy: (t) => (t.length > 5 ? 0.2 : false), combineWith: 'OR' },
    });
    const docs = pairs.map((p) => ({ id: p.id, question: p.question, answer: customerText(p.answer) }));
    this.index.addAll(docs);
    for (const d of docs) {
      const question = new Set(terms(d.question));
      const all = new Set([...question, ...terms(d.answer)]);
      this.pairTerms.set(d.id, { all, question });
      for (const t of all) this.df.set(t, (this.df.get(t) ?? 0) + 1);
    }
    this.n = Math.max(1, docs.length);
  }

  private idf(t: string): number {
    const df = this.df.get(t) ?? 0;
    return Math.log(1 + (this.n + 1) / (df + 0.5));
  }

  /** The best pairs for a question, most confident first (at most `limit`). */
  rank(question: string, limit = 3): RankedPair[] {
    const q = [...new Set(terms(question))];
    if (!q.length || !this.n) return [];
    const hits = this.index.search(q.join(' ')).slice(0, 5);
    const qWeight = q.reduce((s, t) => s + this.idf(t), 0);
    const ranked = hits.map((h) => {
      const pt = this.pairTerms.get(String(h.id))!;
      // fuzzy matches count: MiniSearch tells which query terms matched something in the doc
      const matched = new Set(h.queryTerms.filter((t) => q.includes(t)));
      for (const t of q) if (pt.all.has(t)) matched.add(t);
      const coverage = [...matched].reduce((s, t) => s + this.idf(t), 0) / qWeight;
      const pq = [...pt.question];
      const pWeight = pq.reduce((s, t) => s + this.idf(t), 0) || 1;
      const fuzzyDocTerms = new Set(h.terms);
      const focus = pq.filter((t) => q.includes(t) || fuzzyDocTerms.has(t)).reduce((s, t) => s + this.idf(t), 0) / pWeight;
      const confidence = Math.min(1, COVERAGE_WEIGHT * coverage + (1 - COVERAGE_WEIGHT) * focus);
      return { id: String(h.id), confidence: Math.round(confidence * 1000) / 1000, score: Math.round(h.score * 1000) / 1000 };
    });
    ranked.sort((a, b) => b.confidence - a.confidence || b.score - a.score);
    return ranked.slice(0, limit);
  }
}
