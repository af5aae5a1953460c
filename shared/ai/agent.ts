import { ulid } from 'ulid';
import type { AiDecisionWire } from './ai.schemas.ts';
import { db } from '../db/service.ts';
import { commitWithEvents, type TxItem } from '../db/transaction.ts';
import { updateChatRow, type ChatRow } from '../chat/chat-write.ts';
import { toChatWire, toMessageWire } from '../inbox/wire.ts';
import { sendMessage } from '../inbox/send.ts';
import { labelChats } from '../chat/chat-workflow.ts';
import { notifyMember } from '../notification/notification.ts';
import { schedulerPort, scheduleName } from '../ports/scheduler.ts';
import { chatGuard } from '../access/guard.ts';
import { withCursor } from '../db/paging.ts';
import { log } from '../log.ts';
import { orgHasFeature } from '../plan/gate.ts';
import { chatUploadOf } from './assets.ts';
import type { Actor } from '../auth/actor.ts';
import type { PublishInput } from '../../events/publish.ts';
import type { Chat } from '../chat/chat.schemas.ts';
import type { Message } from '../message/message.schemas.ts';
import { answerFromPairs, getAiSettings } from './faq.ts';
import type { AnswerResult } from './answer-port.ts';
import { AI_AUTHOR, afterHumanReply, auditNoteBody, contactMarkedInternal, effectiveState, eligibility, handoffWhy, SILENT_REASONS } from './agent.rules.ts';
import type { AiMetadata, AiSettings, FaqAttachment } from './ai.schemas.ts';

/**
 * The AI agent's use cases (issue 18 §2-§6, §8):
 *   - `onCustomerMessage` (ai-agent consumer, `message.received`): decides whether to take the
 *     message up (agent.rules.ts eligibility), claims it once (the decision row keyed by the
 *     message's unique_id is created conditionally: idempotent per message), sets the chat
 *     'thinking' and either prepares the reply now or, with a response delay, schedules it on the
 *     `ai-replies` queue;
 *   - `prepareReply`: answers through the answering port. The reply goes through the normal send
 *     path (shared/inbox/send.ts sendMessage: a sent message with ticks, `message.sent`), signed
 *     with the nickname; or, in passive mode, only a private note. Below the threshold it hands
 *     off: the hand-off label, a private note saying why, a notification (assignee, else admins).
 *     Every decision leaves a collapsible audit note (author AI_AUTHOR) and an audit row.
 *   - `onTeamMessage` (`message.sent` by a human): the agent pauses on that chat (take-over);
 *   - `setChatAi` (PUT /chats/{chat_id}/ai): take over (cancels a pending reply) / hand back.
 * Epoch **ms** throughout; decision rows expire after 90 days.
 */

const DECISION_TTL_S = 90 * 24 * 3600;
const AI_ACTOR = (orgId: string): Actor => ({ email: AI_AUTHOR, user_id: 'ai-agent', org_id: orgId, role: 'admin' });
const replyScheduleName = (orgId: string, chatId: string) => scheduleName('ai-reply', orgId, chatId);

/** The command of the ai-replies queue. */
export interface AiReplyCommand {
  org_id: string;
  chat_id: string;
  /** the customer message being answered */
  unique_id: string;
}

const chatUpdated = (orgId: string, row: ChatRow, by: string): PublishInput => ({ name: 'chat.updated', properties: { org_id: orgId, chat: toChatWire(row), changes: ['ai_metadata'] }, actor: by === AI_AUTHOR ? 'system:ai-agent' : `user:${by}` });

/** Write ai_metadata on the chat when `decide` returns a new one (null: leave it). @returns the row after, or null */
async function writeMeta(orgId: string, chatId: string, by: string, decide: (meta: AiMetadata | null, chat: ChatRow, now: number) => AiMetadata | null): Promise<{ before: ChatRow; after: ChatRow } | null> {
  return updateChatRow(
    orgId,
    chatId,
    (chat, now) => {
      const next = decide((chat.ai_metadata as AiMetadata | undefined) ?? null, chat, now);
      return next ? ({ ...chat, ai_metadata: next } as ChatRow) : null;
    },
    undefined,
    (_b, a) => [chatUpdated(orgId, a, by)],
  );
}

