import { ulid } from 'ulid';
import { db } from '../db/service.ts';
import { AppError, notFound } from '../errors.ts';
import { collectFiltered, keyCursor } from '../db/paging.ts';
import type { Actor } from '../auth/actor.ts';
import { fold } from './text.ts';
import { FAQ_MAX_PAIRS, FAQ_SAVE_FAILED_MESSAGE } from './faq.rules.ts';
import { AiSettings, type Faq, type FaqInput, type ListFaqsQuery } from './ai.schemas.ts';
import { answerPort, guardReply, type AnswerPair, type AnswerPort, type AnswerResult, type Embedder } from './answer-port.ts';
import { decodeVector, embeddedText, embeddingFresh, embeddingHash, encodeVector } from './embeddings.ts';
import { takeAiTestToken } from './test-quota.ts';
import { log } from '../log.ts';
import { orgCache } from '../org/org-cache.ts';
import { requireFeature } from '../plan/gate.ts';
import { resolveFaqAttachments, removeFaqFiles } from './assets.ts';

/**
 * The AI agent's knowledge base and settings (issue 18; spec §3 FAQ pair, §7 'save FAQ pair').
 * Pairs are org-wide (no chat link): any member reads them and uses the test panel; admins change
 * them and the settings (403 `ai.forbidden` otherwise). Timestamps epoch **ms**.
 */

type FaqItem = { org_id: string; faq_id: string; question: string; answer: string; attachments?: unknown; created_by: string; created_at: number; updated_at?: number; embedding?: unknown; embedding_model?: string; embedding_hash?: string };

export const toFaqWire = (f: FaqItem): Faq => ({
  id: f.faq_id,
  question: f.question,
  answer: f.answer,
  attachments: (f.attachments as Faq['attachments']) ?? [],
  created_by: f.created_by,
  created_at: f.created_at,
  updated_at: f.updated_at ?? null,
});

/** @throws AppError 403 ai.forbidden for members */
export function assertAiAdmin(actor: Actor): void {
  if (actor.role !== 'admin') throw new AppError('ai.forbidden', 'Only admins can change the AI agent.', { status: 403 });
}

/**
 * GET /ai/faqs: the org's pairs in creation order, cursor paged; `q` keeps pairs whose question or
 * answer contains it (accent- and case-insensitive).
 * @throws AppError 400 query.cursor
 */
export async function listFaqs(actor: Actor, q: ListFaqsQuery): Promise<{ faqs: Faq[]; cursor: string | null }> {
  const needle = q.q ? fold(q.q) : '';
  const matches = needle ? (f: FaqItem) => fold(`${f.question}\n${f.answer}`).includes(needle) : null;
  const { items, cursor } = await collectFiltered<FaqItem>(
    async (cursor, limit) => {
      const r = (await db().entities.aiFaq.query.byOrg({ org_id: actor.org_id }).go({ cursor, limit, pages: 1, data: 'includeKeys' })) as unknown as { data: FaqItem[]; cursor: string | null };
      return { data: r.data, cursor: r.cursor ?? null };
    },
    keyCursor(undefined),
    matches,
    q.limit,
    q.cursor ?? null,
  );
  return { faqs: items.map(toFaqWire), cursor };
}

/** Every pair row of the org (the agent and the test panel), at most FAQ_MAX_PAIRS. */
async function pairRows(orgId: string): Promise<FaqItem[]> {
  const r = await db().entities.aiFaq.query.byOrg({ org_id: orgId }).go({ pages: 'all' });
  return (r.data as FaqItem[]).slice(0, FAQ_MAX_PAIRS);
}

/** Pair rows written at once when old rows get their embeddings. */
const EMBEDDING_WRITE_CONCURRENCY = 8;

/** The embedding fields of a row for `question` (one embedding call), or {} when embedding fails (the pair is embedded lazily later). */
async function embeddingFields(orgId: string, faqId: string, question: string, embedder: Embedder | undefined): Promise<{ embedding?: string; embedding_model?: string; embedding_hash?: string }> {
  if (!embedder) return {};
  const text = embeddedText({ question });
  try {
    const [v] = await embedder.embed([text], 'document');
    return { embedding: encodeVector(v!), embedding_model: embedder.model, embedding_hash: embeddingHash(text) };
  } catch (e) {
    log('warn', 'ai.faq_embed_failed', { org_id: orgId, faq_id: faqId, error: String(e) });
    return {};
  }
}

/**
 * The org's pairs ready for `port` (issue 42: embeddings are stored, not recomputed per message).
 * With an embedder (Bedrock), every pair whose stored embedding is missing or stale (another model,
 * or a question changed since: embeddings.ts `embeddingFresh`) is embedded now, all of them in one
 * batched `embed` call, and written back to its row (conditional on the question being the one
 * embedded, so a concurrent edit wins); the rest are used as stored. After that, an answer costs
 * one embedding call: the customer's message. Without an embedder (local adapter) the rows are
 * returned as they are.
 */
