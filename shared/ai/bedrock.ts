import { BedrockRuntimeClient, ConverseCommand, InvokeModelCommand, type ConverseCommandInput } from '@aws-sdk/client-bedrock-runtime';
import { config } from '../config.ts';
import { traced } from '../tracing.ts';
import { customerText, instructionFlags, instructionsOf } from './faq.rules.ts';
import { cosine, embeddedText } from './embeddings.ts';
import type { AnswerPair, AnswerPort, AnswerResult, Embedder } from './answer-port.ts';

/**
 * The Bedrock adapter of the answering port (issue 18, in AWS; `AI_ADAPTER=bedrock`):
 *   1. retrieval: the customer's question is embedded once (InvokeModel on the embeddings model);
 *      each pair's question embedding comes stored on its row (faq.ts `pairsForAnswer` embeds only
 *      new or changed pairs, issue 42), and pairs given without one are embedded here in batches;
 *      the top 3 pairs by cosine similarity are kept;
 *   2. below the threshold (cosine of the best pair), or when the best pair's instructions ask
 *      for a human: hand-off, no model call;
 *   3. phrasing: the Converse API with the retrieved pairs only (instructions given to the model
 *      as instructions, never as text to repeat), temperature 0, asked for JSON
 *      `{ "answer": string|null, "faq_ids": string[] }`; `answer: null` is the model declining
 *      (the pairs do not answer) and becomes a hand-off. The model is told to answer in the
 *      customer's language and to state nothing that is not in the pairs. The reply text is
 *      checked once more for the pairs' instructions before anything is sent (answer-port.ts `guardReply`).
 * Embeddings models (https://docs.aws.amazon.com/bedrock/latest/userguide/model-parameters-embed.html):
 *   - Titan Text Embeddings v2 (`amazon.titan-embed-text-v2:0`, the default): body
 *     `{ inputText, dimensions, normalize }` -> `{ embedding: number[] }`, one text per call (its
 *     InvokeModel has no batch form; Bedrock's batch inference is an asynchronous S3 job, not for a
 *     reply), so several texts go as TITAN_CONCURRENCY calls in flight;
 *   - Cohere Embed v3 (`cohere.embed-english-v3`, `cohere.embed-multilingual-v3`): body
 *     `{ texts, input_type, embedding_types: ['float'] }` -> `{ embeddings: { float: number[][] } }`,
 *     up to COHERE_BATCH texts per call.
 * The client honours AWS_REGION and AWS_ENDPOINT_URL (shared/config.ts).
 */

export const DEFAULT_BEDROCK_THRESHOLD = 0.45;
const TOP_K = 3;

/** Titan Text Embeddings v2: vector size asked for (256, 512 or 1,024; 512 keeps ~99% of the retrieval accuracy of 1,024, per the model card). */
export const TITAN_DIMENSIONS = 512;
/** Titan Text Embeddings v2: at most 8,192 tokens (50,000 characters) a text; questions are far shorter. */
const TITAN_MAX_CHARS = 8000;
/** Titan: embedding calls in flight at once when several texts are embedded (one text per call). */
export const TITAN_CONCURRENCY = 4;
/** Cohere Embed v3 on Bedrock: at most 96 texts per call, 2,048 characters each; 1,024 dimensions. */
export const COHERE_BATCH = 96;
const COHERE_MAX_CHARS = 2048;
const COHERE_DIMENSIONS = 1024;

/** Is `modelId` a Cohere Embed model (batch body) rather than Titan? */
export const isCohereEmbed = (modelId: string): boolean => /cohere\.embed-/.test(modelId);

/** The InvokeModel input of one embedding (Titan Text Embeddings v2). */
export function embeddingRequest(modelId: string, text: string): ConstructorParameters<typeof InvokeModelCommand>[0] {
  return { modelId, contentType: 'application/json', accept: 'application/json', body: JSON.stringify({ inputText: text.slice(0, TITAN_MAX_CHARS), dimensions: TITAN_DIMENSIONS, normalize: true }) };
}

