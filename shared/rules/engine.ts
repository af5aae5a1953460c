import { fastUlid, keyedUlid } from '../ids.ts';
import { db } from '../db/service.ts';
import { orgScope, orgScopeOfPk, scopedReadCache, singleWriterCaches } from '../db/read-cache.ts';
import { AppError, isAppError } from '../errors.ts';
import { chatGuard } from '../access/guard.ts';
import { log } from '../log.ts';
import type { Actor } from '../auth/actor.ts';
import { withCausation, MAX_CAUSATION_DEPTH, type Causation } from '../../events/causation.ts';
import { schedulerPort, scheduleName } from '../ports/scheduler.ts';
import { evaluateConditions, type EvalContext } from './conditions.rules.ts';
import { dueAfter, timeFields } from './business-time.rules.ts';
import { getOrgClock } from '../org/org-clock.ts';
import { orgHasFeature } from '../plan/gate.ts';
import { chatIdOf, loopGuard, triggersOf, type BusEventLike, type FiredTrigger } from './triggers.rules.ts';
import { orgRules, writeRuleLogs, writeRuleLogRows, pauseRule, ruleAutomationActor, RULE_AUTOMATION_EMAIL, type RuleRow } from './rules.ts';
import { executeAction, actionSummary, JOINED_ACTIONS } from './actions.ts';
import { JoinBatch, JoinedItemRejected, type TxItem, type TxJoin } from '../db/transaction.ts';
import type { Action, ActionOutcome, RuleLog, TriggerType } from './rule.schemas.ts';
import type { RefusalCode } from '../plan/entitlements.rules.ts';

/**
 * The rules engine (issue 17 §1, §3, §4, §5): the rules consumer's use case. For each bus event:
 * 1. its triggers (triggers.rules.ts); a customer message cancels the chat's pending delayed
 *    actions and follow-ups that wait for no reply, and arms the 'no reply within N' timers; a
 *    team message disarms them;
 * 2. each enabled rule of a fired trigger: loop guard (causation chain), conditions, then its
 *    actions in order — each claimed by a receipt (event id + rule id + action index) so it runs
 *    once whatever is redelivered, within the per-chat rate limit, inside the rule's causation
 *    (every event the action publishes names the rule); delayed ones go through the scheduler
 *    port to the `rule-actions` queue;
 * 3. one log row per evaluation (matched or why not, each action's outcome and timing).
 * Unexpected (non-AppError) failures are rethrown after logging, so the queue retries the event
 * (done actions are skipped by their receipts) and finally dead-letters it with the reason.
 */

export const RULE_ACTIONS_QUEUE = 'rule-actions' as const;
/** The automation's identity in the inbox (author of messages and notes a rule writes). */
export const AUTOMATION_EMAIL = RULE_AUTOMATION_EMAIL;
/** Rule actions per chat per minute (env RULES_CHAT_RATE_PER_MINUTE, default 30). */
export const chatRatePerMinute = () => {
  const v = Number(process.env.RULES_CHAT_RATE_PER_MINUTE);
  return Number.isInteger(v) && v > 0 ? v : 30;
};
const RECEIPT_TTL_S = 14 * 86_400;

/**
 * When a rule timer of `minutes` started at `fromMs` is due (epoch ms): calendar minutes, or
 * business minutes only (the org's clock, getOrgClock: time zone + weekly hours) when `businessOnly`.
 */
export async function timerDue(orgId: string, fromMs: number, minutes: number, businessOnly: boolean | undefined): Promise<number> {
  if (!businessOnly) return fromMs + minutes * 60_000;
  return dueAfter(await getOrgClock(orgId), fromMs, minutes * 60_000, true);
}

/**
 * The actor a rule (or an SLA policy, as a RuleRow) acts as (issue 42 §1): the automation's identity
 * (author AUTOMATION_EMAIL, user `rule:<id>`) with its owner's rights now, through the one access
 * guard (shared/access/guard.ts automationActor): an admin's rule sees every chat, a member's only
 * that member's chats, masked as for them. Memoised on the ActionContext (one resolution per run).
 * @throws AppError 403 rules.owner_no_rights when the owner may not act any more (removed, demoted,
 *   lost `member_permissions.rules`, an action the owner may not take): logged as failed, never retried
 */
export async function ruleActor(ac: ActionContext): Promise<Actor> {
  ac.owner ??= ruleAutomationActor(ac.rule);
  const r = await ac.owner;
  if (!r.actor) throw new AppError('rules.owner_no_rights', `Paused: ${r.problem}.`, { status: 403 });
  return r.actor;
}

/**
 * May a rule's owner see the chat it would act on? (issue 42 §1: a rule acts only on chats its owner
 * may see.) Through the guard of the rule's actor (one access read, cached for the run); a chat that
 * does not exist passes (the action answers its own 404). null when it may, else the reason in words.
 */
export async function ownerChatProblem(ac: ActionContext, chatId: string | null): Promise<string | null> {
  if (!chatId) return null;
  const actor = await ruleActor(ac);
  if (actor.role === 'admin') return null;
  const visible = await (await chatGuard(actor)).visibleChatIds([chatId]);
  return visible.has(chatId) ? null : `its owner ${actor.on_behalf_of} has no access to this chat`;
}

export type { RuleRow };

export interface BusEvent extends BusEventLike {
  detail: { properties: Record<string, unknown>; metadata: { id: string; occurred_at?: string; causation?: Causation } };
}

/** What a rule's actions need besides the action itself. */
export interface ActionContext {
  orgId: string;
  rule: RuleRow;
  chatId: string | null;
  /** unique id of the message the trigger is about (or the chat's latest) */
  messageUniqueId: string | null;
  /** template variables */
  vars: Record<string, unknown>;
  /** receipt key prefix: `${trigger_id}|${rule_id}` */
  keyPrefix: string;
  /** the chat row the evaluation saw (the event's snapshot, or read once): actions that accept it do not read it again */
  chat?: Record<string, unknown> | null;
  /** the event the actions answer (for delayed actions' wake-ups) */
  eventId: string;
  trigger: TriggerType;
  causation?: Causation;
  /** joined actions commit through this batch (one transaction with the SQS batch's other events' actions) */
  joins?: JoinBatch;
  /** the rule's actor, resolved once per run (ruleActor) */
  owner?: ReturnType<typeof ruleAutomationActor>;
}

// --- labels by id, cached per process (names for conditions and templates) ---
const loadLabelNames = async (orgId: string) => new Map((await db().entities.chatLabel.query.byOrg({ org_id: orgId }).go({ pages: 'all' })).data.map((l) => [l.label_id, l.name]));
/** single-writer mode (the local runtime): kept until a label row of the org is written (shared/db/read-cache.ts) */
const labelsExact = scopedReadCache<Map<string, string>>({ scopeOf: (key) => (key.sk.startsWith('$chatlabel_1#') ? orgScopeOfPk(key.pk) : null), maxScopes: 1_000, maxKeysPerScope: 1 });
/** otherwise (AWS): for 5 s; the read itself is shared, so a burst of events after the expiry makes one Query, not one each */
const labelCache = new Map<string, { at: number; names: Promise<Map<string, string>> }>();
async function labelNames(orgId: string): Promise<Map<string, string>> {
  const scope = orgScope(orgId);
  if (singleWriterCaches() && scope) return labelsExact.get(scope, 'names', () => loadLabelNames(orgId));
  const hit = labelCache.get(orgId);
  if (hit && Date.now() - hit.at < 5_000) return hit.names;
  const names = loadLabelNames(orgId);
  labelCache.set(orgId, { at: Date.now(), names });
  names.catch(() => labelCache.delete(orgId));
  return names;
}