/**
 * Is the chat's customer a contact marked internal (issue 15's Contact, `contactMarkedInternal`:
 * an 'Internal' label or an 'Internal' custom property set to yes)? A 1:1 chat's contact_id is the
 * chat id without '@c.us' (and its members' contact_id). Labels and property definitions are
 * read only when the contact has labels or properties at all.
 */
async function isInternalContact(orgId: string, chat: ChatRow): Promise<boolean> {
  if (chat.chat_type !== 'user') return false;
  const members = (chat.members as Record<string, { contact_id?: string }> | undefined) ?? {};
  const ids = [...new Set([chat.chat_id.replace(/@c\.us$/, ''), ...Object.values(members).map((m) => m.contact_id)].filter((x): x is string => !!x))];
  for (const contact_id of ids.slice(0, 3)) {
    const c = (await db().entities.contact.get({ org_id: orgId, contact_id }).go()).data;
    if (!c || (!c.label_ids?.length && !Object.keys((c.custom_properties as object | undefined) ?? {}).length)) continue;
    const [labels, props] = await Promise.all([
      c.label_ids?.length ? db().entities.chatLabel.query.byOrg({ org_id: orgId }).go({ pages: 'all' }).then((r) => r.data) : [],
      Object.keys((c.custom_properties as object | undefined) ?? {}).length ? db().entities.propertyDef.query.byOrg({ org_id: orgId }).go({ pages: 'all' }).then((r) => r.data) : [],
    ]);
    if (contactMarkedInternal({ label_ids: c.label_ids, custom_properties: c.custom_properties as Record<string, unknown> | undefined }, labels, props)) return true;
  }
  return false;
}

async function audit(orgId: string, chatId: string, message: Message, outcome: 'skipped', reason: string, now: number): Promise<void> {
  await db()
    .entities.aiDecision.put({ org_id: orgId, decision_id: message.unique_id, chat_id: chatId, phone_id: message.phone_id, question: message.body ?? '', outcome, reason, created_at: now, decided_at: now, latency_ms: Math.max(0, now - message.timestamp), expires_at: Math.floor(now / 1000) + DECISION_TTL_S })
    .go();
}

/** An end of the subscription or free trial: why the agent did not take a message up or send a reply (issue 42 §2). */
export type AiEndedReason = 'subscription_ended' | 'trial_ended';

/**
 * Record in the AI decisions log (/logs' AI tab) that the entitlement gate refused a customer's
 * message because the subscription or trial ended (issue 42 §2): a 'skipped' decision with the
 * code as its reason, where the admin looks. One conditional write, no read; a decision already
 * there (a redelivery) is kept.
 * @param now epoch ms
 */
export async function recordEndedDecision(props: { org_id: string; message: Message }, reason: AiEndedReason, now = Date.now()): Promise<void> {
  const { org_id: orgId, message } = props;
  try {
    await db()
      .entities.aiDecision.create({ org_id: orgId, decision_id: message.unique_id, chat_id: message.chat_id, phone_id: message.phone_id, question: message.body ?? '', outcome: 'skipped', reason, created_at: now, decided_at: now, latency_ms: Math.max(0, now - message.timestamp), expires_at: Math.floor(now / 1000) + DECISION_TTL_S })
      .go();
  } catch (e) {
    if (!/conditional|exists/i.test(String((e as Error).message))) throw e;
  }
}

/**
 * A reply that waited while the subscription or trial ended is not sent (issue 42 §2): its pending
 * decision becomes 'cancelled' with the code as its reason (AI decisions log). One conditional
 * write, no read; a decision no longer pending is left as it is.
 * @param now epoch ms
 */
