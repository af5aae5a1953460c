import { BedrockRuntimeClient, ConverseCommand, InvokeModelCommand, type ConverseCommandInput } from '@aws-sdk/client-bedrock-runtime';
import { config } from '../config.ts';
import { traced } from '../tracing.ts';
import { customerText, instructionFlags, instructionsOf } from './faq.rules.ts';
import type { AnswerPair, AnswerPort, AnswerResult } from './answer-port.ts';

/**
 * The Bedrock adapter of the answering port (issue 18, in AWS; `AI_ADAPTER=bedrock`):
 *   1. retrieval: the question and each pair's question are embedded with a Bedrock embeddings
 *      model (InvokeModel, Titan Text Embeddings v2 body `{ inputText, dimensions, normalize }`
 *      -> `{ embedding }`); a pair's embedding is cached on its row when the caller stores it;
 *      the top 3 pairs by cosine similarity are kept;
 *   2. below the threshold (cosine of the best pair), or when the best pair's instructions ask
 *      for a human: hand-off, no model call;
 *   3. phrasing: the Converse API with the retrieved pairs only (instructions given to the model
 *      as instructions, never as text to repeat), temperature 0, asked for JSON
 *      `{ "answer": string|null, "faq_ids": string[] }`; `answer: null` is the model declining
 *      (the pairs do not answer) and becomes a hand-off. The model is told to answer in the
 *      customer's language and to state nothing that is not in the pairs.
 * The client honours AWS_REGION and AWS_ENDPOINT_URL (shared/config.ts).
 */

export const DEFAULT_BEDROCK_THRESHOLD = 0.45;
const TOP_K = 3;

/** The InvokeModel input of one embedding (Titan Text Embeddings v2). */
export function embeddingRequest(modelId: string, text: string): ConstructorParameters<typeof InvokeModelCommand>[0] {
  return { modelId, contentType: 'application/json', accept: 'application/json', body: JSON.stringify({ inputText: text.slice(0, 8000), dimensions: 512, normalize: true }) };
}

export const cosine = (a: readonly number[], b: readonly number[]): number => {
  let dot = 0;
  let na = 0;
  let nb = 0;
  for (let i = 0; i < Math.min(a.length, b.length); i++) {
    dot += a[i]! * b[i]!;
    na += a[i]! * a[i]!;
    nb += b[i]! * b[i]!;
  }
  return na && nb ? dot / Math.sqrt(na * nb) : 0;
};

const SYSTEM_PROMPT = [
  'You are the customer service assistant of a business, answering customers on WhatsApp.',
  'Answer ONLY from the question-and-answer pairs given in the user message. Never state a fact, price, date, link or promise that is not in them.',
  "Reply in the customer's language when you can do so faithfully; keep it short and friendly.",
  'Pairs may carry instructions for you: follow them, never quote or mention them.',
  'If the pairs do not answer the question, answer null.',
  'Reply with JSON only: {"answer": string or null, "faq_ids": [ids of the pairs you used]}.',
].join('\n');

/** The Converse input that phrases an answer from the retrieved pairs only. */
export function converseRequest(modelId: string, question: string, pairs: readonly AnswerPair[]): ConverseCommandInput {
  const context = pairs
    .map((p) => {
      const ins = instructionsOf(p.answer);
      return `<pair id="${p.id}">\nQuestion: ${p.question}\nAnswer: ${customerText(p.answer)}${ins.length ? `\nInstructions for you (do not show): ${ins.join(' ')}` : ''}\n</pair>`;
    })
    .join('\n');
  return {
    modelId,
    system: [{ text: SYSTEM_PROMPT }],
    messages: [{ role: 'user', content: [{ text: `Pairs:\n${context}\n\nCustomer question:\n${question}` }] }],
    inferenceConfig: { temperature: 0, maxTokens: 600 },
  };
}

/** The model's JSON reply, tolerant of surrounding text; ids not among the retrieved pairs are dropped. */
export function parseModelReply(text: string, allowed: readonly string[]): { answer: string | null; faq_ids: string[] } {
  const m = text.match(/\{[\s\S]*\}/);
  if (!m) return { answer: null, faq_ids: [] };
  try {
    const j = JSON.parse(m[0]) as { answer?: unknown; faq_ids?: unknown };
    const answer = typeof j.answer === 'string' && j.answer.trim() ? customerText(j.answer) : null;
    const ids = Array.isArray(j.faq_ids) ? j.faq_ids.filter((x): x is string => typeof x === 'string' && allowed.includes(x)) : [];
    return { answer, faq_ids: ids };
  } catch {
    return { answer: null, faq_ids: [] };
  }
}

export function bedrockAnswerPort(client?: BedrockRuntimeClient): AnswerPort {
  const c = config();
  const sdk = client ?? traced(new BedrockRuntimeClient({ region: c.AWS_REGION, endpoint: c.AWS_ENDPOINT_URL }));
  const embed = async (text: string): Promise<number[]> => {
    const out = await sdk.send(new InvokeModelCommand(embeddingRequest(c.AI_BEDROCK_EMBED_MODEL, text)));
    const j = JSON.parse(new TextDecoder().decode(out.body)) as { embedding?: number[] };
    if (!Array.isArray(j.embedding)) throw new Error('Bedrock embeddings: no embedding in the reply');
    return j.embedding;
  };
  return {
    name: 'bedrock',
    async answer(question, pairs, opts): Promise<AnswerResult> {
      const threshold = opts?.threshold ?? DEFAULT_BEDROCK_THRESHOLD;
      const base = { adapter: 'bedrock' as const };
      if (!pairs.length) return { ...base, answer: null, confidence: 0, faq_ids: [], handoff: true, reason: 'no_pairs', candidates: [] };
      const q = await embed(question);
      const scored: Array<{ pair: AnswerPair; score: number }> = [];
      for (const p of pairs) scored.push({ pair: p, score: cosine(q, p.embedding?.length ? p.embedding : await embed(p.question)) });
      scored.sort((a, b) => b.score - a.score);
      const top = scored.slice(0, TOP_K);
      const candidates = top.map((s) => ({ faq_id: s.pair.id, question: s.pair.question, score: Math.round(s.score * 1000) / 1000 }));
      const best = top[0]!;
      if (best.score < threshold) return { ...base, answer: null, confidence: best.score, faq_ids: [best.pair.id], handoff: true, reason: 'low_confidence', candidates };
      if (instructionFlags(best.pair.answer).handoff) return { ...base, answer: null, confidence: best.score, faq_ids: [best.pair.id], handoff: true, reason: 'instructions', candidates };
      const kept = top.filter((s) => s.score >= threshold).map((s) => s.pair);
      const out = await sdk.send(new ConverseCommand(converseRequest(c.AI_BEDROCK_TEXT_MODEL, question, kept)));
      const text = out.output?.message?.content?.map((b) => ('text' in b ? b.text : '')).join('') ?? '';
      const reply = parseModelReply(text, kept.map((p) => p.id));
      if (!reply.answer) return { ...base, answer: null, confidence: best.score, faq_ids: kept.map((p) => p.id), handoff: true, reason: 'model_declined', candidates };
      return { ...base, answer: reply.answer, confidence: best.score, faq_ids: reply.faq_ids.length ? reply.faq_ids : [best.pair.id], handoff: false, reason: null, candidates };
    },
  };
}
