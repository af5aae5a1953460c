import { ulid } from 'ulid';
import { db } from '../db/service.ts';
import { log } from '../log.ts';
import { schedulerPort, scheduleName } from '../ports/scheduler.ts';
import { getOrgClock } from '../org/org-clock.ts';
import { orgHasFeature } from '../plan/gate.ts';
import { updateChatRow, type ChatRow } from '../chat/chat-write.ts';
import { toChatWire } from '../inbox/wire.ts';
import { applyAnalyticsInput } from '../analytics/analytics.ts';
import { chatFactsOf } from '../analytics/analytics-events.ts';
import { buildContext, planRefusedReasons, runActions, RULE_ACTIONS_QUEUE, type BusEvent, type PlanRefusal, type RuleRow } from '../rules/engine.ts';
import { viewerOf } from '../access/guard.ts';
import { canSeeChat, type Viewer } from '../chat/chat-access.rules.ts';
import { writeRuleLogs } from '../rules/rules.ts';
import type { Action, ActionOutcome, RuleLog, TriggerType } from '../rules/rule.schemas.ts';
import { orgSlaPolicies, pauseSlaPolicy, slaAutomationActor, SLA_BREACH_TTL_DAYS, type SlaPolicyRow } from './sla.ts';
import { policyFor, slaTransition, SLA_TARGET_LABEL, type ChatSla, type SlaEvent, type SlaTimer } from './sla.rules.ts';
import type { SlaTarget } from './sla.schemas.ts';

/**
 * The SLA engine (issue 17 §6), fed by the rules consumer (same subscription: message.received,
 * message.sent, chat.updated) and woken by the scheduler port on the rule-actions queue.
 *
 * - `handleSlaEvent`: a customer message starts (or continues) the chat's SLA, a team reply meets
 *   the response clocks, a close meets the resolution (shared/sla/sla.rules.ts slaTransition). The
 *   chat row's `sla` is written with updateChatRow (a `chat.updated` with `changes: ['sla']`, so
 *   lists and threads update live); each new clock arms two wake-ups (near breach, breach) named
 *   after the clock (its started_at), and met clocks' wake-ups are cancelled.
 * - `handleSlaWakeup`: checked on fire — a wake-up whose clock was met, replaced or ended is moot
 *   and ignored. A breach is recorded once (the breach item's key is the clock's identity), counted
 *   once in analytics (event id = the clock's identity), its actions run once (the rules' action
 *   receipts: key prefix = the clock's identity + phase), and then marked on the chat; each step is
 *   idempotent, so a redelivered or retried wake-up repeats nothing.
 * Messages sent by a rule's action (causation names a rule) do not count as a response.
 * Times epoch **ms**.
 */

export interface SlaWakeup {
  kind: 'sla';
  org_id: string;
  chat_id: string;
  target: SlaTarget;
  phase: 'near' | 'breach';
  /** the clock's identity */
  started_at: number;
  policy_id: string;
  /** epoch ms it was armed for (the clock's near or due time then; a resume after a snooze moves them). Absent on wake-ups armed before pauses existed. */
  at?: number;
}

const timerName = (orgId: string, chatId: string, t: SlaTimer) => scheduleName('sla', orgId, chatId, t.target, t.phase, String(t.started_at));

/** The SLA event a bus event is, if any. */
export function slaEventOf(e: BusEvent): SlaEvent | null {
  const p = e.detail.properties;
  const occurred = e.detail.metadata.occurred_at ? Date.parse(e.detail.metadata.occurred_at) : Date.now();
  switch (e['detail-type']) {
    case 'message.received': {
      const m = p.message as { from_me?: boolean; message_type?: string; timestamp?: number } | undefined;
      if (!m || m.from_me || ['reaction', 'system', 'revoked', 'e2e_notification', 'notification_template'].includes(String(m.message_type))) return null;
      return { kind: 'customer_message', at: Number(m.timestamp) || occurred };
    }
    case 'message.sent': {
      const m = p.message as { is_private_note?: boolean; message_type?: string; timestamp?: number } | undefined;
      if (!m || m.is_private_note || m.message_type === 'reaction') return null;
      // an automated reply (a rule's action) is not a response by the team
      if (e.detail.metadata.causation?.rule_ids?.length) return null;
      return { kind: 'team_message', at: Number(m.timestamp) || occurred };
    }
    case 'chat.updated': {
      const changes = (p.changes as string[] | undefined) ?? [];
      const chat = p.chat as { closed_at?: number | null; snooze_metadata?: { snooze_until?: number; snoozed_at?: number | null } | null } | undefined;
      if (changes.includes('closed_at') && chat?.closed_at) return { kind: 'closed', at: chat.closed_at };
      // snoozed: the SLA pauses; woken (unsnoozed, or the snooze ran out): it resumes
      if (changes.includes('snooze_metadata')) return chat?.snooze_metadata?.snooze_until ? { kind: 'snoozed', at: chat.snooze_metadata.snoozed_at ?? occurred } : { kind: 'unsnoozed', at: occurred };
      return null;
    }
    default:
      return null;
  }
}