type ChatLike = Record<string, unknown> & { chat_id: string };

async function chatOf(orgId: string, e: BusEvent, chatId: string | null): Promise<ChatLike | null> {
  const snap = e.detail.properties.chat as ChatLike | undefined;
  if (snap?.chat_id) return snap;
  if (!chatId) return null;
  return ((await db().entities.chat.get({ org_id: orgId, chat_id: chatId }).go()).data as ChatLike | null) ?? null;
}

/** Does anything in the rules need the contact row (labels, properties)? */
const needsContact = (rules: RuleRow[]) => rules.some((r) => /contact\.(properties|labels)/.test(JSON.stringify([r.conditions, r.actions])));

/**
 * The evaluation context of an event (conditions) and the template variables (actions).
 * Custom properties (issue 15) are read defensively: `chat.custom_properties` and the contact's
 * `custom_properties` / `properties` when they exist, as plain maps.
 */
export async function buildContext(orgId: string, e: BusEvent, chatId: string | null, withContact: boolean, now = Date.now()): Promise<{ ctx: EvalContext; vars: Record<string, unknown>; messageUniqueId: string | null; chat: ChatLike | null }> {
  const p = e.detail.properties;
  const chat = await chatOf(orgId, e, chatId);
  const names = await labelNames(orgId);
  const labelIds = ((chat?.label_ids as string[] | undefined) ?? []).map(String);
  const labels = [...labelIds, ...labelIds.map((l) => names.get(l)).filter((n): n is string => !!n)];
  const msg = (p.message as Record<string, unknown> | undefined) ?? null;
  // message.reaction: `message` is the reacted message; the contact is the customer who reacted
  const reaction = e['detail-type'] === 'message.reaction' ? ((p.reaction as { sender_id?: string; emoji?: string | null; from_me?: boolean } | undefined) ?? null) : null;
  const reactor = reaction && !reaction.from_me ? reaction.sender_id : undefined;
  const number = reactor ?? (msg?.sender_phone as string | undefined) ?? (chat?.chat_type === 'user' ? chat.chat_id : undefined);
  let contactRow: Record<string, unknown> | null = null;
  if (withContact && number) contactRow = ((await db().entities.contact.get({ org_id: orgId, contact_id: number }).go()).data as Record<string, unknown> | null) ?? null;
  const members = (chat?.members as Record<string, { contact_name?: string }> | undefined) ?? {};
  const contactName = (contactRow?.contact_name as string | undefined) ?? (number ? members[number]?.contact_name : undefined) ?? (chat?.chat_type === 'user' ? (chat?.chat_name as string | undefined) : undefined) ?? null;
  const asMap = (v: unknown) => (v && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : {});
  const ticket = (p.ticket as Record<string, unknown> | undefined) ?? null;
  const unread = Number(chat?.message_unread_count ?? 0);
  const closed = !!chat?.closed_at || chat?.inbox_state === 'closed';
  const time = timeFields(now, await getOrgClock(orgId));
  const ctx: EvalContext = {
    message: msg ? { body: msg.body ?? null, type: msg.message_type ?? null, from_me: !!msg.from_me, number: number ?? null } : {},
    chat: chat
      ? { labels, assignee: chat.assigned_to ?? null, type: chat.chat_type ?? null, unread, closed, phone: chat.org_phone ?? null, custom_properties: asMap(chat.custom_properties) }
      : {},
    contact: { name: contactName, labels: (contactRow?.labels as unknown[] | undefined) ?? (contactRow?.label_ids as unknown[] | undefined) ?? [], properties: { ...asMap(contactRow?.properties), ...asMap(contactRow?.custom_properties) } },
    ticket: ticket ? { status: ticket.status ?? null, priority: ticket.priority ?? null, subject: ticket.subject ?? null, assignee: ticket.assignee ?? null } : {},
    time,
    reaction: reaction ? { emoji: reaction.emoji ?? null } : {},
  };
  const latest = chat?.latest_message as { unique_id?: string } | undefined;
  const vars = {
    contact: { name: contactName, number: number ?? null, properties: (ctx.contact as { properties: unknown }).properties },
    chat: { name: chat?.chat_name ?? null, assignee: chat?.assigned_to ?? null, labels: labelIds.map((l) => names.get(l) ?? l), custom_properties: asMap(chat?.custom_properties) },
    message: { body: msg?.body ?? null },
    ticket: ticket ?? {},
    now: new Date(now).toISOString(),
    time,
    reaction: { emoji: reaction?.emoji ?? null },
  };
  return { ctx, vars, messageUniqueId: (msg?.unique_id as string | undefined) ?? latest?.unique_id ?? null, chat: chat && chat.chat_id === chatId ? chat : null };
}

/**
 * A contact event's own snapshot is the contact (events/contracts/contact.ts): its name, labels and
 * custom properties fill `contact.*` (conditions and `{{contact.…}}`); a property change adds
 * `{{property.id}}`, `{{property.from}}`, `{{property.to}}` (null = unset).
 */
function withContactEvent(b: { ctx: EvalContext; vars: Record<string, unknown> }, props: Record<string, unknown>, f: FiredTrigger): void {
  const c = (props.contact ?? {}) as { contact_id?: string; display_name?: string | null; label_ids?: string[]; custom_properties?: Record<string, string> };
  const contact = { name: c.display_name ?? null, labels: c.label_ids ?? [], properties: c.custom_properties ?? {} };
  b.ctx.contact = contact;
  b.vars.contact = { ...contact, number: c.contact_id ?? null };
  if (f.trigger === 'contact.property_changed') {
    const change = ((props.property_changes as Array<{ property_id: string; from: string | null; to: string | null }> | undefined) ?? []).find((x) => x.property_id === f.subject);
    b.vars.property = { id: f.subject ?? null, from: change?.from ?? null, to: change?.to ?? null };
  }
}

/** Claim an action's receipt (conditional create). false: it was claimed before (a duplicate). */
async function claim(orgId: string, key: string, ruleId: string, chatId: string | null, status: string, detail?: string): Promise<boolean> {
  const now = Date.now();
  try {
    await db()
      .entities.ruleAction.create({ org_id: orgId, action_key: key, rule_id: ruleId, ...(chatId ? { chat_id: chatId } : {}), status, ...(detail ? { detail: detail.slice(0, 500) } : {}), at: now, expires_at: Math.floor(now / 1000) + RECEIPT_TTL_S })
      .go();
    return true;
  } catch (e) {
    if (/conditional/i.test((e as Error).message)) return false;
    throw e;
  }
}
const settle = (orgId: string, key: string, status: string, detail?: string) =>
  db()
    .entities.ruleAction.patch({ org_id: orgId, action_key: key })
    .set({ status, ...(detail ? { detail: detail.slice(0, 500) } : {}) })
    .go()
    .catch((e) => log('warn', 'rules.receipt_update_failed', { key, error: String(e) }));

