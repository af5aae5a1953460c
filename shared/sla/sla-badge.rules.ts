import type { SlaTarget } from './sla.schemas.ts';
import type { ChatSla, SlaClock } from './sla.rules.ts';

/**
 * The SLA badge of a chat (issue 17 §6), pure and free of imports with code: the /chats list and
 * the thread header use it in the entry bundle. Times epoch **ms**.
 */

const running = (c: SlaClock | null | undefined): c is SlaClock => !!c && c.met_at === null;

/** What the chat list row and the thread header show. */
export interface SlaBadge {
  /** 'paused': the chat is snoozed, its clocks stand still (due_at is the time before the pause) */
  state: 'ok' | 'near' | 'breached' | 'paused';
  target: SlaTarget;
  /** epoch ms the shown target is (or was) due */
  due_at: number;
}

/**
 * The badge of a chat's SLA at `now`: a breached running clock first (the earliest due), else
 * the running clock due soonest ('near' once past its near time); null when nothing runs (no SLA,
 * ended, or every clock met). A clock whose breach wake-up has not fired yet but is past due
 * shows breached already. A paused SLA (the chat snoozed) is 'paused' unless a clock already breached.
 */
export function slaBadge(sla: ChatSla | null | undefined, now: number): SlaBadge | null {
  if (!sla || sla.ended_at) return null;
  const clocks = (['first_response', 'next_response', 'resolution'] as const).flatMap((t) => (running(sla[t]) ? [{ t, c: sla[t]! }] : []));
  if (!clocks.length) return null;
  if (sla.paused_at != null) {
    // snoozed: a breach that already happened still shows; otherwise the clocks stand still
    const done = clocks.filter(({ c }) => c.breached_at !== null).sort((a, b) => a.c.due_at - b.c.due_at);
    if (done.length) return { state: 'breached', target: done[0].t, due_at: done[0].c.due_at };
    const first = clocks.sort((a, b) => a.c.due_at - b.c.due_at)[0];
    return { state: 'paused', target: first.t, due_at: first.c.due_at };
  }
  const breached = clocks.filter(({ c }) => c.breached_at !== null || c.due_at <= now).sort((a, b) => a.c.due_at - b.c.due_at);
  if (breached.length) return { state: 'breached', target: breached[0].t, due_at: breached[0].c.due_at };
  const soonest = clocks.sort((a, b) => a.c.due_at - b.c.due_at)[0];
  const near = soonest.c.near_done || (soonest.c.near_at !== null && soonest.c.near_at <= now);
  return { state: near ? 'near' : 'ok', target: soonest.t, due_at: soonest.c.due_at };
}

export const SLA_TARGET_LABEL: Record<SlaTarget, string> = { first_response: 'First response', next_response: 'Next response', resolution: 'Resolution' };