export async function cancelEndedReply(cmd: AiReplyCommand, reason: AiEndedReason, now = Date.now()): Promise<void> {
  try {
    await db()
      .entities.aiDecision.patch({ org_id: cmd.org_id, decision_id: cmd.unique_id })
      .set({ outcome: 'cancelled', reason, decided_at: now })
      .where((a, { eq }) => eq(a.outcome, 'pending'))
      .go();
  } catch (e) {
    if (!/conditional/i.test(String((e as Error).message))) throw e;
  }
}

/**
 * `message.received`: take up a customer's message, once.
 * @returns what happened ('skipped:<reason>' | 'duplicate' | 'scheduled' | the prepareReply outcome), for logs and tests
 */
export async function onCustomerMessage(props: { org_id: string; chat: Chat; message: Message }): Promise<string> {
  const { org_id: orgId, message } = props;
  const chatId = message.chat_id;
  const settings = await getAiSettings(orgId);
  if (!settings.enabled) return 'skipped:disabled';
  // spec §9: Starter lacks the AI autoresponder (a downgraded org keeps its settings, the agent is silent)
  if (!(await orgHasFeature(orgId, 'ai_autoresponder'))) return 'skipped:plan';
  const chat = (await db().entities.chat.get({ org_id: orgId, chat_id: chatId }).go()).data as ChatRow | null;
  if (!chat) return 'skipped:no_chat';
  const now = Date.now();
  const state = effectiveState(chat.ai_metadata as AiMetadata | undefined, settings, now);
  const ok = eligibility(settings, state, { ...message, message_type: message.message_type, phone_id: message.phone_id, chat_type: chat.chat_type, internal_contact: await isInternalContact(orgId, chat) }, now);
  if (!ok.ok) {
    if (!SILENT_REASONS.has(ok.reason)) await audit(orgId, chatId, message, 'skipped', ok.reason, now);
    return `skipped:${ok.reason}`;
  }
  const dueAt = now + settings.response_delay_seconds * 1000;
  // the claim: one decision per customer message, however often the event comes
  try {
    await db()
      .entities.aiDecision.create({ org_id: orgId, decision_id: message.unique_id, chat_id: chatId, phone_id: message.phone_id, question: message.body ?? '', outcome: 'pending', created_at: now, due_at: dueAt, expires_at: Math.floor(now / 1000) + DECISION_TTL_S })
      .go();
  } catch (e) {
    if (/conditional|exists/i.test(String((e as Error).message))) return 'duplicate';
    throw e;
  }
  await writeMeta(orgId, chatId, AI_AUTHOR, () => ({ activation_state: 'thinking', pending: { unique_id: message.unique_id, due_at: dueAt }, paused_until: null, reason: 'customer_message', updated_by: AI_AUTHOR, updated_at: now }));
  const cmd: AiReplyCommand = { org_id: orgId, chat_id: chatId, unique_id: message.unique_id };
  if (settings.response_delay_seconds > 0) {
    await (await schedulerPort()).schedule({ name: replyScheduleName(orgId, chatId), at: dueAt, queue: 'ai-replies', body: JSON.stringify(cmd) });
    return 'scheduled';
  }
  return prepareReply(cmd);
}

/** A private note of the agent in the thread (never sent to WhatsApp; `note.created`). */
async function writeAgentNote(orgId: string, chat: ChatRow, body: string, now: number): Promise<string> {
  const item = {
    org_id: orgId,
    chat_id: chat.chat_id,
    unique_id: ulid(now),
    timestamp: now,
    org_phone: chat.org_phone,
    phone_id: chat.phone_id,
    author: AI_AUTHOR,
    body,
    from_me: true,
    ack: 0,
    is_private_note: true,
    is_deleted: false,
    message_type: 'text' as const,
    created_at: now,
    version: 0,
  };
  const note = toMessageWire(item);
  const ok = await commitWithEvents((e) => ({
    items: [e.message.create(item).commit() as TxItem],
    events: [{ name: 'note.created', properties: { org_id: orgId, chat_id: chat.chat_id, message: { ...note, is_private_note: true, author: AI_AUTHOR } }, actor: 'system:ai-agent', id: `note.created:${orgId}:${item.unique_id}` }],
  }));
  if (!ok) throw new Error(`ai note ${item.unique_id} was not created`);
  return item.unique_id;
}

