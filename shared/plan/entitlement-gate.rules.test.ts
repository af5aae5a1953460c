import { describe, expect, it } from 'vitest';
import { FEATURES, type Feature } from './catalog.rules.ts';
import { broadcastCredits, effectivePlanId, entitlement, hasFeature, onTrial, trialBannerText, USES, type OrgPlanState, type Use } from './entitlements.rules.ts';

/**
 * The entitlement gate (issue 42) as a table: plan × subscription status × use. Each cell is the
 * expected answer: `ok`, or `<code>:<plan_needed>` of the refusal (402 for *_ended, 403 for
 * plan_feature). The rules are spec §4 Subscription (the ended screens) and §9 Plans (what Starter
 * lacks; Enterprise adds), and issue 42 (reading and exporting stay after an end; trial_ends_at honoured).
 */
const NOW = Date.UTC(2026, 10, 29, 12, 0, 0);
const D = 86_400_000;
const period = (days: number) => Math.floor((NOW + days * D) / 1000);
const paid = (plan_id: string, status: string, extra: Partial<OrgPlanState> = {}): OrgPlanState => ({ subscription_status: status, is_free_trial: false, is_enterprise: plan_id === 'enterprise', org_plan: { plan_id, current_period_end: period(30) }, ...extra });

const STATES: Record<string, OrgPlanState> = {
  starter: paid('starter', 'active'),
  pro: paid('pro', 'active'),
  enterprise: paid('enterprise', 'active'),
  trialing: { subscription_status: 'trialing', is_free_trial: true, trial_ends_at: NOW + 3 * D },
  'expired trial': { subscription_status: 'trialing', is_free_trial: true, trial_ends_at: NOW - 1 },
  'expired trial (exactly now)': { subscription_status: 'trialing', is_free_trial: true, trial_ends_at: NOW },
  past_due: paid('pro', 'past_due'),
  canceled: paid('pro', 'canceled'),
  ended: paid('pro', 'ended'),
  'starter canceled': paid('starter', 'canceled'),
  'trial canceled (never paid)': { subscription_status: 'canceled', is_free_trial: true, trial_ends_at: NOW + 3 * D },
  'enterprise past period end': paid('enterprise', 'active', { org_plan: { plan_id: 'enterprise', current_period_end: period(-1) } }),
};

const PRO: Feature[] = ['rule_based_ticketing', 'advanced_analytics', 'exports', 'ai_autoresponder', 'integrations', 'rules_engine', 'custom_api_webhooks'];
const ENTERPRISE_ONLY: Feature[] = ['custom_billing', 'contracts', 'priority_support', 'account_manager'];

/** Expected answers per state: read, write, export, open, Pro's features, Enterprise's own. */
type Row = { read: string; write: string; export: string; open: string; pro: string; ent: string };
const all = (v: string): Row => ({ read: v, write: v, export: v, open: v, pro: v, ent: v });
const EXPECTED: Record<string, Row> = {
  starter: { ...all('ok'), export: 'plan_feature:pro', pro: 'plan_feature:pro', ent: 'plan_feature:enterprise' },
  pro: { ...all('ok'), ent: 'plan_feature:enterprise' },
  enterprise: all('ok'),
  trialing: { ...all('ok'), ent: 'plan_feature:enterprise' },
  'expired trial': { read: 'ok', open: 'ok', export: 'ok', write: 'trial_ended:starter', pro: 'trial_ended:pro', ent: 'trial_ended:enterprise' },
  'expired trial (exactly now)': { read: 'ok', open: 'ok', export: 'ok', write: 'trial_ended:starter', pro: 'trial_ended:pro', ent: 'trial_ended:enterprise' },
  past_due: { ...all('ok'), ent: 'plan_feature:enterprise' },
  canceled: { read: 'ok', open: 'ok', export: 'ok', write: 'subscription_ended:pro', pro: 'subscription_ended:pro', ent: 'subscription_ended:enterprise' },
  ended: { read: 'ok', open: 'ok', export: 'ok', write: 'subscription_ended:pro', pro: 'subscription_ended:pro', ent: 'subscription_ended:enterprise' },
  'starter canceled': { read: 'ok', open: 'ok', export: 'plan_feature:pro', write: 'subscription_ended:starter', pro: 'subscription_ended:pro', ent: 'subscription_ended:enterprise' },
  'trial canceled (never paid)': { read: 'ok', open: 'ok', export: 'ok', write: 'subscription_ended:starter', pro: 'subscription_ended:pro', ent: 'subscription_ended:enterprise' },
  'enterprise past period end': { read: 'ok', open: 'ok', export: 'ok', write: 'subscription_ended:enterprise', pro: 'subscription_ended:enterprise', ent: 'subscription_ended:enterprise' },
};

const expectedFor = (row: Row, use: Use): string => {
  if (use === 'read' || use === 'write' || use === 'export' || use === 'open') return row[use];
  return PRO.includes(use) ? row.pro : row.ent;
};
const answer = (org: OrgPlanState, use: Use): string => {
  const d = entitlement(org, NOW, use);
  if (d.allowed) return 'ok';
  expect(d.status, `${d.code} status`).toBe(d.code === 'plan_feature' ? 403 : 402);
  expect(d.message.length).toBeGreaterThan(20);
  return `${d.code}:${d.plan_needed}`;
};

describe('entitlement: plan × status × use (issue 42; spec §4 Subscription, §9 Plans)', () => {
  it('covers every feature of the catalogue', () => {
    expect([...PRO, ...ENTERPRISE_ONLY].sort()).toEqual([...FEATURES].sort());
    expect(USES).toHaveLength(4 + FEATURES.length);
  });
  for (const [name, org] of Object.entries(STATES)) {
    it(`${name}`, () => {
      const got: Record<string, string> = {};
      const want: Record<string, string> = {};
      for (const use of USES) {
        got[use] = answer(org, use);
        want[use] = expectedFor(EXPECTED[name]!, use);
      }
      expect(got).toEqual(want);
    });
  }
});

describe('trial_ends_at is honoured (issue 42: an expired trial kept Pro)', () => {
  const expired = STATES['expired trial']!;
  it('an expired trial is not on trial, not Pro, and has none of the trial features', () => {
    expect(onTrial(expired, NOW)).toBe(false);
    expect(effectivePlanId(expired, NOW)).toBe('starter');
    for (const f of PRO) expect(hasFeature(expired, f, NOW), f).toBe(false);
    // the banner still knows it was a trial
    expect(trialBannerText(expired, NOW)).toBe('Your trial has ended');
  });
  it('a running trial is Pro', () => {
    expect(onTrial(STATES.trialing!, NOW)).toBe(true);
    expect(effectivePlanId(STATES.trialing!, NOW)).toBe('pro');
  });
  it('broadcast credits read 0 after an end, and 3,000 per licence while the service runs', () => {
    for (const s of ['canceled', 'ended', 'expired trial', 'enterprise past period end']) expect(broadcastCredits(STATES[s]!, NOW), s).toBe(0);
    expect(broadcastCredits({ ...STATES.pro!, licences: 3 }, NOW)).toBe(9000);
    expect(broadcastCredits({ ...STATES.past_due!, licences: 3 }, NOW)).toBe(9000);
  });
});
