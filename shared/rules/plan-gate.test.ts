import { describe, expect, it } from 'vitest';
import { ruleLimit, hasFeature } from '../plan/entitlements.rules.ts';
import { changeNeedsRulesEngine } from './rules.ts';

/** The rules' plan gate (spec §9): which changes need the rules engine, and the rule count per plan. */
describe('rules plan gate', () => {
  it('enabling or saving an enabled rule needs the rules engine; disabling and editing a disabled rule do not', () => {
    expect(changeNeedsRulesEngine(false, { enabled: true })).toBe(true);
    expect(changeNeedsRulesEngine(true, {})).toBe(true);
    expect(changeNeedsRulesEngine(true, { enabled: false })).toBe(false);
    expect(changeNeedsRulesEngine(false, {})).toBe(false);
  });

  it('the rule count comes from ruleLimit: 2 per licence on Pro/Enterprise, none on Starter', () => {
    const pro = { org_plan: { plan_id: 'pro' }, subscription_status: 'active', licences: 3 };
    const starter = { org_plan: { plan_id: 'starter' }, subscription_status: 'active', licences: 3 };
    expect(ruleLimit(pro)).toBe(6);
    expect(ruleLimit({ ...pro, org_plan: { plan_id: 'enterprise' } })).toBe(6);
    expect(ruleLimit(starter)).toBe(0);
    expect(hasFeature(starter, 'rules_engine')).toBe(false);
  });
});