/** A done action's receipt, written by the caller after the actions (runActions `doneReceipts`). */
export interface DoneReceipt {
  org_id: string;
  action_key: string;
  rule_id: string;
  chat_id: string | null;
  detail: string;
}

/**
 * Mark claimed receipts done, in BatchWrites (25 a call): a put of the whole row, which only the
 * claimer writes (the claim was a conditional create). A crash before it leaves them 'running':
 * still claimed, so a retry does not repeat the action. Failures are logged, never thrown.
 */
export async function writeDoneReceipts(rows: DoneReceipt[]): Promise<void> {
  if (!rows.length) return;
  const now = Date.now();
  await db()
    .entities.ruleAction.put(rows.map((r) => ({ org_id: r.org_id, action_key: r.action_key, rule_id: r.rule_id, ...(r.chat_id ? { chat_id: r.chat_id } : {}), status: 'done', detail: r.detail.slice(0, 500), at: now, expires_at: Math.floor(now / 1000) + RECEIPT_TTL_S })))
    .go()
    .catch((e) => log('warn', 'rules.receipt_update_failed', { keys: rows.map((r) => r.action_key), error: String(e) }));
}

/** Count one action against the chat's per-minute window. false: over the limit. */
async function withinRate(orgId: string, chatId: string | null): Promise<boolean> {
  if (!chatId) return true;
  const window = Math.floor(Date.now() / 60_000);
  const res = await db()
    .entities.ruleRate.update({ org_id: orgId, chat_id: chatId, window })
    .add({ count: 1 })
    .set({ expires_at: (window + 10) * 60 })
    .go({ response: 'all_new' });
  return (res.data.count ?? 0) <= chatRatePerMinute();
}

/** Wake-up command of a delayed action, a follow-up step or a 'no reply' timer (rule-actions queue). */
export interface RuleWakeup {
  kind: 'action' | 'follow_up' | 'no_reply';
  org_id: string;
  rule_id: string;
  chat_id: string;
  /** the pending row's key */
  key: string;
  action_index: number;
  /** follow-up: 1-based step; when step > repeat, the `then` action */
  step?: number;
  /** epoch ms: the message the follow-up / no-reply timer counts from */
  anchor: number;
  event_id: string;
  trigger: TriggerType;
  message_unique_id?: string | null;
  causation?: Causation;
}

/** Arm a wake-up (scheduler port) and its pending row (listed per chat, cancellable). */
export async function schedulePending(w: RuleWakeup, dueAt: number, rule: RuleRow, summary: string, cancelOnReply: boolean): Promise<void> {
  const name = scheduleName('rule', w.org_id, w.key);
  const command = JSON.stringify(w);
  const now = Date.now();
  await db()
    .entities.rulePending.put({ org_id: w.org_id, chat_id: w.chat_id, action_key: w.key, rule_id: rule.rule_id, rule_name: rule.name, summary, schedule: name, command, due_at: dueAt, cancel_on_reply: cancelOnReply, created_at: now, expires_at: Math.floor(dueAt / 1000) + 7 * 86_400 })
    .go();
  await (await schedulerPort()).schedule({ name, at: dueAt, queue: RULE_ACTIONS_QUEUE, body: command });
}

/** Cancel pending rows of a chat that `reason` makes moot; returns what was cancelled. */
export async function cancelPending(orgId: string, chatId: string, which: (row: { action_key: string; cancel_on_reply: boolean }) => boolean, reason: string): Promise<Array<{ rule_id: string; rule_name: string; action_key: string; summary: string }>> {
  const rows = (await db().entities.rulePending.query.byChat({ org_id: orgId, chat_id: chatId }).go({ pages: 'all' })).data;
  const out = [];
  for (const r of rows.filter(which)) {
    await (await schedulerPort()).cancel(r.schedule);
    await db().entities.rulePending.delete({ org_id: orgId, chat_id: chatId, action_key: r.action_key }).go();
    out.push({ rule_id: r.rule_id, rule_name: r.rule_name, action_key: r.action_key, summary: `${r.summary} — cancelled: ${reason}` });
  }
  return out;
}

/**
 * Run one action of JOINED_ACTIONS (actions.ts) exactly once: its receipt (a conditional create of
 * `key` = event id + rule id + action index, status 'done') and the chat's rate count for this
 * minute (a conditional add: under chatRatePerMinute) are items of the action's own transaction,
 * so the three commit together or not at all. A redelivered event, or a retry after the
 * transaction's answer was lost (committed or not: the consumer cannot tell), finds the receipt
 * and reports a duplicate; nothing is claimed before the action, so a crash before the commit
 * leaves nothing behind and the retry does the action. One TransactWriteItems instead of a claim
 * PutItem, a rate UpdateItem, the action's transaction and a receipt write after it.
 * Over the rate, or refused by the use case (AppError), the receipt is written on its own
 * ('skipped' / 'failed', conditional: a lost race is a duplicate); other errors are for the
 * queue's retry (`retry`), with nothing to undo.
 */
async function runJoined(ac: ActionContext, a: Action, index: number, key: string, causation: Causation): Promise<{ outcome: ActionOutcome; retry?: Error }> {
  const now = Date.now();
  const window = Math.floor(now / 60_000);
  const limit = chatRatePerMinute();
  const chatId = ac.chatId;
  const duplicate: ActionOutcome = { index, type: a.type, status: 'duplicate', detail: 'already done for this event (idempotent by event + rule + action)' };
  const join: TxJoin = Object.assign((e: Parameters<TxJoin>[0]) => [
    e.ruleAction
      .create({ org_id: ac.orgId, action_key: key, rule_id: ac.rule.rule_id, ...(chatId ? { chat_id: chatId } : {}), status: 'done', detail: `${a.type}: done (in the action's transaction)`, at: now, expires_at: Math.floor(now / 1000) + RECEIPT_TTL_S })
      .commit() as TxItem,
    ...(chatId
      ? [
          e.ruleRate
            .update({ org_id: ac.orgId, chat_id: chatId, window })
            .add({ count: 1 })
            .set({ expires_at: (window + 10) * 60 })
            .where((x, op) => `${op.notExists(x.count)} OR ${op.lt(x.count, limit)}`)
            .commit() as TxItem,
        ]
      : []),
  ], { batch: ac.joins, conflictKey: chatId ?? undefined });
  try {
    const detail = await withCausation(causation, () => executeAction(ac, a, { join }));
    return { outcome: { index, type: a.type, status: 'done', detail } };
  } catch (err) {
    if (err instanceof JoinedItemRejected) {
      if (err.rejected.includes(0)) return { outcome: duplicate };
      if (!(await claim(ac.orgId, key, ac.rule.rule_id, chatId, 'skipped', 'rate limit'))) return { outcome: duplicate };
      return { outcome: { index, type: a.type, status: 'skipped', detail: `rate limit: more than ${limit} rule actions in this chat this minute` } };
    }
    const reason = isAppError(err) ? err.message : String((err as Error)?.message ?? err);
    if (!isAppError(err)) return { outcome: { index, type: a.type, status: 'failed', detail: reason }, retry: err as Error };
    if (!(await claim(ac.orgId, key, ac.rule.rule_id, chatId, 'failed', reason))) return { outcome: duplicate };
    return { outcome: { index, type: a.type, status: 'failed', detail: reason } };
  }
}