/** The hand-off label's id (made once: 'AI hand-off'). */
async function handoffLabel(orgId: string, settings: AiSettings): Promise<string | null> {
  const labels = (await db().entities.chatLabel.query.byOrg({ org_id: orgId }).go({ pages: 'all' })).data;
  if (settings.handoff_label_id && labels.some((l) => l.label_id === settings.handoff_label_id)) return settings.handoff_label_id;
  const named = labels.find((l) => l.name.toLowerCase() === 'ai hand-off');
  if (named) return named.label_id;
  const label_id = `lbl_${ulid()}`;
  await db().entities.chatLabel.create({ org_id: orgId, label_id, name: 'AI hand-off', color: '#f59e0b', created_by: AI_AUTHOR }).go();
  return label_id;
}

async function notifyHandoff(orgId: string, chat: ChatRow, why: string, uniqueId: string): Promise<void> {
  let to: string[] = chat.assigned_to ? [chat.assigned_to] : [];
  if (!to.length) to = (await db().entities.member.query.byOrg({ org_id: orgId }).go({ pages: 'all' })).data.filter((m) => m.role === 'admin' && m.is_active !== false).map((m) => m.email);
  await Promise.allSettled(to.map((email) => notifyMember(orgId, email, { kind: 'ai_handoff', title: 'The AI agent handed a chat to the team', body: `${chat.chat_name ?? chat.chat_id}: ${why}`, chat_id: chat.chat_id, unique_id: uniqueId, actor: 'system' })));
}

/**
 * Send the answering pair's attachment (spec §3 `attachments`, one at most) after the text reply,
 * through the normal send path: the stored file is copied to an upload key of the chat and sent
 * as a media message (checked, thumbnailed and uploaded to WhatsApp like a member's file). A
 * missing or refused file is logged and the text reply stands.
 * @returns the media message's unique_id, or undefined when nothing was sent
 */
async function sendPairAttachment(orgId: string, chatId: string, uniqueId: string, faqId: string | undefined): Promise<string | undefined> {
  if (!faqId) return undefined;
  const pair = (await db().entities.aiFaq.get({ org_id: orgId, faq_id: faqId }).go()).data;
  const attachment = (pair?.attachments as FaqAttachment[] | undefined)?.[0];
  if (!attachment) return undefined;
  try {
    const media = await chatUploadOf(orgId, chatId, attachment);
    if (!media) {
      log('warn', 'ai.attachment_missing', { org_id: orgId, chat_id: chatId, faq_id: faqId, key: attachment.url });
      return undefined;
    }
    return (await sendMessage(AI_ACTOR(orgId), chatId, { media, client_id: `ai-${uniqueId}-file` })).unique_id;
  } catch (e) {
    log('warn', 'ai.attachment_failed', { org_id: orgId, chat_id: chatId, faq_id: faqId, error: String(e) });
    return undefined;
  }
}

/**
 * Prepare and deliver the reply to one customer message (now, or when its delay is up). Does
 * nothing when the chat no longer waits for this message (taken over, a newer message took its
 * place) or the agent was turned off meanwhile: the decision is then 'cancelled'.
 * @returns 'answered' | 'passive' | 'handed_off' | 'cancelled' | 'gone'
 */
