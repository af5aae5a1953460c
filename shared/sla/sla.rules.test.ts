import { describe, expect, it } from 'vitest';
import { DEFAULT_ORG_CLOCK, businessMsBetween } from '../org/business-hours.rules.ts';
import { policyFor, slaBadge, slaTransition, startClock } from './sla.rules.ts';

const MIN = 60_000;
const policy = { policy_id: 'sla_1', name: 'Gold', targets: { first_response_minutes: 60, next_response_minutes: 30, resolution_minutes: 480 }, business_hours: true, near_breach_percent: 80 };
const monday10 = Date.UTC(2026, 10, 23, 10, 0); // Monday 10:00 UTC (default clock: UTC, Mon–Fri 09–17)

describe('SLA clocks (issue 17 §6)', () => {
  it('a customer message starts the first-response and resolution clocks, in business minutes, with near-breach wake-ups', () => {
    const r = slaTransition(null, { kind: 'customer_message', at: monday10 }, policy, DEFAULT_ORG_CLOCK);
    expect(r.sla?.first_response).toMatchObject({ started_at: monday10, due_at: monday10 + 60 * MIN, near_at: monday10 + 48 * MIN, met_at: null });
    // 480 business minutes from Monday 10:00 = Tuesday 10:00 (17:00 closes Monday after 7 h)
    expect(r.sla?.resolution?.due_at).toBe(Date.UTC(2026, 10, 24, 10, 0));
    expect(businessMsBetween(DEFAULT_ORG_CLOCK, monday10, r.sla!.resolution!.due_at)).toBe(480 * MIN);
    expect(r.arm.map((t) => `${t.target}:${t.phase}`)).toEqual(['first_response:near', 'first_response:breach', 'resolution:near', 'resolution:breach']);
    expect(r.sla?.next_response).toBeNull();
  });

  it('Friday 16:30 + 60 business minutes is due Monday 09:30; calendar when the policy says so', () => {
    const fri = Date.UTC(2026, 10, 27, 16, 30);
    expect(startClock(policy, 'first_response', fri, DEFAULT_ORG_CLOCK)?.due_at).toBe(Date.UTC(2026, 10, 30, 9, 30));
    expect(startClock({ ...policy, business_hours: false }, 'first_response', fri, DEFAULT_ORG_CLOCK)?.due_at).toBe(fri + 60 * MIN);
  });

  it('a team reply meets the first response; the next customer message starts a next-response clock; only the first unanswered one counts', () => {
    const s1 = slaTransition(null, { kind: 'customer_message', at: monday10 }, policy, DEFAULT_ORG_CLOCK).sla!;
    const again = slaTransition(s1, { kind: 'customer_message', at: monday10 + MIN }, policy, DEFAULT_ORG_CLOCK);
    expect(again.sla).toBeNull();
    const s2 = slaTransition(s1, { kind: 'team_message', at: monday10 + 5 * MIN }, policy, DEFAULT_ORG_CLOCK);
    expect(s2.sla?.first_response?.met_at).toBe(monday10 + 5 * MIN);
    expect(s2.moot.map((t) => `${t.target}:${t.phase}`)).toEqual(['first_response:near', 'first_response:breach']);
    const s3 = slaTransition(s2.sla, { kind: 'customer_message', at: monday10 + 20 * MIN }, policy, DEFAULT_ORG_CLOCK);
    expect(s3.sla?.next_response).toMatchObject({ started_at: monday10 + 20 * MIN, due_at: monday10 + 50 * MIN });
    expect(slaTransition(s3.sla, { kind: 'customer_message', at: monday10 + 25 * MIN }, policy, DEFAULT_ORG_CLOCK).sla).toBeNull();
    // a late (redelivered) customer message older than the reply starts nothing
    expect(slaTransition(s2.sla, { kind: 'customer_message', at: monday10 + 2 * MIN }, policy, DEFAULT_ORG_CLOCK).sla).toBeNull();
  });

  it('a close meets the resolution and ends the SLA; the next customer message starts a new one', () => {
    const s1 = slaTransition(null, { kind: 'customer_message', at: monday10 }, policy, DEFAULT_ORG_CLOCK).sla!;
    const closed = slaTransition(s1, { kind: 'closed', at: monday10 + 90 * MIN }, policy, DEFAULT_ORG_CLOCK);
    expect(closed.sla?.ended_at).toBe(monday10 + 90 * MIN);
    expect(closed.sla?.resolution?.met_at).toBe(monday10 + 90 * MIN);
    expect(closed.moot).toHaveLength(4);
    expect(slaBadge(closed.sla, monday10 + 100 * MIN)).toBeNull();
    const fresh = slaTransition(closed.sla, { kind: 'customer_message', at: monday10 + 120 * MIN }, policy, DEFAULT_ORG_CLOCK);
    expect(fresh.sla?.first_response?.started_at).toBe(monday10 + 120 * MIN);
    expect(fresh.sla?.ended_at).toBeNull();
  });

  it('snoozing pauses the clocks (wake-ups moot); waking moves due and near times by the paused business time and arms them again', () => {
    const s1 = slaTransition(null, { kind: 'customer_message', at: monday10 }, policy, DEFAULT_ORG_CLOCK).sla!;
    expect(s1.business_hours).toBe(true);
    const paused = slaTransition(s1, { kind: 'snoozed', at: monday10 + 10 * MIN }, policy, DEFAULT_ORG_CLOCK);
    expect(paused.sla?.paused_at).toBe(monday10 + 10 * MIN);
    expect(paused.moot.map((t) => `${t.target}:${t.phase}`)).toEqual(['first_response:near', 'first_response:breach', 'resolution:near', 'resolution:breach']);
    expect(paused.arm).toEqual([]);
    expect(slaBadge(paused.sla, monday10 + 200 * MIN)).toMatchObject({ state: 'paused', target: 'first_response' });
    // snoozed again while paused: nothing changes
    expect(slaTransition(paused.sla, { kind: 'snoozed', at: monday10 + 20 * MIN }, policy, DEFAULT_ORG_CLOCK).sla).toBeNull();
    // woken Tuesday 09:30: the pause counted Monday 10:10-17:00 + Tuesday 09:00-09:30 = 440 business minutes
    const tue0930 = Date.UTC(2026, 10, 24, 9, 30);
    const woke = slaTransition(paused.sla, { kind: 'unsnoozed', at: tue0930 }, policy, DEFAULT_ORG_CLOCK);
    expect(woke.sla?.paused_at).toBeNull();
    // the first response had 50 of its 60 minutes left, its near time 38 of 48
    expect(woke.sla?.first_response).toMatchObject({ started_at: monday10, due_at: tue0930 + 50 * MIN, near_at: tue0930 + 38 * MIN, met_at: null });
    expect(businessMsBetween(DEFAULT_ORG_CLOCK, monday10, woke.sla!.resolution!.due_at) - businessMsBetween(DEFAULT_ORG_CLOCK, monday10 + 10 * MIN, tue0930)).toBe(480 * MIN);
    expect(woke.arm.map((t) => `${t.target}:${t.phase}:${t.at}`)).toEqual([
      `first_response:near:${tue0930 + 38 * MIN}`,
      `first_response:breach:${tue0930 + 50 * MIN}`,
      `resolution:near:${woke.sla!.resolution!.near_at}`,
      `resolution:breach:${woke.sla!.resolution!.due_at}`,
    ]);
    expect(slaBadge(woke.sla, tue0930)).toMatchObject({ state: 'ok', due_at: tue0930 + 50 * MIN });
  });

  it('calendar policies resume by the calendar time paused; a customer message wakes a paused SLA before it counts; met clocks do not move', () => {
    const cal = { ...policy, business_hours: false };
    const s1 = slaTransition(null, { kind: 'customer_message', at: monday10 }, cal, DEFAULT_ORG_CLOCK).sla!;
    const replied = slaTransition(s1, { kind: 'team_message', at: monday10 + 5 * MIN }, cal, DEFAULT_ORG_CLOCK).sla!;
    const paused = slaTransition(replied, { kind: 'snoozed', at: monday10 + 10 * MIN }, cal, DEFAULT_ORG_CLOCK).sla!;
    // the customer writes 3 h later: the snooze ends, the resolution moves 3 h - 10 min later, and a next response starts
    const at = monday10 + 180 * MIN;
    const r = slaTransition(paused, { kind: 'customer_message', at }, cal, DEFAULT_ORG_CLOCK);
    expect(r.sla?.paused_at).toBeNull();
    expect(r.sla?.first_response).toEqual(replied.first_response);
    expect(r.sla?.resolution?.due_at).toBe(monday10 + 480 * MIN + 170 * MIN);
    expect(r.sla?.next_response).toMatchObject({ started_at: at, due_at: at + 30 * MIN });
    expect(r.arm.map((t) => `${t.target}:${t.phase}`)).toEqual(['resolution:near', 'resolution:breach', 'next_response:near', 'next_response:breach']);
    // unsnoozing a running SLA changes nothing
    expect(slaTransition(r.sla, { kind: 'unsnoozed', at: at + MIN }, cal, DEFAULT_ORG_CLOCK).sla).toBeNull();
  });

  it('a customer message stamped in the same second as the reply (WhatsApp timestamps are whole seconds) starts a next response; an older one does not', () => {
    const s1 = slaTransition(null, { kind: 'customer_message', at: monday10 }, policy, DEFAULT_ORG_CLOCK).sla!;
    const replyAt = monday10 + 5 * MIN + 730; // ms precision: our own send
    const replied = slaTransition(s1, { kind: 'team_message', at: replyAt }, policy, DEFAULT_ORG_CLOCK).sla!;
    const sameSecond = monday10 + 5 * MIN; // the Cloud API's s epoch, * 1000
    expect(slaTransition(replied, { kind: 'customer_message', at: sameSecond }, policy, DEFAULT_ORG_CLOCK).sla?.next_response).toMatchObject({ started_at: sameSecond });
    expect(slaTransition(replied, { kind: 'customer_message', at: sameSecond - 1000 }, policy, DEFAULT_ORG_CLOCK).sla).toBeNull();
  });

  it('no policy: nothing starts; the running SLA ignores a deleted policy for new clocks', () => {
    expect(slaTransition(null, { kind: 'customer_message', at: monday10 }, null, DEFAULT_ORG_CLOCK).sla).toBeNull();
    const s1 = slaTransition(null, { kind: 'customer_message', at: monday10 }, policy, DEFAULT_ORG_CLOCK).sla!;
    const s2 = slaTransition(s1, { kind: 'team_message', at: monday10 + MIN }, null, DEFAULT_ORG_CLOCK).sla!;
    expect(slaTransition(s2, { kind: 'customer_message', at: monday10 + 2 * MIN }, null, DEFAULT_ORG_CLOCK).sla).toBeNull();
  });

  it('the badge: ok, near after the near time, breached when past due, the soonest running clock', () => {
    const s1 = slaTransition(null, { kind: 'customer_message', at: monday10 }, policy, DEFAULT_ORG_CLOCK).sla!;
    expect(slaBadge(s1, monday10 + MIN)).toEqual({ state: 'ok', target: 'first_response', due_at: monday10 + 60 * MIN });
    expect(slaBadge(s1, monday10 + 50 * MIN)?.state).toBe('near');
    expect(slaBadge(s1, monday10 + 61 * MIN)).toEqual({ state: 'breached', target: 'first_response', due_at: monday10 + 60 * MIN });
    const met = slaTransition(s1, { kind: 'team_message', at: monday10 + 70 * MIN }, policy, DEFAULT_ORG_CLOCK).sla!;
    expect(slaBadge(met, monday10 + 71 * MIN)).toMatchObject({ state: 'ok', target: 'resolution' });
  });

  it('policyFor: the most specific matching enabled policy, then the oldest', () => {
    const all = { enabled: true, scope: { label_ids: [], phone_ids: [] }, created_at: 1, id: 'all' };
    const vip = { enabled: true, scope: { label_ids: ['vip'], phone_ids: [] }, created_at: 2, id: 'vip' };
    const vipSales = { enabled: true, scope: { label_ids: ['vip'], phone_ids: ['ph_sales'] }, created_at: 3, id: 'vip-sales' };
    const off = { enabled: false, scope: { label_ids: ['vip'], phone_ids: ['ph_sales'] }, created_at: 0, id: 'off' };
    const ps = [all, vip, vipSales, off];
    expect(policyFor(ps, { label_ids: ['vip'], phone_id: 'ph_sales' })?.id).toBe('vip-sales');
    expect(policyFor(ps, { label_ids: ['vip'], phone_id: 'ph_support' })?.id).toBe('vip');
    expect(policyFor(ps, { label_ids: [], phone_id: 'ph_sales' })?.id).toBe('all');
    expect(policyFor([vip], { label_ids: [] })).toBeNull();
  });
});
