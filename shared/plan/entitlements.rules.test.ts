import { describe, expect, it } from 'vitest';
import { CURRENCIES, FREQUENCY_SUFFIX, PLANS, TRIAL, formatPrice } from './catalog.rules.ts';
import {
  SERVICE_DOWN_MESSAGE,
  allPhonesDisconnected,
  applyBillingEvent,
  blockingScreen,
  broadcastCredits,
  canAddMember,
  canAddPhone,
  effectivePlanId,
  hasFeature,
  maintenanceState,
  memberLimit,
  missingFeatures,
  phoneCounter,
  phoneLimit,
  ruleLimit,
  screenBlocksPath,
  showGettingStarted,
  showOverdueBanner,
  subscriptionStatus,
  trialBannerText,
  type OrgPlanState,
} from './entitlements.rules.ts';

const NOW = Date.UTC(2026, 10, 25, 12, 0, 0);
const H = 3_600_000;
const D = 24 * H;
const active = (plan_id: string, extra: Partial<OrgPlanState> = {}): OrgPlanState => ({ org_id: 'o1', subscription_status: 'active', is_free_trial: false, org_plan: { plan_id, current_period_end: NOW / 1000 + 30 * 86400 }, ...extra });
const trial = (endsIn: number): OrgPlanState => ({ org_id: 'o1', subscription_status: 'trialing', is_free_trial: true, trial_ends_at: NOW + endsIn });

describe('catalogue (spec §9)', () => {
  it('ranks Starter 1, Pro 2, Enterprise 3', () => {
    expect([PLANS.starter.rank, PLANS.pro.rank, PLANS.enterprise.rank]).toEqual([1, 2, 3]);
  });
  it('prices every list plan in INR, BRL and USD, with /mo and /wk suffixes', () => {
    for (const p of [PLANS.starter, PLANS.pro]) for (const f of ['yearly', 'monthly', 'weekly'] as const) for (const c of CURRENCIES) expect(p.prices[f]?.[c]).toBeGreaterThan(0);
    expect(FREQUENCY_SUFFIX).toMatchObject({ monthly: '/mo', yearly: '/mo', weekly: '/wk' });
    expect(formatPrice(4900, 'USD', 'monthly')).toBe('$49/mo');
    expect(formatPrice(39_00 * 12, 'USD', 'yearly')).toBe('$39/mo');
    expect(formatPrice(1_099_00, 'INR', 'weekly')).toBe('₹1,099/wk');
    expect(formatPrice(0, 'BRL', 'custom')).toBe('Custom');
  });
  it('offers phone add-ons on Pro, user add-ons on Starter and Pro', () => {
    expect(PLANS.pro.addons).toEqual({ phones: true, users: true });
    expect(PLANS.starter.addons).toEqual({ phones: false, users: true });
  });
});

describe('features per tier (spec §9)', () => {
  const starterLacks = ['rule_based_ticketing', 'advanced_analytics', 'exports', 'ai_autoresponder', 'integrations', 'rules_engine', 'custom_api_webhooks'] as const;
  it('Starter lacks each listed feature; Pro and Enterprise have them', () => {
    for (const f of starterLacks) {
      expect(hasFeature(active('starter'), f), f).toBe(false);
      expect(hasFeature(active('pro'), f), f).toBe(true);
      expect(hasFeature(active('enterprise', { is_enterprise: true }), f), f).toBe(true);
    }
  });
  it('Enterprise adds custom billing, contracts, priority support, account manager', () => {
    for (const f of ['custom_billing', 'contracts', 'priority_support', 'account_manager'] as const) {
      expect(hasFeature(active('enterprise'), f)).toBe(true);
      expect(hasFeature(active('pro'), f)).toBe(false);
    }
    expect(missingFeatures('pro')).toEqual(['custom_billing', 'contracts', 'priority_support', 'account_manager']);
  });
  it('a trial has Pro features; an unknown plan reads as Starter', () => {
    expect(effectivePlanId(trial(5 * D), NOW)).toBe('pro');
    expect(hasFeature(trial(5 * D), 'rules_engine', NOW)).toBe(true);
    expect(effectivePlanId({ subscription_status: 'active', org_plan: { plan_id: 'gold' } })).toBe('starter');
  });
});