export async function pairsForAnswer(orgId: string, port: Pick<AnswerPort, 'embedder'>): Promise<AnswerPair[]> {
  const rows = await pairRows(orgId);
  const embedder = port.embedder;
  if (!embedder) return rows.map((f) => ({ id: f.faq_id, question: f.question, answer: f.answer }));
  const stale = rows.filter((f) => !embeddingFresh(f, embedder.model, embeddedText(f)));
  const vectors = new Map<string, Float32Array>();
  if (stale.length) {
    const fresh = await embedder.embed(stale.map((f) => embeddedText(f)), 'document');
    stale.forEach((f, i) => vectors.set(f.faq_id, fresh[i]!));
    let next = 0;
    const write = async () => {
      while (next < stale.length) {
        const f = stale[next++]!;
        const text = embeddedText(f);
        await db()
          .entities.aiFaq.patch({ org_id: orgId, faq_id: f.faq_id })
          .set({ embedding: encodeVector(vectors.get(f.faq_id)!), embedding_model: embedder.model, embedding_hash: embeddingHash(text) })
          .where((a, op) => op.eq(a.question, f.question))
          .go({ response: 'none' })
          .catch((e: unknown) => log('warn', 'ai.faq_embedding_not_stored', { org_id: orgId, faq_id: f.faq_id, error: String(e) }));
      }
    };
    await Promise.all(Array.from({ length: Math.min(EMBEDDING_WRITE_CONCURRENCY, stale.length) }, write));
    log('info', 'ai.faq_embedded', { org_id: orgId, pairs: stale.length, model: embedder.model });
  }
  return rows.map((f) => ({ id: f.faq_id, question: f.question, answer: f.answer, embedding: vectors.get(f.faq_id) ?? decodeVector(f.embedding) }));
}

/**
 * Answer one question from the org's knowledge base through the configured port, with the reply
 * checked for the pairs' hidden instructions (answer-port.ts `guardReply`): the agent's reply and
 * the test panel.
 * @param threshold 0..1, the org's setting (null: the adapter's default)
 */
export async function answerFromPairs(orgId: string, question: string, threshold: number | null | undefined, ctx: { chat_id?: string } = {}): Promise<AnswerResult> {
  const port = await answerPort();
  const pairs = await pairsForAnswer(orgId, port);
  return guardReply(await port.answer(question, pairs, { threshold }), pairs, { org_id: orgId, ...ctx });
}

/**
 * POST /ai/faqs (spec §7 save FAQ pair). The new pair's id is its context_id (a ULID): `input.id`
 * when an attachment was uploaded first (POST /ai/faqs/uploads minted it), else a new one.
 * @throws AppError 403 ai.forbidden; 400 attachments.0.url (not a file uploaded for this pair);
 *   409 ai.faq_exists (id taken), ai.faq_limit past FAQ_MAX_PAIRS; 500 'Failed to save Q&A pair' (spec §8) when the write fails
 */
export async function createFaq(actor: Actor, input: FaqInput): Promise<Faq> {
  assertAiAdmin(actor);
  const count = (await db().entities.aiFaq.query.byOrg({ org_id: actor.org_id }).go({ pages: 'all', attributes: ['faq_id'] })).data.length;
  if (count >= FAQ_MAX_PAIRS) throw new AppError('ai.faq_limit', `A knowledge base holds at most ${FAQ_MAX_PAIRS} pairs.`, { status: 409 });
  const now = Date.now();
  const faqId = input.id ?? ulid(now);
  if (input.id && (await db().entities.aiFaq.get({ org_id: actor.org_id, faq_id: faqId }).go()).data) throw new AppError('ai.faq_exists', 'A Q&A pair with this id exists already.', { status: 409 });
  const attachments = await resolveFaqAttachments(actor, faqId, input.attachments);
  // embedded once, here (issue 42); a failed embedding is retried when the agent next needs it
  const embedding = await embeddingFields(actor.org_id, faqId, input.question, (await answerPort()).embedder);
  const item = { org_id: actor.org_id, faq_id: faqId, question: input.question, answer: input.answer, attachments, created_by: actor.email, created_at: now, updated_at: now, updated_by: actor.email, ...embedding };
  try {
    await db().entities.aiFaq.create(item).go();
  } catch (e) {
    log('error', 'ai.faq_save_failed', { org_id: actor.org_id, error: String(e) });
    throw new AppError('ai.faq_save_failed', FAQ_SAVE_FAILED_MESSAGE, { status: 500 });
  }
  return toFaqWire(item);
}