/** The InvokeModel input of a batch of at most COHERE_BATCH texts (Cohere Embed v3); `use` maps to `input_type`. */
export function cohereEmbeddingRequest(modelId: string, texts: readonly string[], use: 'document' | 'query'): ConstructorParameters<typeof InvokeModelCommand>[0] {
  return {
    modelId,
    contentType: 'application/json',
    accept: 'application/json',
    body: JSON.stringify({ texts: texts.map((t) => t.slice(0, COHERE_MAX_CHARS)), input_type: use === 'query' ? 'search_query' : 'search_document', truncate: 'END', embedding_types: ['float'] }),
  };
}

export { cosine };

/**
 * The embeddings model of the Bedrock adapter as an Embedder (answer-port.ts): Titan one text per
 * call (TITAN_CONCURRENCY in flight), Cohere COHERE_BATCH texts per call.
 * @param modelId a Bedrock model id (shared/config.ts AI_BEDROCK_EMBED_MODEL)
 * @throws Error when a reply carries no vector, or fewer vectors than texts
 */
export function bedrockEmbedder(sdk: Pick<BedrockRuntimeClient, 'send'>, modelId: string): Embedder {
  const invoke = async (input: ConstructorParameters<typeof InvokeModelCommand>[0]) => JSON.parse(new TextDecoder().decode((await sdk.send(new InvokeModelCommand(input))).body)) as Record<string, unknown>;
  if (isCohereEmbed(modelId)) {
    return {
      model: `${modelId}#${COHERE_DIMENSIONS}`,
      async embed(texts, use) {
        const out: Float32Array[] = [];
        for (let i = 0; i < texts.length; i += COHERE_BATCH) {
          const batch = texts.slice(i, i + COHERE_BATCH);
          const j = (await invoke(cohereEmbeddingRequest(modelId, batch, use))) as { embeddings?: number[][] | { float?: number[][] } };
          const vecs = Array.isArray(j.embeddings) ? j.embeddings : j.embeddings?.float;
          if (!vecs || vecs.length !== batch.length) throw new Error('Bedrock embeddings: fewer vectors than texts in the reply');
          out.push(...vecs.map((v) => Float32Array.from(v)));
        }
        return out;
      },
    };
  }
  const one = async (text: string): Promise<Float32Array> => {
    const j = (await invoke(embeddingRequest(modelId, text))) as { embedding?: number[] };
    if (!Array.isArray(j.embedding)) throw new Error('Bedrock embeddings: no embedding in the reply');
    return Float32Array.from(j.embedding);
  };
  return {
    model: `${modelId}#${TITAN_DIMENSIONS}`,
    async embed(texts) {
      const out = new Array<Float32Array>(texts.length);
      let next = 0;
      const worker = async () => {
        while (next < texts.length) {
          const i = next++;
          out[i] = await one(texts[i]!);
        }
      };
      await Promise.all(Array.from({ length: Math.min(TITAN_CONCURRENCY, texts.length) }, worker));
      return out;
    },
  };
}

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

/**
 * The Bedrock answering port. Per answer: one embedding call for the question (plus batches for
 * pairs given without a stored vector), and one Converse call unless it hands off first.
 * @param client a BedrockRuntimeClient (tests: the stand-in, tests/factories/bedrock-standin.ts); default from config
 */
export function bedrockAnswerPort(client?: BedrockRuntimeClient): AnswerPort {
  const c = config();
  const sdk = client ?? traced(new BedrockRuntimeClient({ region: c.AWS_REGION, endpoint: c.AWS_ENDPOINT_URL }));
  const embedder = bedrockEmbedder(sdk, c.AI_BEDROCK_EMBED_MODEL);
  return {
    name: 'bedrock',
    embedder,
    async answer(question, pairs, opts): Promise<AnswerResult> {
      const threshold = opts?.threshold ?? DEFAULT_BEDROCK_THRESHOLD;
      const base = { adapter: 'bedrock' as const };
      if (!pairs.length) return { ...base, answer: null, confidence: 0, faq_ids: [], handoff: true, reason: 'no_pairs', candidates: [] };
      const [q] = await embedder.embed([question], 'query');
      const missing = pairs.filter((p) => !p.embedding?.length);
      const fresh = missing.length ? await embedder.embed(missing.map(embeddedText), 'document') : [];
      const vectorOf = new Map<string, ArrayLike<number>>(missing.map((p, i) => [p.id, fresh[i]!]));
      const scored = pairs.map((p) => ({ pair: p, score: cosine(q!, p.embedding?.length ? p.embedding : vectorOf.get(p.id)!) }));
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