export async function prepareReply(cmd: AiReplyCommand): Promise<string> {
  const { org_id: orgId, chat_id: chatId, unique_id: uniqueId } = cmd;
  const decision = (await db().entities.aiDecision.get({ org_id: orgId, decision_id: uniqueId }).go()).data;
  if (!decision || decision.outcome !== 'pending') return 'gone';
  const chat = (await db().entities.chat.get({ org_id: orgId, chat_id: chatId }).go()).data as ChatRow | null;
  const meta = (chat?.ai_metadata as AiMetadata | undefined) ?? null;
  if (!chat || meta?.activation_state !== 'thinking' || meta.pending?.unique_id !== uniqueId) {
    await db().entities.aiDecision.patch({ org_id: orgId, decision_id: uniqueId }).set({ outcome: 'cancelled', reason: 'taken_over', decided_at: Date.now() }).go();
    return 'cancelled';
  }
  const settings = await getAiSettings(orgId);
  // the agent was turned off while this reply waited: nothing is sent (a team reply meanwhile no longer cancels it, onTeamMessage)
  if (!settings.enabled) {
    await db().entities.aiDecision.patch({ org_id: orgId, decision_id: uniqueId }).set({ outcome: 'cancelled', reason: 'disabled', decided_at: Date.now() }).go();
    return 'cancelled';
  }
  const question = decision.question ?? '';
  let result: AnswerResult;
  try {
    // the org's pairs with their stored embeddings; the reply is checked for hidden instructions before it can be sent
    result = await answerFromPairs(orgId, question, settings.confidence_threshold, { chat_id: chatId });
  } catch (e) {
    log('error', 'ai.answer_failed', { org_id: orgId, chat_id: chatId, error: String(e) });
    result = { answer: null, confidence: 0, faq_ids: [], handoff: true, reason: 'adapter_error', candidates: [], adapter: 'local' };
  }
  const outcome = result.handoff ? 'handed_off' : settings.passive_mode ? 'passive' : 'answered';
  // leave 'thinking' first, only if this message is still the one awaited: a take-over that came
  // meanwhile wins and nothing is sent
  const nextState: AiMetadata['activation_state'] = outcome === 'handed_off' ? 'handed_off' : 'active';
  let claimed = false;
  await writeMeta(orgId, chatId, AI_AUTHOR, (m, _c, now) => {
    if (m?.activation_state !== 'thinking' || m.pending?.unique_id !== uniqueId) return null;
    claimed = true;
    return { activation_state: nextState, pending: null, paused_until: null, reason: outcome === 'handed_off' ? (result.reason ?? 'low_confidence') : 'answered', updated_by: AI_AUTHOR, updated_at: now };
  });
  if (!claimed) {
    await db().entities.aiDecision.patch({ org_id: orgId, decision_id: uniqueId }).set({ outcome: 'cancelled', reason: 'taken_over', decided_at: Date.now() }).go();
    return 'cancelled';
  }
  let replyId: string | undefined;
  let attachmentId: string | undefined;
  if (outcome === 'answered') {
    const body = settings.nickname ? `${result.answer}\n\n— ${settings.nickname}` : result.answer!;
    const sent = await sendMessage(AI_ACTOR(orgId), chatId, { body, client_id: `ai-${uniqueId}` } as never);
    replyId = sent.unique_id;
    attachmentId = await sendPairAttachment(orgId, chatId, uniqueId, result.faq_ids[0]);
  }
  const now = Date.now();
  const latency = Math.max(0, now - decision.created_at);
  const noteId = await writeAgentNote(orgId, chat, auditNoteBody({ outcome, question, candidates: result.candidates, answer: result.answer, reason: result.reason, confidence: result.confidence, latency_ms: latency, adapter: result.adapter }), now);
  if (outcome === 'handed_off') {
    const why = handoffWhy(result.reason, result.confidence);
    try {
      const label = await handoffLabel(orgId, settings);
      if (label) await labelChats(AI_ACTOR(orgId), [chatId], { add: [label] });
    } catch (e) {
      log('warn', 'ai.handoff_label_failed', { org_id: orgId, chat_id: chatId, error: String(e) });
    }
    await notifyHandoff(orgId, chat, why, noteId).catch((e) => log('warn', 'ai.handoff_notify_failed', { org_id: orgId, chat_id: chatId, error: String(e) }));
  }
  await db()
    .entities.aiDecision.patch({ org_id: orgId, decision_id: uniqueId })
    .set({ outcome, reason: result.reason ?? undefined, answer: result.answer ?? undefined, confidence: result.confidence, candidates: result.candidates, adapter: result.adapter, latency_ms: latency, decided_at: now, note_unique_id: noteId, ...(replyId ? { reply_unique_id: replyId } : {}), ...(attachmentId ? { attachment_unique_id: attachmentId } : {}) })
    .go();
  return outcome;
}

