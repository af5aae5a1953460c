import { dueAfter } from '../rules/business-time.rules.ts';
import { businessMsBetween, type OrgClock } from '../org/business-hours.rules.ts';
import type { SlaPolicy, SlaTarget } from './sla.schemas.ts';

/**
 * SLA clocks of a chat (issue 17 §6), pure. Times epoch **ms**.
 *
 * - A customer message on a chat with no running SLA (none yet, or the last one ended with a
 *   close) starts one under the first matching policy (`policyFor`): the first-response and the
 *   resolution clocks start.
 * - A team reply meets the first response (or the running next response).
 * - A customer message after the first response was met starts a next-response clock, unless
 *   one is already running (the first unanswered message counts).
 * - Closing the chat meets the resolution and ends the SLA (the next customer message starts a
 *   new one). Reopening does not restart it: the customer's next message does.
 * - Snoozing the chat pauses the SLA (`paused_at`; its wake-ups are cancelled); waking it (unsnooze,
 *   the snooze's end, or a customer message, which wakes a snoozed chat) resumes it: every running,
 *   not yet breached clock's due and near times move later by the paused time, counted as the
 *   clock counts (business minutes in the org's clock, or calendar), and are armed again.
 * Each running clock has a due time (`dueAfter`: business minutes in the org's clock, or
 * calendar) and, when the policy has a near-breach percent, a near time. The wake-ups that the
 * engine arms carry the clock's `started_at`, so a wake-up for a clock that was met or replaced
 * is recognised as moot when it fires.
 */

export interface SlaClock {
  started_at: number;
  due_at: number;
  /** near-breach time, or null when the policy has none */
  near_at: number | null;
  met_at: number | null;
  near_done: boolean;
  breached_at: number | null;
}

/** Chat.sla: the chat's SLA state (stored on the chat row, shown in the list and the thread). */
export interface ChatSla {
  policy_id: string;
  policy_name: string;
  first_response?: SlaClock | null;
  next_response?: SlaClock | null;
  resolution?: SlaClock | null;
  /** epoch ms the SLA ended (the chat was closed) */
  ended_at?: number | null;
  /** epoch ms the SLA was paused (the chat snoozed); null / absent = running */
  paused_at?: number | null;
  /** the policy's way of counting, kept from the start (a paused clock resumes with it): default true */
  business_hours?: boolean;
}

export type SlaEvent = { kind: 'customer_message' | 'team_message' | 'closed' | 'snoozed' | 'unsnoozed'; at: number };

/** A wake-up to arm: `phase` near or breach of one target's clock (identified by started_at). */
export interface SlaTimer {
  target: SlaTarget;
  phase: 'near' | 'breach';
  at: number;
  started_at: number;
}

type ChatFacts = { label_ids?: string[] | null; phone_id?: string | null };

/**
 * The policy for a chat: enabled ones whose scope matches (any of its labels; any of its numbers;
 * an empty list matches all), the most specific first (labels and numbers > one of them > none),
 * then the oldest.
 */
export function policyFor<P extends Pick<SlaPolicy, 'enabled' | 'scope' | 'created_at'>>(policies: P[], chat: ChatFacts): P | null {
  const labels = chat.label_ids ?? [];
  const fits = policies.filter(
    (p) => p.enabled && (!p.scope.label_ids.length || p.scope.label_ids.some((l) => labels.includes(l))) && (!p.scope.phone_ids.length || (!!chat.phone_id && p.scope.phone_ids.includes(chat.phone_id))),
  );
  const score = (p: P) => (p.scope.label_ids.length ? 1 : 0) + (p.scope.phone_ids.length ? 1 : 0);
  return fits.sort((a, b) => score(b) - score(a) || a.created_at - b.created_at)[0] ?? null;
}

const MINUTE = 60_000;
const minutesOf = (p: Pick<SlaPolicy, 'targets'>, t: SlaTarget): number | undefined =>
  t === 'first_response' ? p.targets.first_response_minutes : t === 'next_response' ? p.targets.next_response_minutes : p.targets.resolution_minutes;

/** A new clock for target `t` started at `at`, or null when the policy has no such target. */
export function startClock(p: Pick<SlaPolicy, 'targets' | 'business_hours' | 'near_breach_percent'>, t: SlaTarget, at: number, clock: OrgClock): SlaClock | null {
  const min = minutesOf(p, t);
  if (!min) return null;
  const due = dueAfter(clock, at, min * MINUTE, p.business_hours);
  const near = p.near_breach_percent ? dueAfter(clock, at, Math.round((min * MINUTE * p.near_breach_percent) / 100), p.business_hours) : null;
  return { started_at: at, due_at: due, near_at: near, met_at: null, near_done: false, breached_at: null };
}

const running = (c: SlaClock | null | undefined): c is SlaClock => !!c && c.met_at === null;
const timersOf = (t: SlaTarget, c: SlaClock | null): SlaTimer[] =>
  !c ? [] : [...(c.near_at !== null ? [{ target: t, phase: 'near' as const, at: c.near_at, started_at: c.started_at }] : []), { target: t, phase: 'breach' as const, at: c.due_at, started_at: c.started_at }];

const TARGETS = ['first_response', 'next_response', 'resolution'] as const;

/**
 * Resume a paused SLA at `at`: each running clock that has not breached gets its due (and, unless
 * done, its near) time moved later by the paused stretch `[paused_at, at]` as the clock counts it
 * (business or calendar). Nothing moves a time that had already passed when the pause began.
 * Met and breached clocks keep their times. @returns the SLA (not paused) and the wake-ups to arm
 */
