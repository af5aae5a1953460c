import { readFileSync } from 'node:fs';
import { Readable } from 'node:stream';
import { BedrockRuntimeClient } from '@aws-sdk/client-bedrock-runtime';
import { terms } from '../../shared/ai/text.ts';

/**
 * A Bedrock Runtime stand-in for tests and `npm run bench:ai -- --bedrock`: the real SDK client
 * with a request handler that answers in process (no network) and counts calls.
 *   - InvokeModel `/model/{id}/invoke`, the two embeddings bodies the adapter speaks
 *     (https://docs.aws.amazon.com/bedrock/latest/userguide/model-parameters-embed.html):
 *       Titan Text Embeddings v2 `{ inputText, dimensions, normalize }` -> `{ embedding, inputTextTokenCount }`;
 *       Cohere Embed v3 `{ texts[], input_type, embedding_types: ['float'] }` -> `{ embeddings: { float: [[…]] } }`.
 *     The vector is a hashed bag of the text's terms (shared/ai/text.ts: folding, synonyms,
 *     stemming), unit length: texts sharing meaning words have a high cosine, as with a real model.
 *   - Converse `/model/{id}/converse`: a recorded reply from tests/fixtures/ai/bedrock-converse.json
 *     when the customer's question contains its `when`; otherwise a faithful model: the answer of
 *     the first pair in the prompt, as `{ "answer", "faq_ids" }`.
 * `calls.invoke` counts embedding API calls (one HTTP request each), `embedded` the texts embedded.
 */

interface ConverseFixture {
  when: string;
  response: unknown;
}
const FIXTURES = (JSON.parse(readFileSync(new URL('../fixtures/ai/bedrock-converse.json', import.meta.url), 'utf8')) as { replies: ConverseFixture[] }).replies;

export interface BedrockStandin {
  client: BedrockRuntimeClient;
  calls: { invoke: number; converse: number };
  /** every text embedded, in order */
  embedded: string[];
  /** the user text of every Converse request */
  prompts: string[];
  reset(): void;
}

/** FNV-1a 32-bit */
const hash = (s: string): number => {
  let h = 0x811c9dc5;
  for (let i = 0; i < s.length; i++) h = Math.imul(h ^ s.charCodeAt(i), 0x01000193) >>> 0;
  return h;
};

/** The stand-in's embedding of `text`: hashed terms over `dims` dimensions, unit length. */
export function standinVector(text: string, dims = 512): number[] {
  const v = new Array<number>(dims).fill(0);
  for (const t of terms(text)) {
    const h = hash(t);
    v[h % dims]! += h & 0x80000000 ? -1 : 1;
  }
  const n = Math.sqrt(v.reduce((s, x) => s + x * x, 0)) || 1;
  return v.map((x) => x / n);
}

function converseReply(userText: string): unknown {
  const question = userText.split('Customer question:\n')[1] ?? '';
  const hit = FIXTURES.find((f) => question.toLowerCase().includes(f.when.toLowerCase()));
  if (hit) return hit.response;
  const first = userText.match(/<pair id="([^"]+)">\nQuestion: [^\n]*\nAnswer: ([^\n]*)/);
  const body = first ? { answer: first[2], faq_ids: [first[1]] } : { answer: null, faq_ids: [] };
  return { output: { message: { role: 'assistant', content: [{ text: JSON.stringify(body) }] } }, stopReason: 'end_turn', usage: { inputTokens: 1, outputTokens: 1, totalTokens: 2 } };
}

/** A fresh stand-in with its own counters (one per test file, `reset()` between measurements). */
export function bedrockStandin(): BedrockStandin {
  const s: Omit<BedrockStandin, 'client'> = {
    calls: { invoke: 0, converse: 0 },
    embedded: [],
    prompts: [],
    reset() {
      s.calls.invoke = 0;
      s.calls.converse = 0;
      s.embedded.length = 0;
      s.prompts.length = 0;
    },
  };
  const client = new BedrockRuntimeClient({
    region: 'eu-west-1',
    endpoint: 'http://127.0.0.1:9',
    credentials: { accessKeyId: 'AKIDSTANDIN', secretAccessKey: 'standin' },
    requestHandler: {
      handle: async (req: { path: string; body?: unknown }) => {
        const path = decodeURIComponent(req.path);
        const raw = req.body instanceof Uint8Array ? new TextDecoder().decode(req.body) : String(req.body);
        const body = JSON.parse(raw) as Record<string, unknown>;
        let reply: unknown;
        if (path.endsWith('/invoke')) {
          s.calls.invoke++;
          if (Array.isArray(body.texts)) {
            const texts = body.texts as string[];
            s.embedded.push(...texts);
            reply = { id: `standin-${s.calls.invoke}`, texts, embeddings: { float: texts.map((t) => standinVector(t, 1024)) }, response_type: 'embeddings_by_type' };
          } else {
            const text = String(body.inputText);
            s.embedded.push(text);
            reply = { embedding: standinVector(text, Number(body.dimensions ?? 512)), inputTextTokenCount: terms(text).length };
          }
        } else if (path.endsWith('/converse')) {
          s.calls.converse++;
          const user = ((body.messages as Array<{ content: Array<{ text?: string }> }>)[0]?.content ?? []).map((c) => c.text ?? '').join('');
          s.prompts.push(user);
          reply = converseReply(user);
        } else {
          return { response: { statusCode: 404, headers: { 'content-type': 'application/json' }, body: Readable.from([Buffer.from('{"message":"not found"}')]) } };
        }
        return { response: { statusCode: 200, headers: { 'content-type': 'application/json' }, body: Readable.from([Buffer.from(JSON.stringify(reply))]) } };
      },
    } as never,
  });
  return Object.assign(s, { client });
}
