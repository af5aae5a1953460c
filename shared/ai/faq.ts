import { ulid } from 'ulid';
import { db } from '../db/service.ts';
import { AppError, notFound } from '../errors.ts';
import { collectFiltered, keyCursor } from '../db/paging.ts';
import type { Actor } from '../auth/actor.ts';
import { fold } from './text.ts';
import { FAQ_MAX_PAIRS, FAQ_SAVE_FAILED_MESSAGE } from './faq.rules.ts';
import { AiSettings, type Faq, type FaqInput, type ListFaqsQuery } from './ai.schemas.ts';
import { answerPort, type AnswerPair, type AnswerResult } from './answer-port.ts';
import { log } from '../log.ts';
import { orgCache } from '../org/org-cache.ts';
import { requireFeature } from '../plan/gate.ts';
import { resolveFaqAttachments, removeFaqFiles } from './assets.ts';

/**
 * The AI agent's knowledge base and settings (issue 18; spec §3 FAQ pair, §7 'save FAQ pair').
 * Pairs are org-wide (no chat link): any member reads them and uses the test panel; admins change
 * them and the settings (403 `ai.forbidden` otherwise). Timestamps epoch **ms**.
 */

type FaqItem = { org_id: string; faq_id: string; question: string; answer: string; attachments?: unknown; created_by: string; created_at: number; updated_at?: number };

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

/** Every pair of the org (the agent and the test panel), at most FAQ_MAX_PAIRS. */
export async function allPairs(orgId: string): Promise<AnswerPair[]> {
  const r = await db().entities.aiFaq.query.byOrg({ org_id: orgId }).go({ pages: 'all' });
  return r.data.slice(0, FAQ_MAX_PAIRS).map((f) => ({ id: f.faq_id, question: f.question, answer: f.answer, embedding: (f.embedding as number[] | undefined) ?? null }));
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
  const item = { org_id: actor.org_id, faq_id: faqId, question: input.question, answer: input.answer, attachments, created_by: actor.email, created_at: now, updated_at: now, updated_by: actor.email };
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
  const item = { ...before, question: input.question, answer: input.answer, attachments, updated_at: now, updated_by: actor.email, embedding: before.question === input.question ? before.embedding : undefined };
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
 * @throws AppError 403 ai.forbidden; 403 plan.feature_unavailable (details plan: ai_autoresponder)
 */
export async function updateAiSettings(actor: Actor, input: AiSettings): Promise<AiSettings> {
  assertAiAdmin(actor);
  const settings = AiSettings.parse(input);
  if (settings.enabled) await requireFeature(actor.org_id, 'ai_autoresponder');
  await db().entities.aiSettings.put({ org_id: actor.org_id, settings, updated_by: actor.email, updated_at: Date.now() }).go();
  agentOn.forget(actor.org_id);
  return settings;
}

/** POST /ai/test: what the agent would answer, without sending anything (any member). */
export async function testAnswer(actor: Actor, question: string): Promise<Pick<AnswerResult, 'answer' | 'confidence' | 'faq_ids' | 'handoff' | 'reason' | 'candidates'>> {
  const [pairs, settings, port] = await Promise.all([allPairs(actor.org_id), getAiSettings(actor.org_id), answerPort()]);
  const r = await port.answer(question, pairs, { threshold: settings.confidence_threshold });
  return { answer: r.answer, confidence: r.confidence, faq_ids: r.faq_ids, handoff: r.handoff, reason: r.reason, candidates: r.candidates };
}
