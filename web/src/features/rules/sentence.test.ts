import { describe, expect, it } from 'vitest';
import { pausedText, ruleSentence } from './sentence.ts';

describe('ruleSentence', () => {
  it('reads like a sentence, with label names', () => {
    const names: Record<string, string> = { l1: 'VIP' };
    const s = ruleSentence(
      {
        trigger: { type: 'message.received' },
        conditions: { match: 'all', items: [{ field: 'chat.labels', op: 'contains', value: 'l1' }, { match: 'any', items: [{ field: 'message.body', op: 'contains', value: 'refund' }, { field: 'time.business_hours', op: 'equals', value: false }] }] },
        actions: [{ type: 'assign', mode: 'member', member: 'ana@example.com' }, { type: 'add_label', label_id: 'l1', delay_minutes: 5 }],
      },
      (id) => names[id] ?? id,
    );
    expect(s).toBe('When a message is received and the chat labels contains “VIP” and (the message text contains “refund” or it is business hours is “false”), assign to ana@example.com, then add label VIP after 5 min.');
  });
});

describe('pausedText (issue 42 §1: a rule or SLA policy paused for its owner)', () => {
  it('says why and since when a paused rule or policy is off, nothing for one that is not paused', () => {
    expect(pausedText({ paused_reason: 'its owner m@example.com is no longer a member of this workspace', paused_at: 1 }, () => '29/11/2026, 12:00')).toBe(
      'Paused 29/11/2026, 12:00: its owner m@example.com is no longer a member of this workspace. Turn it on again to make it act with your rights.',
    );
    expect(pausedText({ paused_reason: null, paused_at: null })).toBeNull();
  });
});