/** PUT /ai/faqs/{id}: replaces question, answer and attachments (a dropped file is deleted). @throws 403; 404 faq.not_found; 400 attachments.0.url */
export async function updateFaq(actor: Actor, faqId: string, input: FaqInput): Promise<Faq> {
  assertAiAdmin(actor);
  const before = (await db().entities.aiFaq.get({ org_id: actor.org_id, faq_id: faqId }).go()).data;
  if (!before) throw notFound('faq');
  const attachments = await resolveFaqAttachments(actor, faqId, input.attachments);
  const now = Date.now();
  // re-embedded only when the embedded text (or the model) changed
  const embedder = (await answerPort()).embedder;
  const keep = !embedder || embeddingFresh(before, embedder.model, embeddedText({ question: input.question }));
  const embedding = keep ? {} : { embedding: undefined, embedding_model: undefined, embedding_hash: undefined, ...(await embeddingFields(actor.org_id, faqId, input.question, embedder)) };
  const item = { ...before, question: input.question, answer: input.answer, attachments, updated_at: now, updated_by: actor.email, ...embedding };
  try {
    await db().entities.aiFaq.put(item).go();
  } catch (e) {
    log('error', 'ai.faq_save_failed', { org_id: actor.org_id, faq_id: faqId, error: String(e) });
    throw new AppError('ai.faq_save_failed', FAQ_SAVE_FAILED_MESSAGE, { status: 500 });
  }
  await removeFaqFiles(actor.org_id, faqId, (before.attachments as Faq['attachments'] | undefined) ?? [], attachments);
  return toFaqWire(item as FaqItem);
}

/** DELETE /ai/faqs/{id} (and its stored files). @throws 403; 404 faq.not_found */
export async function deleteFaq(actor: Actor, faqId: string): Promise<{ deleted: true }> {
  assertAiAdmin(actor);
  const before = (await db().entities.aiFaq.get({ org_id: actor.org_id, faq_id: faqId }).go()).data;
  if (!before) throw notFound('faq');
  await db().entities.aiFaq.delete({ org_id: actor.org_id, faq_id: faqId }).go();
  await removeFaqFiles(actor.org_id, faqId, (before.attachments as Faq['attachments'] | undefined) ?? []);
  return { deleted: true };
}

/** The org's settings (defaults when never saved). */
export async function getAiSettings(orgId: string): Promise<AiSettings> {
  const row = (await db().entities.aiSettings.get({ org_id: orgId }).go()).data;
  return AiSettings.parse(row?.settings ?? {});
}

/**
 * Is the agent switched on for the org? Cached per process for 5 s (org-cache.ts) and forgotten by
 * this process's settings writes: the ai-agent consumer's `relevant` test, so an org without the
 * agent costs no table call per customer message. Switched on in another process: within 5 s.
 */
const agentOn = orgCache(async (orgId) => (await getAiSettings(orgId)).enabled);
export async function aiAgentEnabled(orgId: string): Promise<boolean> {
  return agentOn.get(orgId);
}

/** Forget the cached switch (after a settings write outside updateAiSettings: tests). */
export function forgetAiSettings(orgId?: string): void {
  agentOn.forget(orgId);
}

/**
 * PUT /ai/settings (the whole settings object). Turning the agent on (`enabled`; per-number switches only narrow it)
 * needs the plan's AI autoresponder (spec §9: Starter lacks it); turning it off, or saving other
 * settings while it stays off, is always allowed.
 * @throws AppError 403 ai.forbidden; 403 plan_feature (details plan: ai_autoresponder)
 */
export async function updateAiSettings(actor: Actor, input: AiSettings): Promise<AiSettings> {
  assertAiAdmin(actor);
  const settings = AiSettings.parse(input);
  if (settings.enabled) await requireFeature(actor.org_id, 'ai_autoresponder');
  await db().entities.aiSettings.put({ org_id: actor.org_id, settings, updated_by: actor.email, updated_at: Date.now() }).go();
  agentOn.forget(actor.org_id);
  return settings;
}

/**
 * POST /ai/test: what the agent would answer, without sending anything (any member). Rate-limited
 * per org (test-quota.ts AI_TEST_LIMIT), as each question costs an embedding call and a model call
 * with Bedrock.
 * @throws AppError 429 ai.test_rate_limited (`details.retry_after_s`)
 */
export async function testAnswer(actor: Actor, question: string): Promise<Pick<AnswerResult, 'answer' | 'confidence' | 'faq_ids' | 'handoff' | 'reason' | 'candidates'>> {
  await takeAiTestToken(actor.org_id);
  const settings = await getAiSettings(actor.org_id);
  const r = await answerFromPairs(actor.org_id, question, settings.confidence_threshold);
  return { answer: r.answer, confidence: r.confidence, faq_ids: r.faq_ids, handoff: r.handoff, reason: r.reason, candidates: r.candidates };
}