/** Does the rule send the customer a message (loop guard, issue 42 §4)? */
const sendsMessage = (rule: RuleRow): boolean => (rule.actions as Action[]).some((a) => a.type === 'send_message' || a.type === 'send_template' || a.type === 'follow_up');

const isFollowUpKey = (k: string) => k.startsWith('fu|');
const isNoReplyKey = (k: string) => k.startsWith('nr|');

/**
 * Run a rule's actions (already matched). `only`: one action index (a delayed action waking up);
 * delays are honoured unless `now` (the wake-up runs it now).
 */
export async function runActions(ac: ActionContext, opts: { only?: number; now?: boolean; dryRun?: boolean; doneReceipts?: DoneReceipt[] } = {}): Promise<{ outcomes: ActionOutcome[]; retry?: Error }> {
  const outcomes: ActionOutcome[] = [];
  let retry: Error | undefined;
  const settles: Array<Promise<unknown>> = [];
  const actions = ac.rule.actions as Action[];
  const causation: Causation = { event_id: ac.eventId, rule_ids: [...(ac.causation?.rule_ids ?? []), ac.rule.rule_id], depth: (ac.causation?.depth ?? 0) + 1 };
  for (let index = 0; index < actions.length; index++) {
    if (opts.only !== undefined && index !== opts.only) continue;
    const a = actions[index];
    const started = performance.now();
    const ms = () => Math.round(performance.now() - started);
    if (opts.dryRun) {
      outcomes.push({ index, type: a.type, status: 'would_run', detail: await actionSummary(ac, a) });
      continue;
    }
    // follow-ups: one chain per rule and chat, restarted by each team message (a stable key replaces the previous one)
    if (a.type === 'follow_up') {
      if (!ac.chatId) {
        outcomes.push({ index, type: a.type, status: 'skipped', detail: 'the event names no chat' });
        continue;
      }
      const key = `fu|${ac.rule.rule_id}|${ac.chatId}`;
      const w: RuleWakeup = { kind: 'follow_up', org_id: ac.orgId, rule_id: ac.rule.rule_id, chat_id: ac.chatId, key, action_index: index, step: 1, anchor: Date.now(), event_id: ac.eventId, trigger: ac.trigger, message_unique_id: ac.messageUniqueId, causation: ac.causation };
      const due = await timerDue(ac.orgId, Date.now(), a.after_minutes, a.business_hours);
      await schedulePending(w, due, ac.rule, `Follow-up 1 of ${a.repeat}: “${a.body.slice(0, 80)}”`, true);
      outcomes.push({ index, type: a.type, status: 'scheduled', detail: `follow-up 1 of ${a.repeat} at ${new Date(due).toISOString()}`, ms: ms() });
      continue;
    }
    const key = `${ac.keyPrefix}|${index}`;
    if (!opts.now && a.delay_minutes) {
      if (!ac.chatId) {
        outcomes.push({ index, type: a.type, status: 'skipped', detail: 'a delayed action needs a chat' });
        continue;
      }
      if (!(await claim(ac.orgId, key, ac.rule.rule_id, ac.chatId, 'scheduled'))) {
        outcomes.push({ index, type: a.type, status: 'duplicate', detail: 'already scheduled for this event' });
        continue;
      }
      // calendar minutes, or business minutes of the org's clock (getOrgClock) when the action asks
      const due = await timerDue(ac.orgId, Date.now(), a.delay_minutes, 'business_hours' in a ? a.business_hours : false);
      const w: RuleWakeup = { kind: 'action', org_id: ac.orgId, rule_id: ac.rule.rule_id, chat_id: ac.chatId, key, action_index: index, anchor: Date.now(), event_id: ac.eventId, trigger: ac.trigger, message_unique_id: ac.messageUniqueId, causation: ac.causation };
      await schedulePending(w, due, ac.rule, `${await actionSummary(ac, a)} in ${a.delay_minutes} ${'business_hours' in a && a.business_hours ? 'business ' : ''}min`, a.cancel_on_reply !== false);
      outcomes.push({ index, type: a.type, status: 'scheduled', detail: `at ${new Date(due).toISOString()}`, ms: ms() });
      continue;
    }
    // the receipt and the rate count in the action's own transaction (exactly once, one write)
    if (!opts.now && JOINED_ACTIONS.has(a.type)) {
      const r = await runJoined(ac, a, index, key, causation);
      outcomes.push({ ...r.outcome, ...(r.outcome.status === 'duplicate' ? {} : { ms: ms() }) });
      retry ??= r.retry;
      continue;
    }
    // the receipt claim and the chat's rate counter are independent writes: one round trip, not two
    // (a redelivered duplicate therefore also counts once against the chat's minute: harmless)
    const [claimed, inRate] = await Promise.all([opts.now ? true : claim(ac.orgId, key, ac.rule.rule_id, ac.chatId, 'running'), withinRate(ac.orgId, ac.chatId)]);
    if (!claimed) {
      outcomes.push({ index, type: a.type, status: 'duplicate', detail: 'already done for this event (idempotent by event + rule + action)' });
      continue;
    }
    if (!inRate) {
      await settle(ac.orgId, key, 'skipped', 'rate limit');
      outcomes.push({ index, type: a.type, status: 'skipped', detail: `rate limit: more than ${chatRatePerMinute()} rule actions in this chat this minute`, ms: ms() });
      continue;
    }
    try {
      const detail = await withCausation(causation, () => executeAction(ac, a));
      // the receipt's final status: handed to the caller's end-of-event batch write when it asks
      // (opts.doneReceipts: one BatchWrite with the log rows instead of one UpdateItem per action,
      // and nothing to wait for before the log row), else written while the next action runs
      if (opts.doneReceipts && !opts.now) opts.doneReceipts.push({ org_id: ac.orgId, action_key: key, rule_id: ac.rule.rule_id, chat_id: ac.chatId, detail });
      else settles.push(settle(ac.orgId, key, 'done', detail));
      outcomes.push({ index, type: a.type, status: 'done', detail, ms: ms() });
    } catch (e) {
      const reason = isAppError(e) ? e.message : String((e as Error)?.message ?? e);
      outcomes.push({ index, type: a.type, status: 'failed', detail: reason, ms: ms() });
      if (isAppError(e)) await settle(ac.orgId, key, 'failed', reason);
      else {
        // unexpected: forget the claim so the retry runs this action again
        await db().entities.ruleAction.delete({ org_id: ac.orgId, action_key: key }).go().catch(() => undefined);
        retry ??= e as Error;
      }
    }
  }
  await Promise.all(settles);
  return { outcomes, retry };
}

const outcomeOf = (outcomes: ActionOutcome[]): RuleLog['outcome'] => {
  const failed = outcomes.filter((o) => o.status === 'failed').length;
  return failed === 0 ? 'matched' : failed === outcomes.length ? 'failed' : 'partial';
};

