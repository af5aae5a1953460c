import { describe, expect, it } from 'vitest';
import { maskPayload, memberActionProblem, ownerProblem } from './owner.rules.ts';

describe('ownerProblem (issue 42 §1: a rule acts with its owner’s rights, or is paused)', () => {
  const member = { email: 'm@x.co', role: 'member' as const };
  const admin = { email: 'a@x.co', role: 'admin' as const };
  it('an active owner with the rights the rule needs: no problem', () => {
    expect(ownerProblem('a@x.co', 'admin', admin, {}, ['webhook', 'send_message'])).toBeNull();
    expect(ownerProblem('m@x.co', 'member', member, {}, ['send_message', 'add_label'])).toBeNull();
    // promoted since: acts with the rights they have now
    expect(ownerProblem('m@x.co', 'member', { ...member, role: 'admin' }, {}, ['webhook'])).toBeNull();
  });
  it('removed, demoted, rules permission off, an action the owner may not take: paused with the reason', () => {
    expect(ownerProblem('m@x.co', 'member', null, {}, ['send_message'])).toMatch(/no longer a member/);
    expect(ownerProblem('a@x.co', 'admin', { ...admin, role: 'member' }, {}, ['send_message'])).toMatch(/no longer an admin/);
    expect(ownerProblem('m@x.co', 'member', member, { rules: false }, ['send_message'])).toMatch(/may no longer use rules/);
    expect(ownerProblem('m@x.co', undefined, member, {}, ['webhook'])).toMatch(/call webhook/);
  });
  it('org-level owners (API keys) stay org-wide', () => {
    expect(ownerProblem('apikey:k1', undefined, null, { rules: false }, ['webhook'])).toBeNull();
  });
});

describe('memberActionProblem', () => {
  it('call webhook is for admins’ rules only; what a member can do by hand is allowed', () => {
    expect(memberActionProblem('admin', 'webhook')).toBeNull();
    expect(memberActionProblem('member', 'webhook')).toMatch(/admins only/);
    for (const t of ['send_message', 'assign', 'add_label', 'private_note', 'notify', 'follow_up'] as const) expect(memberActionProblem('member', t)).toBeNull();
  });
});

describe('maskPayload', () => {
  it('masks every number in strings (chat ids too), keeps dates and other values', () => {
    const out = maskPayload({ chat_id: '15550009001@c.us', contact: { number: '15550009001', name: 'Rita' }, text: 'call +1 555 000 9001', now: '2026-11-29T11:00:00.000Z', n: 5, list: ['15550009001'] });
    expect(JSON.stringify(out)).not.toMatch(/15550009001|5550009001/);
    expect(out.now).toBe('2026-11-29T11:00:00.000Z');
    expect(out.contact.name).toBe('Rita');
    expect(out.n).toBe(5);
  });
});