/**
 * Handle one bus event for the SLA (the rules consumer calls it for every record). Returns at
 * once, with no read, when the org has no policy and the chat snapshot carries no SLA.
 * @returns whether it changed the chat's SLA (false: a repeat would change nothing either)
 */
export async function handleSlaEvent(e: BusEvent): Promise<boolean> {
  const ev = slaEventOf(e);
  if (!ev) return false;
  const p = e.detail.properties;
  const orgId = p.org_id as string | undefined;
  const snap = (p.chat ?? {}) as { chat_id?: string; sla?: ChatSla | null };
  const chatId = snap.chat_id ?? (p.message as { chat_id?: string } | undefined)?.chat_id;
  if (!orgId || !chatId) return false;
  const policies = (await orgSlaPolicies(orgId)).filter((x) => x.enabled);
  if (!policies.length && !snap.sla) return false;
  if (!(await orgHasFeature(orgId, 'rules_engine'))) return false;
  const clock = await getOrgClock(orgId);
  const viewers = await policyViewers(orgId, policies, { eventId: e.detail.metadata.id, chatId, trigger: e['detail-type'] as TriggerType });
  // a new clock only under a policy whose owner may see the chat (issue 42 §1); a paused policy's clock stops like a disabled one's
  const usable = (row: Record<string, unknown>) => policies.filter((x) => {
    const v = viewers.get(x.policy_id);
    return !!v && canSeeChat(row as { chat_access?: Record<string, boolean> | null }, v);
  });
  let result: ReturnType<typeof slaTransition> | null = null;
  await updateChatRow(
    orgId,
    chatId,
    (row) => {
      const sla = (row.sla as ChatSla | null | undefined) ?? null;
      const active = sla && !sla.ended_at ? sla : null;
      const policy = active ? (policies.find((x) => x.policy_id === active.policy_id && viewers.get(x.policy_id)) ?? null) : policyFor(usable(row as Record<string, unknown>), row as { label_ids?: string[]; phone_id?: string });
      result = slaTransition(sla, ev, policy, clock);
      return result.sla ? ({ ...row, sla: result.sla } as ChatRow) : null;
    },
    undefined,
    (_b, after) => [{ name: 'chat.updated', properties: { org_id: orgId, chat: toChatWire(after), changes: ['sla'] }, actor: 'system' }],
  );
  const r = result as ReturnType<typeof slaTransition> | null;
  if (!r?.sla) return false;
  const port = await schedulerPort();
  for (const t of r.arm) {
    const w: SlaWakeup = { kind: 'sla', org_id: orgId, chat_id: chatId, target: t.target, phase: t.phase, started_at: t.started_at, policy_id: r.sla.policy_id, at: t.at };
    await port.schedule({ name: timerName(orgId, chatId, t), at: t.at, queue: RULE_ACTIONS_QUEUE, body: JSON.stringify(w) });
  }
  for (const t of r.moot) await port.cancel(timerName(orgId, chatId, t)).catch((err) => log('warn', 'sla.cancel_failed', { error: String(err) }));
  return true;
}

const breachKey = (w: SlaWakeup) => `${w.chat_id}|${w.target}|${w.started_at}`;

/** The automation identity of a policy as the rule actions see it (actions, receipts, log). */
function policyRule(policy: SlaPolicyRow, actions: Action[]): RuleRow {
  return {
    org_id: policy.org_id,
    rule_id: `sla:${policy.policy_id}`,
    name: `SLA: ${policy.name}`,
    trigger: { type: 'no_reply', minutes: 1 },
    conditions: { match: 'all', items: [] },
    actions,
    enabled: true,
    version: 1,
    created_by: policy.created_by,
    created_at: policy.created_at,
    updated_by: policy.updated_by,
    updated_at: policy.updated_at,
    // issue 42 §1: the policy's actions act with its owner's rights (rules/engine.ts ruleActor)
    owner: policy.owner ?? policy.created_by,
    ...(policy.owner_role ? { owner_role: policy.owner_role } : {}),
  };
}