/**
 * One Rules-log row. With `idKey` (what the row is about within the event: trigger, rule, kind) and
 * the event's `occurredAt` (epoch ms), its log_id is made from them (keyedUlid, time prefix = the
 * event's time), so an event handled again (at-least-once delivery) rewrites its rows instead of
 * adding a second set; the row then says the actions were already done (statuses 'duplicate').
 */
function logRow(rule: RuleRow, trigger: TriggerType, eventId: string, chatId: string | null, outcome: RuleLog['outcome'], reasons: string[], actions: ActionOutcome[], occurredAt: number | null, idKey?: string): RuleLog {
  const at = Date.now();
  return { log_id: idKey && occurredAt ? keyedUlid(occurredAt, `${eventId}|${idKey}`) : fastUlid(at), rule_id: rule.rule_id, rule_name: rule.name, rule_version: rule.version, trigger, event_id: eventId, chat_id: chatId, outcome, reasons, actions, at, latency_ms: occurredAt ? Math.max(0, at - occurredAt) : null };
}

/** Dry-run samples kept per org and trigger and process: a burst of SAMPLE_BURST, then samplesPerSecond() a second (env RULES_SAMPLES_PER_S, default 2: a dry run reads the last 100, so a busy trigger's samples still span the last minute). */
const SAMPLE_BURST = 20;
const samplesPerSecond = () => {
  const v = Number(process.env.RULES_SAMPLES_PER_S);
  return Number.isFinite(v) && v > 0 ? v : 2;
};
const sampleBuckets = new Map<string, { tokens: number; at: number }>();
/** A bucket's tokens at `now` (epoch ms): refilled at samplesPerSecond since its last take, up to SAMPLE_BURST. */
const tokensAt = (b: { tokens: number; at: number }, now: number) => Math.min(SAMPLE_BURST, b.tokens + ((now - b.at) / 1000) * samplesPerSecond());

/**
 * May this event be kept as a dry-run sample? A token bucket per org + trigger (SAMPLE_BURST
 * tokens, refilled at samplesPerSecond): a quiet trigger keeps every event, a busy one (200
 * messages/s) keeps about 2 a second — a dry run reads only the last 100 (DRY_RUN_EVENTS), so
 * writing a sample for every message (one PutItem each, on the live lane) bought nothing.
 * `now` epoch ms.
 */
export function takeSampleToken(orgId: string, trigger: string, now: number): boolean {
  const key = `${orgId}|${trigger}`;
  const b = sampleBuckets.get(key) ?? { tokens: SAMPLE_BURST, at: now };
  b.tokens = tokensAt(b, now);
  b.at = now;
  const ok = b.tokens >= 1;
  if (ok) b.tokens -= 1;
  if (sampleBuckets.size > 10_000 && !sampleBuckets.has(key)) sampleBuckets.clear();
  sampleBuckets.set(key, b);
  return ok;
}

/** Would takeSampleToken give this event a token now? (read only: the bucket is not changed) `now` epoch ms. */
export function sampleTokenLeft(orgId: string, trigger: string, now: number): boolean {
  const b = sampleBuckets.get(`${orgId}|${trigger}`);
  return !b || tokensAt(b, now) >= 1;
}

/** A dry-run sample row: what a trigger saw (the caller took a token from takeSampleToken). */
interface SampleRow {
  org_id: string;
  trigger: TriggerType;
  sample_id: string;
  event_id: string;
  chat_id?: string;
  context: EvalContext;
  at: number;
  expires_at: number;
}
function sampleRow(orgId: string, trigger: TriggerType, eventId: string, chatId: string | null, ctx: EvalContext): SampleRow {
  const now = Date.now();
  return { org_id: orgId, trigger, sample_id: fastUlid(now), event_id: eventId, ...(chatId ? { chat_id: chatId } : {}), context: ctx, at: now, expires_at: Math.floor(now / 1000) + 14 * 86_400 };
}
/** Keep samples for dry runs (BatchWrites of 25; failures only logged: a sample is never worth a retry). */
async function writeSamples(rows: SampleRow[]): Promise<void> {
  if (!rows.length) return;
  await db()
    .entities.ruleSample.put(rows)
    .go({ concurrency: 4 })
    .catch((e) => log('warn', 'rules.sample_failed', { error: String(e) }));
}

/**
 * What the engine derives from an org's rule list, computed once per cached list (not per event):
 * the enabled rules by trigger, whether any rule is timed (delays, follow-ups, 'no reply': only
 * then can a chat have pending rows to cancel — a deleted rule's ones wake up and are dropped),
 * and whether any rule reads the contact row.
 */
interface RuleIndex {
  enabled: RuleRow[];
  byTrigger: Map<TriggerType, RuleRow[]>;
  timed: boolean;
  withContact: boolean;
}
const indexes = new WeakMap<RuleRow[], RuleIndex>();
function ruleIndex(all: RuleRow[]): RuleIndex {
  let ix = indexes.get(all);
  if (ix) return ix;
  const enabled = all.filter((r) => r.enabled);
  const byTrigger = new Map<TriggerType, RuleRow[]>();
  for (const r of enabled) byTrigger.set(r.trigger.type, [...(byTrigger.get(r.trigger.type) ?? []), r]);
  const timed = all.some((r) => r.trigger.type === 'no_reply' || (r.actions as Action[]).some((a) => a.type === 'follow_up' || !!a.delay_minutes));
  ix = { enabled, byTrigger, timed, withContact: needsContact(enabled) };
  indexes.set(all, ix);
  return ix;
}

/** Does any of the org's rules (enabled or not) arm a timer: a delayed action, a follow-up, 'no reply'? */
export const rulesArmTimers = (all: RuleRow[]): boolean => ruleIndex(all).timed;

/**
 * What the evaluations of one SQS batch leave to write after their actions: log rows, dry-run
 * samples, done receipts of claim-first actions. The rules consumer passes one to every
 * handleRuleEvent of a batch and writes them together (flushRuleWrites): a batch of 10 events
 * costs one or two BatchWrites instead of a BatchWrite and a PutItem per event (issue 17 bench:
 * they were most of the rules consumer's DynamoDB calls). Nothing in it is an action: the actions
 * and their exactly-once receipts are committed before the row is queued here.
 */
export interface RuleWrites {
  logs: Array<{ orgId: string; log: RuleLog }>;
  samples: SampleRow[];
  doneReceipts: DoneReceipt[];
  /** epoch ms each event's evaluation ended (the `log` phase of ruleEngineStats runs from there to the write) */
  evaluatedAt: number[];
  /**
   * The batch's joined actions (a private note with its receipt and rate count) commit together:
   * one TransactWriteItems for the batch's notes instead of one each (shared/db/transaction.ts
   * JoinBatch; each event's handleRuleEvent is a participant). Exactly once holds per action: its
   * receipt is in the same all-or-nothing transaction as its note.
   */
  joins?: JoinBatch;
}
export const newRuleWrites = (opts: { joins?: boolean } = {}): RuleWrites => ({ logs: [], samples: [], doneReceipts: [], evaluatedAt: [], ...(opts.joins ? { joins: new JoinBatch() } : {}) });

/**
 * Write a batch's RuleWrites: the log rows, the samples and the done receipts, each entity in
 * BatchWrites (25 a call), all at once. Log rows that fail throw (the caller's records are retried:
 * actions are skipped by their receipts); samples and done receipts only log their failures, as
 * when written per event.
 */