export function resumeSla(active: ChatSla, at: number, clock: OrgClock): { sla: ChatSla; arm: SlaTimer[] } {
  const from = active.paused_at;
  if (from == null) return { sla: active, arm: [] };
  const business = active.business_hours !== false;
  const out: ChatSla = { ...active, paused_at: null };
  const arm: SlaTimer[] = [];
  const moved = (t: number, start: number) => {
    if (t <= start) return t; // already due before the pause
    const left = business ? businessMsBetween(clock, start, t) : t - start;
    return dueAfter(clock, Math.max(at, start), left, business);
  };
  for (const target of TARGETS) {
    const c = active[target];
    if (!running(c) || c.breached_at !== null) continue;
    const start = Math.max(from, c.started_at);
    const next: SlaClock = { ...c, due_at: moved(c.due_at, start), near_at: c.near_at === null || c.near_done ? c.near_at : moved(c.near_at, start) };
    out[target] = next;
    arm.push(...timersOf(target, next).filter((t) => t.phase === 'breach' || !next.near_done));
  }
  return { sla: out, arm };
}

/**
 * The chat's SLA after an event. `policy` is used only to start a new SLA (null: no policy fits,
 * nothing starts). Returns the new state (null when unchanged), the wake-ups to arm and the ones
 * made moot (to cancel; they would be ignored on fire anyway).
 */
export function slaTransition(
  sla: ChatSla | null | undefined,
  ev: SlaEvent,
  policy: (Pick<SlaPolicy, 'policy_id' | 'name' | 'targets' | 'business_hours' | 'near_breach_percent'>) | null,
  clock: OrgClock,
): { sla: ChatSla | null; arm: SlaTimer[]; moot: SlaTimer[] } {
  const none = { sla: null, arm: [], moot: [] };
  const current = sla && !sla.ended_at ? sla : null;
  if (ev.kind === 'snoozed') {
    if (!current || current.paused_at != null) return none;
    // paused: every running clock's wake-ups are moot until the chat wakes
    const moot = TARGETS.flatMap((t) => (running(current[t]) ? timersOf(t, current[t]!) : []));
    return { sla: { ...current, paused_at: ev.at }, arm: [], moot };
  }
  if (ev.kind === 'unsnoozed') {
    if (!current || current.paused_at == null) return none;
    const r = resumeSla(current, ev.at, clock);
    return { sla: r.sla, arm: r.arm, moot: [] };
  }
  // a customer message wakes a snoozed chat (ingest clears the snooze): the SLA resumes first
  const resumed = ev.kind === 'customer_message' && current?.paused_at != null ? resumeSla(current, ev.at, clock) : null;
  if (resumed) {
    const rest = slaTransition(resumed.sla, ev, policy, clock);
    return { sla: rest.sla ?? resumed.sla, arm: [...resumed.arm, ...rest.arm], moot: rest.moot };
  }
  const active = current;
  if (ev.kind === 'customer_message') {
    if (!active) {
      if (!policy) return none;
      const first = startClock(policy, 'first_response', ev.at, clock);
      const resolution = startClock(policy, 'resolution', ev.at, clock);
      if (!first && !resolution && !policy.targets.next_response_minutes) return none;
      // a policy with only a next-response target: the first message counts as the one waiting for the next response
      const next = !first && !resolution ? startClock(policy, 'next_response', ev.at, clock) : null;
      const out: ChatSla = { policy_id: policy.policy_id, policy_name: policy.name, first_response: first, next_response: next, resolution, ended_at: null, business_hours: policy.business_hours };
      return { sla: out, arm: [...timersOf('first_response', first), ...timersOf('next_response', next), ...timersOf('resolution', resolution)], moot: [] };
    }
    const lastReply = Math.max(active.first_response?.met_at ?? 0, active.next_response?.met_at ?? 0);
    // the first response is still running, or a next response already waits: the first unanswered message counts
    if (running(active.first_response) || running(active.next_response)) return none;
    // a message older than the last reply (a late or redelivered event) does not wait for a response.
    // WhatsApp stamps messages in whole seconds (Cloud API `timestamp`, s epoch): a message stamped in the
    // same second as the reply is counted as after it, so a quick follow-up is never dropped
    if (Math.floor(lastReply / 1000) * 1000 > ev.at) return none;
    // the policy was deleted or disabled since: keep the state, start nothing new
    if (!policy) return none;
    const next = startClock(policy, 'next_response', ev.at, clock);
    if (!next) return none;
    return { sla: { ...active, next_response: next }, arm: timersOf('next_response', next), moot: [] };
  }
  if (ev.kind === 'team_message') {
    if (!active) return none;
    const out: ChatSla = { ...active };
    const moot: SlaTimer[] = [];
    for (const t of ['first_response', 'next_response'] as const) {
      const c = active[t];
      // a reply older than the clock's message (a late event) does not answer it
      if (running(c) && c.started_at <= ev.at) {
        out[t] = { ...c, met_at: ev.at };
        moot.push(...timersOf(t, c));
      }
    }
    return moot.length ? { sla: out, arm: [], moot } : none;
  }
  // closed: the resolution is met and every clock stops
  if (!active) return none;
  const out: ChatSla = { ...active, ended_at: ev.at };
  const moot: SlaTimer[] = [];
  for (const t of ['first_response', 'next_response', 'resolution'] as const) {
    const c = active[t];
    if (running(c)) {
      if (t === 'resolution') out[t] = { ...c, met_at: ev.at };
      moot.push(...timersOf(t, c));
    }
  }
  return { sla: out, arm: [], moot };
}

export { slaBadge, SLA_TARGET_LABEL, type SlaBadge } from './sla-badge.rules.ts';