/**
 * The SLA log row (the rules log, rule id `sla:<policy>`) of a policy paused because its owner lost
 * the rights it acts with (issue 42 §1): what the /rules Log tab shows next to the SLA tab's reason.
 */
function pausedLogRow(policy: SlaPolicyRow, problem: string, at: { eventId: string; chatId: string | null; trigger: TriggerType }, now: number): RuleLog {
  return { log_id: ulid(now), rule_id: `sla:${policy.policy_id}`, rule_name: `SLA: ${policy.name}`, rule_version: 1, trigger: at.trigger, event_id: at.eventId, chat_id: at.chatId, outcome: 'skipped', reasons: [`policy paused: ${problem}`], actions: [], at: now, latency_ms: null };
}

/**
 * Pause a policy whose owner may no longer act (sla.ts pauseSlaPolicy) and, when this call paused
 * it, say so in the SLA log (once: a process that finds it already paused writes nothing).
 */
async function pauseWithLog(policy: SlaPolicyRow, problem: string, at: { eventId: string; chatId: string | null; trigger: TriggerType }, now = Date.now()): Promise<void> {
  if (await pauseSlaPolicy(policy, problem, now)) await writeRuleLogs(policy.org_id, [pausedLogRow(policy, problem, at, now)]);
}

/**
 * Who each policy acts for (issue 42 §1), by policy id: the owner as the access guard sees them
 * (null: the owner may not act now — removed, demoted, lost the rules permission; the policy is
 * then paused with the reason, like a rule). A policy starts clocks only on chats its owner may see.
 */
async function policyViewers(orgId: string, policies: SlaPolicyRow[], at: { eventId: string; chatId: string | null; trigger: TriggerType }): Promise<Map<string, Viewer | null>> {
  const out = new Map<string, Viewer | null>();
  await Promise.all(
    policies.map(async (p) => {
      const { actor, problem } = await slaAutomationActor(p);
      if (problem) await pauseWithLog(p, problem, at);
      out.set(p.policy_id, actor ? viewerOf(actor) : null);
    }),
  );
  return out;
}

/**
 * Record in the SLA log (the rules log, rule id `sla:<policy>`) that the entitlement gate refused a
 * near-breach or breach wake-up (issue 42 §2: after an end nothing is recorded or run). The
 * policy's name from the per-process cache; nothing when the policy is gone.
 * @param now epoch ms
 */
export async function logRefusedSlaWakeup(w: SlaWakeup, refusal: PlanRefusal, now = Date.now()): Promise<void> {
  const policy = (await orgSlaPolicies(w.org_id)).find((p) => p.policy_id === w.policy_id);
  if (!policy) return;
  const row: RuleLog = { log_id: ulid(now), rule_id: `sla:${policy.policy_id}`, rule_name: `SLA: ${policy.name}`, rule_version: 1, trigger: (w.phase === 'near' ? 'sla.near_breach' : 'sla.breach') as TriggerType, event_id: `sla#${breachKey(w)}#${w.phase}`, chat_id: w.chat_id, outcome: 'skipped', reasons: planRefusedReasons(refusal), actions: [], at: now, latency_ms: null };
  await writeRuleLogs(w.org_id, [row]);
}

/**
 * A near-breach or breach wake-up (rule-actions queue). Moot wake-ups (clock met, replaced, ended,
 * already handled; the policy deleted or disabled; the plan lost the rules engine) are ignored.
 * @throws an unexpected action failure (the queue retries; done steps are skipped by their receipts)
 */