export async function flushRuleWrites(w: RuleWrites): Promise<void> {
  await Promise.all([writeRuleLogRows(w.logs), writeDoneReceipts(w.doneReceipts), writeSamples(w.samples)]);
  const end = Date.now();
  for (const at of w.evaluatedAt) recordLogStat(end - at);
}

/** A refusal of the entitlement gate as the automation logs record it (shared/plan/entitlements.rules.ts `entitlement`). */
export interface PlanRefusal {
  code: RefusalCode;
  /** the gate's message in plain words (what to do next) */
  message: string;
}

/** The reasons of a log row the gate refused (issue 42 §2): `plan.refused: <code>` first, then the message. */
export const planRefusedReasons = (r: PlanRefusal): string[] => [`plan.refused: ${r.code}`, r.message];

/**
 * Record in the rules log that the entitlement gate refused an event (issue 42 §2: a subscription
 * or trial that ended stops the rules engine, and the admin sees it on the /rules Log tab, not only
 * in the process log). One row per event, not one per rule: the rule id is the rule's when one rule
 * would have been evaluated, else `*` with the rules named in the reasons (like collapseNotMatched's
 * summary row). Nothing when no enabled rule has a trigger the event fires. Reads only the org's
 * rules from the per-process cache (orgRules, as the relevance gate does); the row is queued on
 * `writes` (the batch's one flush). Its id is made from the event, so a redelivery rewrites it.
 * @returns whether a row was queued
 */
export async function logRefusedRuleEvent(e: BusEvent, refusal: PlanRefusal, writes: RuleWrites): Promise<boolean> {
  const orgId = e.detail.properties.org_id as string | undefined;
  if (!orgId) return false;
  const fired = triggersOf(e);
  if (!fired.length) return false;
  const { byTrigger } = ruleIndex(await orgRules(orgId));
  const rules = [...new Set(fired.flatMap((f) => (byTrigger.get(f.trigger) ?? []).filter((rule) => f.trigger !== 'contact.property_changed' || !rule.trigger.property_id || rule.trigger.property_id === f.subject)))];
  if (!rules.length) return false;
  const meta = e.detail.metadata;
  const occurredAt = meta.occurred_at ? Date.parse(meta.occurred_at) : null;
  const one = rules.length === 1 ? rules[0]! : null;
  const at = Date.now();
  const reasons = [...planRefusedReasons(refusal), ...(one ? [] : rules.map((r) => `not evaluated: ${r.name}`))].slice(0, 25);
  writes.logs.push({
    orgId,
    log: {
      log_id: occurredAt ? keyedUlid(occurredAt, `${meta.id}|plan.refused`) : fastUlid(at),
      rule_id: one ? one.rule_id : '*',
      rule_name: one ? one.name : `${rules.length} rules`,
      rule_version: one ? one.version : 0,
      trigger: fired[0]!.trigger,
      event_id: meta.id,
      chat_id: chatIdOf(e),
      outcome: 'skipped',
      reasons,
      actions: [],
      at,
      latency_ms: occurredAt ? Math.max(0, at - occurredAt) : null,
    },
  });
  return true;
}

/**
 * Record in the rules log that the entitlement gate refused a rule's wake-up (a delayed action, a
 * follow-up step, a 'no reply' timer; issue 42 §2). The rule's name from the per-process cache;
 * nothing when the rule is gone.
 */
export async function logRefusedRuleWakeup(w: RuleWakeup, refusal: PlanRefusal): Promise<void> {
  const rule = (await orgRules(w.org_id)).find((r) => r.rule_id === w.rule_id);
  if (!rule) return;
  await writeRuleLogs(w.org_id, [logRow(rule, w.trigger, w.event_id, w.chat_id, 'skipped', planRefusedReasons(refusal), [], null)]);
}

/**
 * Handle one bus event (the rules consumer). `writes`: queue the log rows, samples and done
 * receipts there for the caller's flushRuleWrites instead of writing them now.
 * @returns whether it did anything but keep a dry-run sample (evaluated a rule, logged, armed or
 *   cancelled a timer); false lets the consumer answer with NOOP (no table receipt: a repeat changes nothing)
 * @throws the first unexpected action failure, after everything else was done and logged
 */
