import { config } from '../config.ts';
import { customerText, instructionFlags } from './faq.rules.ts';
import { DEFAULT_LOCAL_THRESHOLD, LocalRanker } from './ranker.ts';
import { terms } from './text.ts';
import { detectLanguage, pairLanguage, preferCustomerLanguage } from './language.ts';
import { leakedInstruction } from './reply-guard.rules.ts';
import { log } from '../log.ts';

/**
 * The answering port of the AI agent (issue 18): a question and the org's FAQ pairs in, an answer
 * or a hand-off out. Two adapters:
 *   - 'local' (default; works offline): the embedded ranker (ranker.ts) picks the best pair and
 *     the agent answers with that pair's customer-visible answer, verbatim;
 *   - 'bedrock' (AWS; `AI_ADAPTER=bedrock`): Bedrock embeddings for retrieval and a Bedrock model
 *     that phrases the answer from the retrieved pairs only (bedrock.ts).
 * Both: below the threshold, or when the best pair's instructions ask for a human, `handoff` is
 * true and `answer` null. The agent never states anything that is not in the pairs.
 */

export interface AnswerPair {
  /** context_id */
  id: string;
  question: string;
  /** the stored answer, instructions included (adapters strip them before anything reaches a customer) */
  answer: string;
  /** Bedrock adapter: the embedding of the pair's question, current for the port's embedder (faq.ts `pairsForAnswer`); null: not known, the adapter embeds it for this answer */
  embedding?: ArrayLike<number> | null;
}

/**
 * An embeddings model (the Bedrock adapter's; the local adapter has none). Stored vectors are
 * valid only for the same `model` key.
 */
export interface Embedder {
  /** `<model id>#<dimensions>`: stored with each vector; another key means re-embed */
  readonly model: string;
  /**
   * One vector per text, in order. `use` tells models that embed documents and queries apart
   * (Cohere's `input_type`) which one this is. Batched as the model's API allows.
   */
  embed(texts: readonly string[], use: 'document' | 'query'): Promise<Float32Array[]>;
}

export interface Candidate {
  faq_id: string;
  question: string;
  /** 0..1 */
  score: number;
}

export interface AnswerResult {
  /** the text to send the customer; null on hand-off */
  answer: string | null;
  /** 0..1: the best candidate's confidence */
  confidence: number;
  /** the pairs the answer comes from (best first) */
  faq_ids: string[];
  handoff: boolean;
  /** why there is no answer: 'low_confidence' | 'no_pairs' | 'instructions' | 'model_declined' | 'instructions_leak' (reply-guard.rules.ts) | 'adapter_error' */
  reason: string | null;
  /** the retrieved pairs with their scores (the audit) */
  candidates: Candidate[];
  adapter: 'local' | 'bedrock';
}

export interface AnswerPort {
  readonly name: 'local' | 'bedrock';
  /** the embeddings model whose vectors the adapter ranks by (stored on the pair rows); none: nothing to store */
  readonly embedder?: Embedder;
  /** @param threshold 0..1; default per adapter */
  answer(question: string, pairs: readonly AnswerPair[], opts?: { threshold?: number | null }): Promise<AnswerResult>;
}

/** The local adapter: the embedded ranker; answers with the best pair's customer text (the best pair in the customer's language when there is one above the threshold). */
export function localAnswerPort(): AnswerPort {
  return {
    name: 'local',
    async answer(question, pairs, opts) {
      const threshold = opts?.threshold ?? DEFAULT_LOCAL_THRESHOLD;
      if (!pairs.length) return { answer: null, confidence: 0, faq_ids: [], handoff: true, reason: 'no_pairs', candidates: [], adapter: 'local' };
      const byId = new Map(pairs.map((p) => [p.id, p]));
      const ranked = new LocalRanker(pairs).rank(question, 5);
      // the customer's language where the pairs allow (language.ts): a pair in it beats a pair in another language
      const best = preferCustomerLanguage(ranked, detectLanguage(question), (id) => pairLanguage(byId.get(id)!), threshold);
      const shown = ranked.slice(0, 3);
      if (best && !shown.includes(best)) shown[2] = best;
      const candidates = shown.map((r) => ({ faq_id: r.id, question: byId.get(r.id)!.question, score: r.confidence }));
      if (!best || best.confidence < threshold) {
        return { answer: null, confidence: best?.confidence ?? 0, faq_ids: best ? [best.id] : [], handoff: true, reason: 'low_confidence', candidates, adapter: 'local' };
      }
      const pair = byId.get(best.id)!;
      const text = customerText(pair.answer);
      const asked = new Set(terms(question));
      // a conditional hand-off applies when the question shares a term with its condition (generic words aside)
      const conditionMet = (cond: string) => terms(cond).some((t) => asked.has(t) && !GENERIC.has(t));
      if (instructionFlags(pair.answer, conditionMet).handoff || !text) {
        return { answer: null, confidence: best.confidence, faq_ids: [best.id], handoff: true, reason: 'instructions', candidates, adapter: 'local' };
      }
      return { answer: text, confidence: best.confidence, faq_ids: [best.id], handoff: false, reason: null, candidates, adapter: 'local' };
    },
  };
}

/**
 * The last check before a reply is sent (or shown by the test panel): a reply that repeats a pair's
 * hidden instructions (reply-guard.rules.ts) is refused and becomes a hand-off (reason
 * 'instructions_leak'), logged with the pair's id and the size of the match, never its text.
 * @returns `result` unchanged when clean or already a hand-off
 */
export function guardReply(result: AnswerResult, pairs: readonly AnswerPair[], ctx: { org_id: string; chat_id?: string }): AnswerResult {
  if (result.handoff || !result.answer) return result;
  const hit = leakedInstruction(result.answer, pairs);
  if (!hit) return result;
  log('warn', 'ai.reply_refused', { ...ctx, reason: 'instructions_leak', faq_id: hit.faq_id, matched_words: hit.words, adapter: result.adapter });
  return { ...result, answer: null, handoff: true, reason: 'instructions_leak' };
}

/** words of a condition that say nothing about its subject */
const GENERIC = new Set(terms('customer client person asks ask says mentions question wants about'));

let port: AnswerPort | undefined;

/** Install an adapter (tests); undefined: back to the configured one. */
export function setAnswerPort(p: AnswerPort | undefined): void {
  port = p;
}

/** The configured adapter: `AI_ADAPTER=bedrock` selects Bedrock (AWS), anything else the local ranker. */
export async function answerPort(): Promise<AnswerPort> {
  if (port) return port;
  if (config().AI_ADAPTER === 'bedrock') {
    const { bedrockAnswerPort } = await import('./bedrock.ts');
    port = bedrockAnswerPort();
  } else port = localAnswerPort();
  return port;
}