export async function handleSlaWakeup(w: SlaWakeup, now = Date.now()): Promise<void> {
  const chat = (await db().entities.chat.get({ org_id: w.org_id, chat_id: w.chat_id }).go({ consistent: true })).data as ChatRow | null;
  const sla = (chat?.sla as ChatSla | null | undefined) ?? null;
  const c = sla?.[w.target];
  // paused (the chat is snoozed): moot, the resume arms it again; armed for a time the resume moved (its cancel failed): moot too
  const movedSince = !!c && w.at !== undefined && w.at !== (w.phase === 'near' ? c.near_at : c.due_at);
  const stale = !chat || !sla || sla.ended_at || sla.paused_at != null || !c || c.started_at !== w.started_at || c.met_at !== null || (w.phase === 'near' ? c.near_done : c.breached_at !== null) || movedSince;
  if (stale) return log('info', 'sla.wakeup_moot', { chat_id: w.chat_id, target: w.target, phase: w.phase });
  if (!(await orgHasFeature(w.org_id, 'rules_engine'))) return;
  const policy = (await orgSlaPolicies(w.org_id, true)).find((x) => x.policy_id === sla.policy_id && x.enabled);
  if (!policy) return log('info', 'sla.wakeup_no_policy', { chat_id: w.chat_id, policy_id: sla.policy_id });
  const key = breachKey(w);
  const eventId = `sla#${key}#${w.phase}`;
  // issue 42 §1: an owner who lost the rights the policy acts with pauses it (nothing is recorded or run)
  const { problem } = await slaAutomationActor(policy);
  if (problem) return pauseWithLog(policy, problem, { eventId, chatId: w.chat_id, trigger: (w.phase === 'near' ? 'sla.near_breach' : 'sla.breach') as TriggerType }, now);
  if (w.phase === 'breach') {
    // the report row and the analytics count first (both idempotent by the clock's identity), then actions, then the chat's mark
    await db()
      .entities.slaBreach.put({
        org_id: w.org_id,
        breach_id: `${String(c.due_at).padStart(15, '0')}|${key}`,
        policy_id: policy.policy_id,
        policy_name: policy.name,
        target: w.target,
        chat_id: w.chat_id,
        ...(chat.chat_name ? { chat_name: chat.chat_name } : {}),
        started_at: c.started_at,
        due_at: c.due_at,
        breached_at: Math.max(now, c.due_at),
        ...(chat.assigned_to ? { assignee: chat.assigned_to } : {}),
        phone_id: chat.phone_id,
        label_ids: chat.label_ids ?? [],
        expires_at: Math.floor(now / 1000) + SLA_BREACH_TTL_DAYS * 86_400,
      })
      .go();
    await applyAnalyticsInput(w.org_id, eventId, { kind: 'sla_breached', at: c.due_at, chat: chatFactsOf(chat as unknown as Record<string, unknown>) });
  }
  const actions = (w.phase === 'near' ? policy.near_breach_actions : policy.breach_actions) as Action[];
  const rule = policyRule(policy, actions);
  const trigger = (w.phase === 'near' ? 'sla.near_breach' : 'sla.breach') as TriggerType;
  let outcomes: ActionOutcome[] = [];
  let retry: Error | undefined;
  if (actions.length) {
    const event: BusEvent = { 'detail-type': 'sla.wakeup', detail: { properties: { org_id: w.org_id, chat: chat as unknown as Record<string, unknown> }, metadata: { id: eventId } } };
    const b = await buildContext(w.org_id, event, w.chat_id, false, now);
    const r = await runActions({ orgId: w.org_id, rule, chatId: w.chat_id, messageUniqueId: b.messageUniqueId, vars: { ...b.vars, rule: { name: rule.name }, sla: { target: SLA_TARGET_LABEL[w.target], due_at: new Date(c.due_at).toISOString(), policy: policy.name } }, keyPrefix: `sla|${key}|${w.phase}`, eventId, trigger });
    outcomes = r.outcomes;
    retry = r.retry;
  }
  const failed = outcomes.some((o) => o.status === 'failed');
  const logRow: RuleLog = {
    log_id: ulid(now),
    rule_id: rule.rule_id,
    rule_name: rule.name,
    rule_version: 1,
    trigger,
    event_id: eventId,
    chat_id: w.chat_id,
    outcome: failed ? (outcomes.some((o) => o.status === 'done') ? 'partial' : 'failed') : 'matched',
    reasons: [`${SLA_TARGET_LABEL[w.target]} ${w.phase === 'near' ? 'near its breach' : 'breached'}: due ${new Date(c.due_at).toISOString()}`],
    actions: outcomes,
    at: now,
    latency_ms: null,
  };
  await writeRuleLogs(w.org_id, [logRow]);
  if (retry) throw retry;
  await updateChatRow(
    w.org_id,
    w.chat_id,
    (row) => {
      const cur = (row.sla as ChatSla | null | undefined) ?? null;
      const cc = cur?.[w.target];
      if (!cur || !cc || cc.started_at !== w.started_at || cc.met_at !== null) return null;
      if (w.phase === 'near' ? cc.near_done : cc.breached_at !== null) return null;
      const next = w.phase === 'near' ? { ...cc, near_done: true } : { ...cc, near_done: true, breached_at: Math.max(now, cc.due_at) };
      return { ...row, sla: { ...cur, [w.target]: next } } as ChatRow;
    },
    undefined,
    (_b, after) => [{ name: 'chat.updated', properties: { org_id: w.org_id, chat: toChatWire(after), changes: ['sla'] }, actor: 'system' }],
  );
}
