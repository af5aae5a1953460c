/**
 * `npm run bench:ai`: the AI agent's local answering adapter (shared/ai/answer-port.ts) on the Q&A
 * set of tests/fixtures/ai/shop-qa.json (an imaginary shop: ≥30 pairs, ≥60 paraphrased covered
 * questions, ≥15 questions the pairs do not cover). Prints
 *   precision@1: share of covered questions whose best pair is the right one (issue 18 target ≥ 85%);
 *   answered right: share of covered questions answered (above the threshold) from the right pair;
 *   correct abstain: share of uncovered questions left unanswered (handed off) (target ≥ 90%);
 * and the misses. `--threshold 0.55` tries another threshold; `--sweep` prints a table of them.
 * `--bedrock` (issue 42) counts the Bedrock adapter's embedding calls against the Bedrock stand-in
 * (tests/factories/bedrock-standin.ts) for the set's pairs and for 2,000 pairs: per reply with no
 * stored vectors (before: every pair re-embedded), to store them once, per reply with stored
 * vectors (after), and to re-embed one edited pair.
 * Pure CPU, no runtime; timings are per question.
 */
import { readFileSync } from 'node:fs';
import { localAnswerPort } from '../shared/ai/answer-port.ts';
import { DEFAULT_LOCAL_THRESHOLD, LocalRanker } from '../shared/ai/ranker.ts';
import { pct } from './bench-lib.ts';

interface QaSet {
  shop: string;
  pairs: Array<{ id: string; question: string; answer: string }>;
  covered: Array<{ q: string; faq: string }>;
  uncovered: string[];
}
const set = JSON.parse(readFileSync(new URL('../tests/fixtures/ai/shop-qa.json', import.meta.url), 'utf8')) as QaSet;
const args = process.argv.slice(2);
const thrArg = args.indexOf('--threshold');
const threshold = thrArg >= 0 ? Number(args[thrArg + 1]) : DEFAULT_LOCAL_THRESHOLD;

async function run(thr: number, verbose: boolean) {
  const port = localAnswerPort();
  const times: number[] = [];
  let top1 = 0;
  let answeredRight = 0;
  const misses: string[] = [];
  for (const c of set.covered) {
    const t0 = performance.now();
    const r = await port.answer(c.q, set.pairs, { threshold: thr });
    times.push(performance.now() - t0);
    const best = r.candidates[0]?.faq_id;
    if (best === c.faq) top1++;
    else misses.push(`  top-1 miss: "${c.q}" -> ${best ?? 'none'} (${r.candidates[0]?.score ?? 0}), want ${c.faq}`);
    // a pair whose instructions ask for a human counts as answered right when it is handed off for that reason
    if (best === c.faq && (!r.handoff || r.reason === 'instructions')) answeredRight++;
    else if (best === c.faq) misses.push(`  below threshold: "${c.q}" -> ${best} (${r.confidence})`);
  }
  let abstained = 0;
  for (const q of set.uncovered) {
    const t0 = performance.now();
    const r = await port.answer(q, set.pairs, { threshold: thr });
    times.push(performance.now() - t0);
    if (r.handoff && r.reason === 'low_confidence') abstained++;
    else misses.push(`  answered uncovered: "${q}" -> ${r.faq_ids[0]} (${r.confidence})`);
  }
  const p1 = top1 / set.covered.length;
  const ar = answeredRight / set.covered.length;
  const ab = abstained / set.uncovered.length;
  if (verbose) {
    console.log(`Q&A set: ${set.pairs.length} pairs, ${set.covered.length} covered questions, ${set.uncovered.length} uncovered (${set.shop})`);
    console.log(`adapter: local (MiniSearch BM25 + stemming, accent folding, synonyms), threshold ${thr}`);
    console.log(`precision@1 (covered):        ${(p1 * 100).toFixed(1)}%  (${top1}/${set.covered.length}; target >= 85%)`);
    console.log(`answered from the right pair: ${(ar * 100).toFixed(1)}%  (${answeredRight}/${set.covered.length})`);
    console.log(`correct abstain (uncovered):  ${(ab * 100).toFixed(1)}%  (${abstained}/${set.uncovered.length}; target >= 90%)`);
    console.log(`latency per question (index built per question, as the agent does): p50 ${pct(times, 50).toFixed(2)} ms, p95 ${pct(times, 95).toFixed(2)} ms`);
    if (misses.length) console.log(`misses:\n${misses.join('\n')}`);
  }
  return { p1, ar, ab };
}

async function bedrockCalls() {
  const { bedrockStandin } = await import('../tests/factories/bedrock-standin.ts');
  const { bedrockAnswerPort } = await import('../shared/ai/bedrock.ts');
  const { embeddedText } = await import('../shared/ai/embeddings.ts');
  const standin = bedrockStandin();
  const port = bedrockAnswerPort(standin.client);
  const q = set.covered[0]!.q;
  console.log(`Bedrock adapter, embedding calls (InvokeModel on ${port.embedder!.model}; Bedrock stand-in), question "${q}":`);
  for (const n of [set.pairs.length, 2000]) {
    const pairs = Array.from({ length: n }, (_, i) => {
      const p = set.pairs[i % set.pairs.length]!;
      return i < set.pairs.length ? p : { ...p, id: `${p.id}-${i}`, question: `${p.question} (variant ${i})` };
    });
    standin.reset();
    await port.answer(q, pairs);
    const before = standin.calls.invoke;
    standin.reset();
    const vectors = await port.embedder!.embed(pairs.map(embeddedText), 'document');
    const store = standin.calls.invoke;
    const stored = pairs.map((p, i) => ({ ...p, embedding: vectors[i] }));
    standin.reset();
    await port.answer(q, stored);
    const after = standin.calls.invoke;
    standin.reset();
    await port.embedder!.embed([`${pairs[0]!.question} (edited)`], 'document');
    const edit = standin.calls.invoke;
    console.log(`  ${String(n).padStart(4)} pairs: per reply before ${before}, after ${after}; storing all once ${store}; editing one pair ${edit}`);
  }
}

if (args.includes('--bedrock')) {
  await bedrockCalls();
} else if (args.includes('--sweep')) {
  for (let t = 0.4; t <= 0.801; t += 0.05) {
    const r = await run(t, false);
    console.log(`threshold ${t.toFixed(2)}: p@1 ${(r.p1 * 100).toFixed(1)}%, answered right ${(r.ar * 100).toFixed(1)}%, abstain ${(r.ab * 100).toFixed(1)}%`);
  }
} else {
  const r = await run(threshold, true);
  void LocalRanker;
  process.exitCode = r.p1 >= 0.85 && r.ab >= 0.9 ? 0 : 1;
}