/**
 * `message.sent` by a member (not the agent, not a note): the agent pauses on that chat and drops a
 * pending reply. With the agent off for the org (`enabled` false) nothing is written: there is no
 * agent to pause, and no reply can be pending (turning it on later starts every chat afresh).
 * @returns whether the chat's AI state changed
 */
export async function onTeamMessage(props: { org_id: string; chat: Chat; message: Message }): Promise<boolean> {
  const { org_id: orgId, message } = props;
  if (message.author === AI_AUTHOR || message.is_private_note || !message.from_me) return false;
  const settings = await getAiSettings(orgId);
  if (!settings.enabled) return false;
  let pending: string | null = null;
  const r = await writeMeta(orgId, message.chat_id, message.author ?? 'member', (meta, _c, now) => {
    const next = afterHumanReply(meta, settings, message.author ?? 'member', now);
    if (next) pending = meta?.pending?.unique_id ?? null;
    return next;
  });
  if (pending) await cancelPending(orgId, message.chat_id, pending, 'human_reply');
  return !!r && r.after !== r.before;
}

async function cancelPending(orgId: string, chatId: string, uniqueId: string, reason: string): Promise<void> {
  await (await schedulerPort()).cancel(replyScheduleName(orgId, chatId)).catch(() => undefined);
  await db()
    .entities.aiDecision.patch({ org_id: orgId, decision_id: uniqueId })
    .set({ outcome: 'cancelled', reason, decided_at: Date.now() })
    .where(({ outcome }, { eq }) => eq(outcome, 'pending'))
    .go()
    .catch(() => undefined);
}

/**
 * PUT /chats/{chat_id}/ai: 'paused' or 'inactive' takes over (a pending reply is cancelled; 'paused'
 * from here has no end: the agent waits to be handed back), 'active' hands back.
 * @throws AppError 404 chat.not_found; 403 chat.no_access (the guard)
 */
export async function setChatAi(actor: Actor, chatId: string, state: 'active' | 'inactive' | 'paused'): Promise<Chat> {
  const guard = await chatGuard(actor);
  await guard.requireChat(chatId);
  let pending: string | null = null;
  const r = await writeMeta(actor.org_id, chatId, actor.email, (meta, _c, now) => {
    pending = meta?.pending?.unique_id ?? null;
    return { activation_state: state, paused_until: null, pending: null, reason: state === 'active' ? 'hand_back' : 'take_over', updated_by: actor.email, updated_at: now };
  });
  if (pending) await cancelPending(actor.org_id, chatId, pending, 'taken_over');
  return guard.viewChat(r!.after as unknown as Record<string, unknown>);
}


/**
 * GET /ai/decisions: the audit rows, newest first (for /logs' AI tab), 50 a page; rows of chats the
 * viewer may not see are left out (the guard).
 * @throws AppError 400 query.cursor
 */
export async function listDecisions(actor: Actor, q: { limit: number; cursor?: string }): Promise<{ decisions: AiDecisionWire[]; cursor: string | null }> {
  const guard = await chatGuard(actor);
  const res = await withCursor(q.cursor, () => db().entities.aiDecision.query.byOrg({ org_id: actor.org_id }).go({ order: 'desc', limit: q.limit, cursor: q.cursor ?? null }));
  const visible = await guard.filter(res.data, (d) => d.chat_id);
  return {
    decisions: visible.map((d) => ({
      decision_id: d.decision_id,
      chat_id: d.chat_id,
      question: guard.masks ? null : (d.question ?? null),
      outcome: d.outcome,
      reason: d.reason ?? null,
      answer: d.answer ?? null,
      confidence: d.confidence ?? null,
      candidates: d.candidates ?? [],
      latency_ms: d.latency_ms ?? null,
      created_at: d.created_at,
      decided_at: d.decided_at ?? null,
    })),
    cursor: res.cursor ?? null,
  };
}