describe('limits', () => {
  it('phone limit: plan phones plus add-ons (Pro), no add-ons on Starter, the trial allowance', () => {
    expect(phoneLimit(active('starter', { addons: { phones: 4 } }))).toBe(PLANS.starter.phones);
    expect(phoneLimit(active('pro', { addons: { phones: 2 } }))).toBe(PLANS.pro.phones + 2);
    expect(phoneLimit(trial(D))).toBe(TRIAL.phones);
  });
  it('member limit: licences plus user add-ons', () => {
    expect(memberLimit(active('pro', { licences: 8, addons: { users: 2 } }))).toBe(10);
    expect(memberLimit(active('starter'))).toBe(PLANS.starter.users);
    expect(memberLimit(trial(D))).toBe(TRIAL.users);
  });
  it('broadcast credits: 3,000 per licence per month', () => {
    expect(broadcastCredits(active('pro', { licences: 4 }))).toBe(12_000);
    expect(broadcastCredits(active('starter', { licences: 1 }))).toBe(3_000);
  });
  it('rules: 2 per licence on Pro and Enterprise, none on Starter', () => {
    expect(ruleLimit(active('pro', { licences: 3 }))).toBe(6);
    expect(ruleLimit(active('enterprise', { licences: 10 }))).toBe(20);
    expect(ruleLimit(active('starter', { licences: 3 }))).toBe(0);
  });
  it('phone counter: connected over max(phone count, plan limit)', () => {
    expect(phoneCounter(1, 2, 3).text).toBe('1/3');
    expect(phoneCounter(4, 5, 3).text).toBe('4/5');
  });
  it('canAddPhone / canAddMember refuse at the limit with the limit in the message', () => {
    expect(canAddPhone(active('starter'), 0)).toEqual({ ok: true });
    const r = canAddPhone(active('starter'), 1);
    expect(r.ok).toBe(false);
    expect(!r.ok && r.message).toContain('Your plan allows 1 phone.');
    const m = canAddMember(active('pro', { licences: 2 }), 2);
    expect(!m.ok && m.message).toContain('Your plan allows 2 team members.');
    expect(canAddMember(active('pro', { licences: 2 }), 1).ok).toBe(true);
  });
});

describe('lifecycle (spec §4)', () => {
  it('trial banner: hours under a day, days rounded up, or trial has ended', () => {
    expect(trialBannerText(trial(5 * H + 60_000), NOW)).toBe('6 hours left in your trial');
    expect(trialBannerText(trial(30 * 60_000), NOW)).toBe('1 hour left in your trial');
    expect(trialBannerText(trial(D + 1), NOW)).toBe('2 days left in your trial');
    expect(trialBannerText(trial(14 * D), NOW)).toBe('14 days left in your trial');
    expect(trialBannerText(trial(-1), NOW)).toBe('Your trial has ended');
    expect(trialBannerText(active('pro'), NOW)).toBeNull();
  });
  it('old rows without a status: trialing with a trial end, else active', () => {
    expect(subscriptionStatus({ is_free_trial: true, trial_ends_at: NOW })).toBe('trialing');
    expect(subscriptionStatus({ is_free_trial: true })).toBe('active');
  });
  it('trial ended, enterprise ended and inactive each block', () => {
    expect(blockingScreen(trial(-1), NOW)).toBe('trial_ended');
    expect(blockingScreen(trial(H), NOW)).toBeNull();
    expect(blockingScreen(active('enterprise', { is_enterprise: true, org_plan: { plan_id: 'enterprise', current_period_end: NOW / 1000 - 1 } }), NOW)).toBe('enterprise_ended');
    expect(blockingScreen(active('enterprise', { is_enterprise: true, subscription_status: 'ended' }), NOW)).toBe('enterprise_ended');
    expect(blockingScreen(active('pro', { subscription_status: 'canceled' }), NOW)).toBe('inactive');
    expect(blockingScreen(active('pro', { subscription_status: 'past_due' }), NOW)).toBeNull();
    expect(blockingScreen(active('pro'), NOW)).toBeNull();
  });
  it('inactive blocks every page except settings; the ended screens leave the plans pages', () => {
    expect(screenBlocksPath('inactive', '/chats')).toBe(true);
    expect(screenBlocksPath('inactive', '/settings/team')).toBe(false);
    expect(screenBlocksPath('trial_ended', '/settings/team')).toBe(true);
    expect(screenBlocksPath('trial_ended', '/settings/plans/select')).toBe(false);
  });
  it('unpaid shows the overdue banner', () => {
    expect(showOverdueBanner(active('pro', { subscription_status: 'past_due' }))).toBe(true);
    expect(showOverdueBanner(active('pro'))).toBe(false);
  });
  it('Getting Started until a first phone; the disconnected banner when every connected-once phone is down', () => {
    expect(showGettingStarted([])).toBe(true);
    expect(showGettingStarted([{ first_connected_at: null }])).toBe(true);
    expect(showGettingStarted([{ first_connected_at: 1 }])).toBe(false);
    expect(allPhonesDisconnected([{ is_ready: false, first_connected_at: 1 }, { is_ready: false, first_connected_at: null }])).toBe(true);
    expect(allPhonesDisconnected([{ is_ready: false, first_connected_at: 1 }, { is_ready: true, first_connected_at: 2 }])).toBe(false);
    expect(allPhonesDisconnected([])).toBe(false);
  });
});