export async function handleRuleEvent(e: BusEvent, delivery?: { sentAt?: number; receivedAt?: number }, writes?: RuleWrites): Promise<boolean> {
  const props = e.detail.properties;
  const orgId = props.org_id as string | undefined;
  if (!orgId) return false;
  const fired = triggersOf(e);
  // most chat.updated events (read, typing, renamed…) fire no trigger: nothing to read or write
  if (!fired.length) return false;
  const startedAt = Date.now();
  // spec §9: Starter lacks the rules engine — its rules (kept from an earlier plan) do not run (plan state cached 5 s)
  if (!(await orgHasFeature(orgId, 'rules_engine'))) return false;
  const meta = e.detail.metadata;
  const chatId = chatIdOf(e);
  const occurredAt = meta.occurred_at ? Date.parse(meta.occurred_at) : null;
  const all = await orgRules(orgId);
  const { enabled, byTrigger, timed, withContact } = ruleIndex(all);
  const logs: RuleLog[] = [];

  // a customer message: delayed actions and follow-ups waiting for no reply are moot
  if (e['detail-type'] === 'message.received' && fired.length && chatId && timed) {
    const cancelled = await cancelPending(orgId, chatId, (r) => r.cancel_on_reply && !isNoReplyKey(r.action_key), 'the customer replied');
    for (const c of cancelled) {
      const rule = all.find((r) => r.rule_id === c.rule_id);
      if (rule) logs.push(logRow(rule, fired[0].trigger, meta.id, chatId, 'skipped', [c.summary], [], occurredAt, `cancelled|${c.action_key}`));
    }
    // 'no reply within N minutes': (re)arm a timer per rule, from this message
    for (const rule of enabled.filter((r) => r.trigger.type === 'no_reply')) {
      const key = `nr|${rule.rule_id}|${chatId}`;
      const w: RuleWakeup = { kind: 'no_reply', org_id: orgId, rule_id: rule.rule_id, chat_id: chatId, key, action_index: -1, anchor: Date.now(), event_id: meta.id, trigger: 'no_reply', message_unique_id: (props.message as { unique_id?: string } | undefined)?.unique_id ?? null };
      await schedulePending(w, await timerDue(orgId, w.anchor, rule.trigger.minutes ?? 60, rule.trigger.business_hours), rule, `“${rule.name}” if nobody replies within ${rule.trigger.minutes} ${rule.trigger.business_hours ? 'business ' : ''}min`, false);
    }
  }
  // a team message: 'no reply' timers are moot
  if (e['detail-type'] === 'message.sent' && fired.length && chatId && timed) await cancelPending(orgId, chatId, (r) => isNoReplyKey(r.action_key), 'a member replied');

  let retry: Error | undefined;
  const triggered = fired.flatMap((f) =>
    (byTrigger.get(f.trigger) ?? [])
      // 'contact property changed' may name one property
      .filter((rule) => f.trigger !== 'contact.property_changed' || !rule.trigger.property_id || rule.trigger.property_id === f.subject)
      .map((rule) => ({ f, rule })),
  );
  const built = new Map<string, Awaited<ReturnType<typeof buildContext>>>();
  const contextFor = async (f: FiredTrigger) => {
    const k = f.trigger_id;
    if (!built.has(k)) {
      const b = await buildContext(orgId, e, chatId, withContact, occurredAt ?? Date.now());
      if (f.subject && f.trigger.startsWith('label.')) (b.ctx as { label?: unknown }).label = { id: f.subject, name: (await labelNames(orgId)).get(f.subject) ?? null };
      if (e['detail-type'].startsWith('contact.')) withContactEvent(b, props, f);
      built.set(k, b);
    }
    return built.get(k)!;
  };
  // samples for dry runs (written with the log rows at the end)
  const samples: SampleRow[] = [];
  const doneReceipts: DoneReceipt[] = [];
  for (const f of fired) {
    if (!['message.received', 'message.sent'].includes(f.trigger) && !triggered.some((t) => t.f === f)) continue;
    // the context is built for the sample only when the sample is kept (rules that fired build it anyway)
    if (!takeSampleToken(orgId, f.trigger, Date.now())) continue;
    samples.push(sampleRow(orgId, f.trigger, f.trigger_id, chatId, (await contextFor(f)).ctx));
  }
  for (const { f, rule } of triggered) {
    const guard = loopGuard(meta.causation, rule.rule_id, MAX_CAUSATION_DEPTH, { eventType: e['detail-type'], sendsMessage: sendsMessage(rule), allowAfterAutomation: rule.allow_after_automation === true });
    if (guard) {
      logs.push(logRow(rule, f.trigger, meta.id, chatId, 'skipped', [guard], [], occurredAt, `${f.trigger_id}|${rule.rule_id}`));
      continue;
    }
    // issue 42 §1: the rule acts with its owner's rights — paused when the owner lost them, and it
    // does not match a chat its owner may not see (the log says why)
    const owner = ruleAutomationActor(rule);
    const { problem } = await owner;
    if (problem) {
      await pauseRule(rule, problem);
      logs.push(logRow(rule, f.trigger, meta.id, chatId, 'skipped', [`rule paused: ${problem}`], [], occurredAt, `${f.trigger_id}|${rule.rule_id}`));
      continue;
    }
    const b = await contextFor(f);
    const ac: ActionContext = { orgId, rule, chatId, chat: b.chat, messageUniqueId: b.messageUniqueId, vars: { ...b.vars, rule: { name: rule.name } }, keyPrefix: `${f.trigger_id}|${rule.rule_id}`, eventId: meta.id, trigger: f.trigger, causation: meta.causation, joins: writes?.joins, owner };
    const outside = await ownerChatProblem(ac, chatId);
    if (outside) {
      logs.push(logRow(rule, f.trigger, meta.id, chatId, 'not_matched', [outside], [], occurredAt, `${f.trigger_id}|${rule.rule_id}`));
      continue;
    }
    const result = evaluateConditions(rule.conditions, b.ctx);
    if (!result.matched) {
      logs.push(logRow(rule, f.trigger, meta.id, chatId, 'not_matched', result.reasons, [], occurredAt, `${f.trigger_id}|${rule.rule_id}`));
      continue;
    }
    const r = await runActions(ac, { doneReceipts });
    retry ??= r.retry;
    logs.push(logRow(rule, f.trigger, meta.id, chatId, outcomeOf(r.outcomes), [], r.outcomes, occurredAt, `${f.trigger_id}|${rule.rule_id}`));
  }
  const evaluatedAt = Date.now();
  const own = writes ?? newRuleWrites();
  for (const log of collapseNotMatched(logs, occurredAt)) own.logs.push({ orgId, log });
  own.samples.push(...samples);
  own.doneReceipts.push(...doneReceipts);
  if (occurredAt && triggered.length) {
    recordStat(occurredAt, delivery?.sentAt, delivery?.receivedAt, startedAt, evaluatedAt);
    own.evaluatedAt.push(evaluatedAt);
  }
  if (!writes) await flushRuleWrites(own);
  if (retry) throw retry;
  // a sample alone is no action: handling the event again would only keep another
  const isMessage = e['detail-type'] === 'message.received' || e['detail-type'] === 'message.sent';
  return triggered.length > 0 || logs.length > 0 || (timed && !!chatId && isMessage);
}

/**
 * Where the time of an event goes in this process (for bench:rules), ms, last 50,000 events with rules:
 * - `publish`: stored (occurred_at) → on the rules queue (SQS SentTimestamp): outbox relay + bus;
 * - `queued`: on the queue → delivered to the consumer (ApproximateFirstReceiveTimestamp);
 * - `receipts`: delivered → the evaluation starts (consumer receipts, the plan gate);
 * - `handle`: the evaluation with its actions; `log`: the log and dry-run sample writes after it.
 */
const STAT_KEYS = ['publish', 'queued', 'receipts', 'handle', 'log'] as const;
type StatKey = (typeof STAT_KEYS)[number];
const stats: Record<StatKey, number[]> = { publish: [], queued: [], receipts: [], handle: [], log: [] };
function recordStat(occurredAt: number, sentAt: number | undefined, receivedAt: number | undefined, startedAt: number, evaluatedAt: number): void {
  if (stats.handle.length >= 50_000) for (const k of STAT_KEYS) stats[k].splice(0, 10_000);
  const sent = sentAt ?? startedAt;
  const received = receivedAt ?? startedAt;
  stats.publish.push(sent - occurredAt);
  stats.queued.push(received - sent);
  stats.receipts.push(startedAt - received);
  stats.handle.push(evaluatedAt - startedAt);
}
function recordLogStat(ms: number): void {
  if (stats.log.length >= 50_000) stats.log.splice(0, 10_000);
  stats.log.push(ms);
}
export function ruleEngineStats(): Record<StatKey, number[]> {
  return Object.fromEntries(STAT_KEYS.map((k) => [k, [...stats[k]]])) as Record<StatKey, number[]>;
}
export function resetRuleEngineStats(): void {
  for (const k of STAT_KEYS) stats[k].length = 0;
}

/** Per-rule 'not matched' rows per event, at most (env RULES_LOG_NOT_MATCHED_MAX, default 20); past it one summary row. */
export const notMatchedRowsMax = () => {
  const v = Number(process.env.RULES_LOG_NOT_MATCHED_MAX);
  return Number.isInteger(v) && v >= 0 ? v : 20;
};

/**
 * An event that many rules did not match is logged as ONE summary row (rule_id '*', each rule's
 * name and first reason) instead of one row per rule: an org with 100 rules at 200 messages/s
 * would otherwise write 20,000 log rows a second. Matched, skipped and failed evaluations keep
 * their own rows always. `occurredAt` (the event's time, epoch ms): the summary's log_id is made
 * from the event and trigger (keyedUlid), so a redelivered event rewrites it.
 */
