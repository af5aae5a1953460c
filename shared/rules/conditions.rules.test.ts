import { describe, expect, it } from 'vitest';
import { evaluateConditions, testCondition, valueAt } from './conditions.rules.ts';
import { timeFields } from './business-time.rules.ts';
import { DEFAULT_ORG_CLOCK } from '../org/business-hours.rules.ts';
import { Conditions, RuleInput } from './rule.schemas.ts';
import { renderTemplate, templateProblem } from './template.ts';

const ctx = {
  message: { body: 'Hello, where is my ORDER?', type: 'text', from_me: false, number: '447700900123' },
  chat: { labels: ['lbl_vip', 'VIP'], assignee: null, type: 'user', unread: 2, closed: false, custom_properties: { plan: 'pro', seats: '12' } },
  contact: { name: 'Ana', labels: [], properties: { renewal: '2026-12-01' } },
  time: { business_hours: true, weekday: 'monday', date: '2026-11-23', hour: 10 },
};

describe('testCondition operators', () => {
  it.each([
    ['message.body', 'contains', 'order', true],
    ['message.body', 'not_contains', 'refund', true],
    ['message.body', 'starts_with', 'hello', true],
    ['message.body', 'ends_with', 'order?', true],
    ['message.type', 'equals', 'TEXT', true],
    ['message.type', 'not_equals', 'image', true],
    ['message.from_me', 'equals', false, true],
    ['message.from_me', 'equals', true, false],
    ['chat.labels', 'contains', 'lbl_vip', true],
    ['chat.labels', 'equals', 'vip', true],
    ['chat.labels', 'not_contains', 'lbl_spam', true],
    ['chat.labels', 'in', ['lbl_spam', 'lbl_vip'], true],
    ['chat.labels', 'not_in', 'lbl_spam, lbl_x', true],
    ['chat.assignee', 'is_unknown', null, true],
    ['chat.assignee', 'is_known', null, false],
    ['chat.assignee', 'not_equals', 'a@b.c', true],
    ['chat.unread', 'gt', 1, true],
    ['chat.unread', 'gte', 2, true],
    ['chat.unread', 'lt', 2, false],
    ['chat.unread', 'lte', '2', true],
    ['chat.custom_properties.seats', 'gt', 10, true],
    ['chat.custom_properties.plan', 'in', ['pro', 'enterprise'], true],
    ['chat.custom_properties.missing', 'is_unknown', null, true],
    ['chat.custom_properties.missing', 'equals', 'x', false],
    ['contact.labels', 'is_unknown', null, true],
    ['contact.properties.renewal', 'on', '2026-12-01', true],
    ['time.date', 'on', '2026-11-23', true],
    ['time.weekday', 'in', ['saturday', 'sunday'], false],
    ['time.business_hours', 'equals', true, true],
    ['message.body', 'gt', 3, false],
  ] as const)('%s %s %j → %s', (field, op, value, want) => {
    expect(testCondition(valueAt(ctx, field), { op, value: value as never })).toBe(want);
  });
});

describe('evaluateConditions', () => {
  it('an empty root matches everything', () => {
    expect(evaluateConditions({ match: 'all', items: [] }, ctx)).toEqual({ matched: true, reasons: [] });
  });
  it('all / any groups nested two levels, with reasons for a miss', () => {
    const c = Conditions.parse({
      match: 'all',
      items: [
        { field: 'chat.labels', op: 'contains', value: 'lbl_vip' },
        { match: 'any', items: [{ field: 'message.body', op: 'contains', value: 'refund' }, { field: 'time.business_hours', op: 'equals', value: false }] },
      ],
    });
    const r = evaluateConditions(c, ctx);
    expect(r.matched).toBe(false);
    expect(r.reasons[0]).toMatch(/none of: message.body contains "refund" \(was "Hello, where is my ORDER\?"\); time.business_hours is false/);
    const any = Conditions.parse({ ...c, match: 'any' });
    expect(evaluateConditions(any, ctx).matched).toBe(true);
  });
  it('refuses a third level of nesting and unknown fields', () => {
    expect(Conditions.safeParse({ match: 'all', items: [{ match: 'any', items: [{ match: 'all', items: [] }] }] }).success).toBe(false);
    const bad = Conditions.safeParse({ match: 'all', items: [{ field: 'chat.secret', op: 'equals', value: 1 }] });
    expect(bad.success).toBe(false);
  });
});

describe('timeFields', () => {
  it('weekday, date and business hours in the org zone', () => {
    // 2026-11-23 is a Monday; 08:30 UTC = 09:30 in Berlin (CET)
    const at = Date.UTC(2026, 10, 23, 8, 30);
    expect(timeFields(at, DEFAULT_ORG_CLOCK)).toMatchObject({ weekday: 'monday', weekday_number: 1, date: '2026-11-23', business_hours: false, hour: 8 });
    expect(timeFields(at, { ...DEFAULT_ORG_CLOCK, time_zone: 'Europe/Berlin' })).toMatchObject({ business_hours: true, hour: 9 });
    expect(timeFields(Date.UTC(2026, 10, 22, 12), DEFAULT_ORG_CLOCK)).toMatchObject({ weekday: 'sunday', business_hours: false });
    // the org's own hours: open on Sunday 10:00–14:00 in Kolkata (UTC+5:30)
    const sundays = { ...DEFAULT_ORG_CLOCK, time_zone: 'Asia/Kolkata', business_hours: { ...DEFAULT_ORG_CLOCK.business_hours, sun: { open: '10:00', close: '14:00' } } };
    expect(timeFields(Date.UTC(2026, 10, 22, 5), sundays)).toMatchObject({ weekday: 'sunday', hour: 10, business_hours: true });
  });
});

describe('RuleInput', () => {
  it('needs minutes for no_reply and at least one action', () => {
    expect(RuleInput.safeParse({ name: 'x', trigger: { type: 'no_reply' }, actions: [{ type: 'close' }] }).success).toBe(false);
    expect(RuleInput.safeParse({ name: 'x', trigger: { type: 'message.received' }, actions: [] }).success).toBe(false);
    const ok = RuleInput.parse({ name: ' VIP ', trigger: { type: 'message.received' }, actions: [{ type: 'follow_up', after_minutes: 60, body: 'Still there?' }] });
    expect(ok).toMatchObject({ name: 'VIP', enabled: true, conditions: { match: 'all', items: [] }, actions: [{ repeat: 1, then: 'nothing' }] });
  });
});

describe('renderTemplate', () => {
  it('renders variables with defaults', async () => {
    expect((await renderTemplate("Hi {{contact.name | default: 'there'}}!", { contact: { name: 'Ana' } })).text).toBe('Hi Ana!');
    expect((await renderTemplate("Hi {{contact.name | default: 'there'}}!", { contact: {} })).text).toBe('Hi there!');
    expect((await renderTemplate('{{chat.missing}}x', {})).text).toBe('x');
  });
  it('reports a template that does not parse', async () => {
    expect(templateProblem('Hi {{ contact.name ')).toMatch(/not closed|output/i);
    const r = await renderTemplate('{% for %}', {});
    expect(r.error).toBeTruthy();
    expect(templateProblem("Hi {{contact.name | default: 'there'}}")).toBeNull();
  });
});