describe('maintenance (spec §4)', () => {
  const flag: OrgPlanState = { org_id: 'o1', access_scopes: { feature_flags: { maintenance: true } } };
  it('the feature flag blocks, except for the special organizations', () => {
    expect(maintenanceState(flag, null, [])).toEqual({ kind: 'maintenance' });
    expect(maintenanceState(flag, null, ['o1'])).toBeNull();
  });
  it('a downtime incident blocks with its message or the default', () => {
    expect(maintenanceState({ org_id: 'o1' }, { betterstack: { id: 'i1', message: null, status: 'downtime' }, featurebase: null }, [])).toEqual({ kind: 'down', message: SERVICE_DOWN_MESSAGE });
    expect(maintenanceState({ org_id: 'o1' }, { betterstack: { id: 'i1', message: 'DB upgrade', status: 'downtime' }, featurebase: null }, [])).toEqual({ kind: 'down', message: 'DB upgrade' });
    expect(maintenanceState({ org_id: 'o1' }, { betterstack: { id: 'i1', message: 'x', status: 'downtime' }, featurebase: null }, ['o1'])).toEqual({ kind: 'banner', id: 'i1', message: 'x' });
  });
  it('another open incident is a banner; resolved is nothing', () => {
    expect(maintenanceState({ org_id: 'o1' }, { betterstack: { id: 'i2', message: 'Slow sync', status: 'degraded' }, featurebase: null }, [])).toEqual({ kind: 'banner', id: 'i2', message: 'Slow sync' });
    expect(maintenanceState({ org_id: 'o1' }, { betterstack: { id: 'i2', message: 'x', status: 'resolved' }, featurebase: null }, [])).toBeNull();
  });
});

describe('subscription state machine', () => {
  it('paid makes the org active on the plan and ends the trial', () => {
    expect(applyBillingEvent('trialing', { type: 'paid', plan_id: 'pro', current_period_end: 123, licences: 4 })).toMatchObject({ subscription_status: 'active', is_free_trial: false, is_enterprise: false, org_plan: { plan_id: 'pro', current_period_end: 123 }, licences: 4 });
    expect(applyBillingEvent('past_due', { type: 'paid', plan_id: 'enterprise', current_period_end: 1 })).toMatchObject({ subscription_status: 'active', is_enterprise: true });
  });
  it('paid with extra phones records them, and the phone limit follows (issue 49 item 14)', () => {
    const patch = applyBillingEvent('trialing', { type: 'paid', plan_id: 'pro', current_period_end: 123, licences: 4, addon_phones: 2 })!;
    expect(patch.addon_phones).toBe(2);
    const before = phoneLimit(active('pro'));
    expect(phoneLimit(active('pro', { addons: { phones: patch.addon_phones } }))).toBe(before + 2);
    // Starter sells no extra phones: a downgrade drops them; metadata without the count leaves them alone
    expect(applyBillingEvent('active', { type: 'paid', plan_id: 'starter', current_period_end: 1, addon_phones: 2 })!.addon_phones).toBe(0);
    expect(applyBillingEvent('active', { type: 'paid', plan_id: 'pro', current_period_end: 1 })).not.toHaveProperty('addon_phones');
  });
  it('failed → past_due, but never revives a canceled subscription', () => {
    expect(applyBillingEvent('active', { type: 'failed' })).toEqual({ subscription_status: 'past_due' });
    expect(applyBillingEvent('canceled', { type: 'failed' })).toBeNull();
  });
  it('canceled after failed payments → canceled (inactive), otherwise ended', () => {
    expect(applyBillingEvent('past_due', { type: 'canceled', reason: 'payment_failed' })).toEqual({ subscription_status: 'canceled' });
    expect(applyBillingEvent('active', { type: 'canceled', reason: 'other' })).toEqual({ subscription_status: 'ended' });
  });
});