export function collapseNotMatched(logs: RuleLog[], occurredAt: number | null = null): RuleLog[] {
  const miss = logs.filter((l) => l.outcome === 'not_matched');
  if (miss.length <= notMatchedRowsMax()) return logs;
  const first = miss[0];
  const summary: RuleLog = {
    ...first,
    // one summary per event and trigger: its id is made from them, as each row's (logRow)
    ...(occurredAt ? { log_id: keyedUlid(occurredAt, `${first.event_id}|${first.trigger}|*`) } : {}),
    rule_id: '*',
    rule_name: `${miss.length} rules`,
    rule_version: 0,
    reasons: miss.slice(0, 25).map((l) => `${l.rule_name}: ${l.reasons[0] ?? 'no match'}`),
    actions: [],
  };
  return [...logs.filter((l) => l.outcome !== 'not_matched'), summary];
}

/**
 * A wake-up from the scheduler (rule-actions queue): a delayed action, a follow-up step or a
 * 'no reply' timer. Stale wake-ups (the pending row is gone: cancelled or done) are ignored.
 */
export async function handleRuleWakeup(w: RuleWakeup): Promise<void> {
  const pending = (await db().entities.rulePending.get({ org_id: w.org_id, chat_id: w.chat_id, action_key: w.key }).go({ consistent: true })).data;
  const armed = pending ? (JSON.parse(pending.command) as RuleWakeup) : null;
  if (!armed || armed.anchor !== w.anchor || (armed.step ?? 0) !== (w.step ?? 0) || armed.kind !== w.kind) return log('info', 'rules.wakeup_stale', { key: w.key });
  const rules = await orgRules(w.org_id, true);
  const rule = rules.find((r) => r.rule_id === w.rule_id);
  const drop = () => db().entities.rulePending.delete({ org_id: w.org_id, chat_id: w.chat_id, action_key: w.key }).go();
  if (!rule || !rule.enabled) return void (await drop());
  // the plan lost the rules engine (spec §9) since the timer was set: drop it
  if (!(await orgHasFeature(w.org_id, 'rules_engine'))) return void (await drop());
  const chat = (await db().entities.chat.get({ org_id: w.org_id, chat_id: w.chat_id }).go()).data as ChatLike | null;
  if (!chat) return void (await drop());
  // issue 42 §1: an owner who lost the rights the rule acts with pauses it (the wake-up is dropped)
  const owner = ruleAutomationActor(rule);
  const { problem } = await owner;
  if (problem) {
    await drop();
    await pauseRule(rule, problem);
    return writeRuleLogs(w.org_id, [logRow(rule, w.trigger, w.event_id, w.chat_id, 'skipped', [`rule paused: ${problem}`], [], null)]);
  }
  const event: BusEvent = { 'detail-type': 'rules.wakeup', detail: { properties: { org_id: w.org_id, chat }, metadata: { id: w.event_id, causation: w.causation } } };
  const b = await buildContext(w.org_id, event, w.chat_id, needsContact([rule]));
  const ac: ActionContext = { orgId: w.org_id, rule, chatId: w.chat_id, chat: b.chat, messageUniqueId: w.message_unique_id ?? b.messageUniqueId, vars: { ...b.vars, rule: { name: rule.name } }, keyPrefix: `${w.key}|wake`, eventId: w.event_id, trigger: w.trigger, causation: w.causation, owner };
  const logs: RuleLog[] = [];
  let retry: Error | undefined;
  if (w.kind === 'no_reply') {
    const result = evaluateConditions(rule.conditions, b.ctx);
    await drop();
    if (!result.matched) logs.push(logRow(rule, 'no_reply', w.event_id, w.chat_id, 'not_matched', result.reasons, [], null));
    else {
      const r = await runActions({ ...ac, keyPrefix: `${w.key}|${w.anchor}` });
      retry = r.retry;
      logs.push(logRow(rule, 'no_reply', w.event_id, w.chat_id, outcomeOf(r.outcomes), [], r.outcomes, null));
    }
  } else if (w.kind === 'action') {
    await drop();
    const r = await runActions(ac, { only: w.action_index, now: true });
    retry = r.retry;
    logs.push(logRow(rule, w.trigger, w.event_id, w.chat_id, outcomeOf(r.outcomes), ['delayed action'], r.outcomes, null));
  } else {
    const a = (rule.actions as Action[])[w.action_index];
    if (a?.type !== 'follow_up') return void (await drop());
    const step = w.step ?? 1;
    const key = `${w.key}|${w.anchor}|${step}`;
    if (!(await claim(w.org_id, key, rule.rule_id, w.chat_id, 'running'))) return;
    const started = performance.now();
    let outcome: ActionOutcome;
    try {
      const causation: Causation = { event_id: w.event_id, rule_ids: [...(w.causation?.rule_ids ?? []), rule.rule_id], depth: (w.causation?.depth ?? 0) + 1 };
      if (step <= a.repeat) {
        const detail = await withCausation(causation, () => executeAction(ac, { type: 'send_message', body: a.body }));
        outcome = { index: w.action_index, type: 'follow_up', status: 'done', detail: `follow-up ${step} of ${a.repeat}: ${detail}`, ms: Math.round(performance.now() - started) };
        const next: RuleWakeup = { ...w, step: step + 1 };
        const last = step === a.repeat;
        if (last && a.then === 'nothing') await drop();
        else await schedulePending(next, await timerDue(w.org_id, Date.now(), a.after_minutes, a.business_hours), rule, last ? `${a.then === 'close' ? 'Close the chat' : 'Label the chat'} if the customer does not reply` : `Follow-up ${step + 1} of ${a.repeat}: “${a.body.slice(0, 80)}”`, true);
      } else {
        await drop();
        const then: Action = a.then === 'close' ? { type: 'close' } : { type: 'add_label', label_id: a.then_label_id ?? '' };
        const detail = await withCausation(causation, () => executeAction(ac, then));
        outcome = { index: w.action_index, type: 'follow_up', status: 'done', detail: `no reply after ${a.repeat} follow-up(s): ${detail}`, ms: Math.round(performance.now() - started) };
      }
      await settle(w.org_id, key, 'done');
    } catch (err) {
      outcome = { index: w.action_index, type: 'follow_up', status: 'failed', detail: isAppError(err) ? err.message : String(err), ms: Math.round(performance.now() - started) };
      if (!isAppError(err)) {
        await db().entities.ruleAction.delete({ org_id: w.org_id, action_key: key }).go().catch(() => undefined);
        retry = err as Error;
      } else await settle(w.org_id, key, 'failed', outcome.detail);
    }
    logs.push(logRow(rule, w.trigger, w.event_id, w.chat_id, outcome.status === 'failed' ? 'failed' : 'matched', [`follow-up step ${step}`], [outcome], null));
  }
  await writeRuleLogs(w.org_id, logs);
  if (retry) throw retry;
}

/** Pending delayed actions and follow-ups of a chat (shown in the thread). */
export async function listPending(orgId: string, chatId: string): Promise<Array<{ key: string; rule_id: string; rule_name: string; summary: string; due_at: number }>> {
  const rows = (await db().entities.rulePending.query.byChat({ org_id: orgId, chat_id: chatId }).go({ pages: 'all' })).data;
  return rows.filter((r) => !isNoReplyKey(r.action_key)).map((r) => ({ key: r.action_key, rule_id: r.rule_id, rule_name: r.rule_name, summary: r.summary, due_at: r.due_at }));
}

export { isFollowUpKey };
