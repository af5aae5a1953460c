import { describe, expect, it } from 'vitest';
import { afterHumanReply, auditNoteBody, contactMarkedInternal, effectiveState, eligibility, inShift } from './agent.rules.ts';
import { AiSettings } from './ai.schemas.ts';

const base = AiSettings.parse({ enabled: true });
const msg = { from_me: false, message_type: 'text', body: 'How much is shipping?', phone_id: 'p1', chat_type: 'user' as const, internal_contact: false };
const T = Date.UTC(2026, 10, 25, 12, 0); // a Wednesday, 12:00 UTC

describe('state machine', () => {
  it('a chat without state follows the default activation', () => {
    expect(effectiveState(null, { default_activation: 'auto' }, T)).toBe('active');
    expect(effectiveState(null, { default_activation: 'manual' }, T)).toBe('inactive');
  });
  it('a pause ends by itself at paused_until; a pause without end waits for hand back', () => {
    expect(effectiveState({ activation_state: 'paused', paused_until: T - 1 }, base, T)).toBe('active');
    expect(effectiveState({ activation_state: 'paused', paused_until: T + 1 }, base, T)).toBe('paused');
    expect(effectiveState({ activation_state: 'paused', paused_until: null }, base, T)).toBe('paused');
  });
  it("a human's reply pauses for the org's minutes (0 = until handed back), and leaves an inactive chat alone", () => {
    expect(afterHumanReply(null, { ...base, pause_after_human_minutes: 30 }, 'a@x', T)).toMatchObject({ activation_state: 'paused', paused_until: T + 30 * 60_000, pending: null, reason: 'human_reply' });
    expect(afterHumanReply({ activation_state: 'thinking', pending: { unique_id: 'u', due_at: T } }, { ...base, pause_after_human_minutes: 0 }, 'a@x', T)).toMatchObject({ paused_until: null, pending: null });
    expect(afterHumanReply({ activation_state: 'inactive' }, base, 'a@x', T)).toBeNull();
  });
});

describe('eligibility', () => {
  it('answers customer text when on and active', () => expect(eligibility(base, 'active', msg, T)).toEqual({ ok: true }));
  it('off per org and per number', () => {
    expect(eligibility({ ...base, enabled: false }, 'active', msg, T)).toEqual({ ok: false, reason: 'disabled' });
    expect(eligibility({ ...base, phones: { p1: false } }, 'active', msg, T)).toEqual({ ok: false, reason: 'phone_disabled' });
  });
  it('never internal contacts; groups only when enabled', () => {
    expect(eligibility(base, 'active', { ...msg, internal_contact: true }, T)).toEqual({ ok: false, reason: 'internal_contact' });
    expect(eligibility(base, 'active', { ...msg, chat_type: 'group' }, T)).toEqual({ ok: false, reason: 'group' });
    expect(eligibility({ ...base, answer_groups: true }, 'active', { ...msg, chat_type: 'group' }, T)).toEqual({ ok: true });
  });
  it('not while inactive, paused or handed off; not for media or our own messages', () => {
    for (const s of ['inactive', 'paused', 'handed_off'] as const) expect(eligibility(base, s, msg, T)).toEqual({ ok: false, reason: s });
    expect(eligibility(base, 'active', { ...msg, message_type: 'image' }, T).ok).toBe(false);
    expect(eligibility(base, 'active', { ...msg, from_me: true }, T).ok).toBe(false);
  });
});

describe('shift hours', () => {
  const shift = { enabled: true, timezone: 'Europe/Lisbon', days: [1, 2, 3, 4, 5], start: '09:00', end: '18:00' };
  it('inside and outside, in the time zone', () => {
    expect(inShift(shift, T)).toBe(true); // 12:00 Lisbon (UTC+0 in November)
    expect(inShift(shift, Date.UTC(2026, 10, 25, 19, 0))).toBe(false);
    expect(inShift({ ...shift, timezone: 'Asia/Kolkata' }, T)).toBe(true); // 17:30
    expect(inShift(shift, Date.UTC(2026, 10, 29, 12, 0))).toBe(false); // Sunday
    expect(inShift({ ...shift, enabled: false }, Date.UTC(2026, 10, 29, 3, 0))).toBe(true);
  });
  it('an overnight shift belongs to the day it starts', () => {
    const night = { ...shift, start: '22:00', end: '06:00', days: [3] };
    expect(inShift(night, Date.UTC(2026, 10, 25, 23, 0))).toBe(true); // Wed 23:00
    expect(inShift(night, Date.UTC(2026, 10, 26, 5, 0))).toBe(true); // Thu 05:00, Wednesday's shift
    expect(inShift(night, Date.UTC(2026, 10, 27, 5, 0))).toBe(false); // Fri 05:00, Thursday's (not a shift day)
  });
  it('the audit note folds to its first line', () => {
    const body = auditNoteBody({ outcome: 'handed_off', question: 'Q?', candidates: [{ faq_id: 'f', question: 'Pair?', score: 0.3 }], answer: null, reason: 'low_confidence', confidence: 0.3, latency_ms: 12, adapter: 'local' });
    expect(body.split('\n')[0]).toBe('AI agent handed off: no pair matches well enough (best 30%) (12 ms)');
    expect(body).toContain('1. Pair? (30%) [f]');
  });
});

describe('internal contacts (issue 15 Contact: labels and custom properties)', () => {
  const labels = [
    { label_id: 'l1', name: 'VIP' },
    { label_id: 'l2', name: ' Internal ' },
  ];
  const props = [
    { property_id: 'p1', property_name: 'Internal', property_value_type: 'dropdown', property_value: { o1: 'Yes', o2: 'No' } },
    { property_id: 'p2', property_name: 'internal', property_value_type: 'text' },
    { property_id: 'p3', property_name: 'Team', property_value_type: 'text' },
  ];
  it('a label named Internal marks the contact', () => {
    expect(contactMarkedInternal({ label_ids: ['l2'] }, labels, props)).toBe(true);
    expect(contactMarkedInternal({ label_ids: ['l1'] }, labels, props)).toBe(false);
  });
  it('a property named Internal set to yes marks it; no, empty or another property does not', () => {
    expect(contactMarkedInternal({ custom_properties: { p1: 'o1' } }, labels, props)).toBe(true);
    expect(contactMarkedInternal({ custom_properties: { p1: 'o2' } }, labels, props)).toBe(false);
    expect(contactMarkedInternal({ custom_properties: { p2: 'TRUE' } }, labels, props)).toBe(true);
    expect(contactMarkedInternal({ custom_properties: { p2: 'no' } }, labels, props)).toBe(false);
    expect(contactMarkedInternal({ custom_properties: { p3: 'internal' } }, labels, props)).toBe(false);
    expect(contactMarkedInternal({}, labels, props)).toBe(false);
  });
});
