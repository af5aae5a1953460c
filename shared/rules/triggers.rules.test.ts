import { describe, expect, it } from 'vitest';
import { chatIdOf, loopGuard, triggersOf, type BusEventLike } from './triggers.rules.ts';

const ev = (type: string, properties: Record<string, unknown>, id = 'e1'): BusEventLike => ({ 'detail-type': type, detail: { properties, metadata: { id } } });

describe('triggersOf', () => {
  it('customer and team messages; reactions and private notes are not messages here', () => {
    expect(triggersOf(ev('message.received', { message: { from_me: false, message_type: 'text' } }))).toEqual([{ trigger: 'message.received', trigger_id: 'e1' }]);
    expect(triggersOf(ev('message.received', { message: { from_me: false, message_type: 'reaction' } }))).toEqual([]);
    expect(triggersOf(ev('message.sent', { message: { from_me: true } }))).toEqual([{ trigger: 'message.sent', trigger_id: 'e1' }]);
    expect(triggersOf(ev('message.sent', { message: { is_private_note: true } }))).toEqual([]);
  });
  it('chat changes: assigned, closed, reopened, labels added and removed, flags, created', () => {
    expect(triggersOf(ev('chat.updated', { chat: { assigned_to: 'a@b.c' }, changes: ['assigned_to'] })).map((t) => t.trigger)).toEqual(['chat.assigned']);
    expect(triggersOf(ev('chat.updated', { chat: {}, changes: ['assigned_to'] }))).toEqual([]);
    expect(triggersOf(ev('chat.updated', { chat: { closed_at: 5 }, changes: ['closed_at'] })).map((t) => t.trigger)).toEqual(['chat.closed']);
    expect(triggersOf(ev('chat.updated', { chat: {}, changes: ['closed_at'], previous: { closed_at: 5 } })).map((t) => t.trigger)).toEqual(['chat.reopened']);
    const labels = triggersOf(ev('chat.updated', { chat: { label_ids: ['a', 'c'] }, changes: ['label_ids'], previous: { label_ids: ['a', 'b'] } }));
    expect(labels).toEqual([
      { trigger: 'label.added', trigger_id: 'e1#label.added:c', subject: 'c' },
      { trigger: 'label.removed', trigger_id: 'e1#label.removed:b', subject: 'b' },
    ]);
    expect(triggersOf(ev('chat.updated', { chat: { flagged_messages: { m1: 'x', m2: 'y' } }, changes: ['flagged_messages'], previous: { flagged_messages: { m1: 'x' } } })).map((t) => t.subject)).toEqual(['m2']);
    expect(triggersOf(ev('chat.updated', { chat: {}, changes: ['created'] })).map((t) => t.trigger)).toEqual(['chat.created']);
  });
  it('a customer reaction set is reaction.added; a removal or our own reaction fires nothing', () => {
    const r = (reaction: Record<string, unknown>) => ev('message.reaction', { chat_id: '1@c.us', message: { chat_id: '1@c.us' }, reaction });
    expect(triggersOf(r({ sender_id: '155', emoji: '👍', from_me: false }))).toEqual([{ trigger: 'reaction.added', trigger_id: 'e1' }]);
    expect(triggersOf(r({ sender_id: '155', emoji: null, from_me: false }))).toEqual([]);
    expect(triggersOf(r({ sender_id: 'a@b.c', emoji: '👍', from_me: true }))).toEqual([]);
    expect(chatIdOf(r({ sender_id: '155', emoji: '👍', from_me: false }))).toBe('1@c.us');
  });
  it('tickets and tasks', () => {
    expect(triggersOf(ev('ticket.closed', { ticket: {} })).map((t) => t.trigger)).toEqual(['ticket.closed']);
    expect(triggersOf(ev('task.reminder_due', { task: {} })).map((t) => t.trigger)).toEqual(['task.due']);
    expect(triggersOf(ev('note.created', {}))).toEqual([]);
  });
});

describe('chatIdOf', () => {
  it('reads the chat from a snapshot, a message, a ticket or a task link', () => {
    expect(chatIdOf(ev('x', { chat: { chat_id: 'c1' } }))).toBe('c1');
    expect(chatIdOf(ev('x', { chat_id: 'c2' }))).toBe('c2');
    expect(chatIdOf(ev('x', { ticket: { chat_id: 'c3' } }))).toBe('c3');
    expect(chatIdOf(ev('x', { task: { associated_object_metadata: { type: 'chat', id: 'c4' } } }))).toBe('c4');
    expect(chatIdOf(ev('x', { task: { associated_object_metadata: null } }))).toBeNull();
  });
});

describe('loopGuard', () => {
  it('refuses a rule on its own effects and chains past the depth limit', () => {
    expect(loopGuard(undefined, 'r1', 3)).toBeNull();
    expect(loopGuard({ rule_ids: ['r2'], depth: 1 }, 'r1', 3)).toBeNull();
    expect(loopGuard({ rule_ids: ['r1'], depth: 1 }, 'r1', 3)).toMatch(/own action/);
    expect(loopGuard({ rule_ids: ['r2', 'r3', 'r4'], depth: 3 }, 'r1', 3)).toMatch(/3 rule hops/);
  });
  it('stops at the first automatic message an automatic message would cause, unless the rule may follow another rule (issue 42 §4)', () => {
    const send = { eventType: 'message.sent', sendsMessage: true };
    // a member's message: no causation, both rules answer it
    expect(loopGuard(undefined, 'r1', 3, send)).toBeNull();
    // r2's automatic message: r1 would answer it with another message — stopped
    expect(loopGuard({ rule_ids: ['r2'], depth: 1 }, 'r1', 3, send)).toMatch(/sent automatically by another rule/);
    // …unless r1 says it may follow another rule
    expect(loopGuard({ rule_ids: ['r2'], depth: 1 }, 'r1', 3, { ...send, allowAfterAutomation: true })).toBeNull();
    // a rule that sends nothing (a label) still runs on an automatic message
    expect(loopGuard({ rule_ids: ['r2'], depth: 1 }, 'r1', 3, { eventType: 'message.sent', sendsMessage: false })).toBeNull();
    // an automatic label (not a message) may be answered with a message
    expect(loopGuard({ rule_ids: ['r2'], depth: 1 }, 'r1', 3, { eventType: 'chat.updated', sendsMessage: true })).toBeNull();
  });
  it('two rules "message sent → send a message" send the customer two automatic messages, not four (the issue 42 finding)', () => {
    // simulate the chain: each message.sent is evaluated by both rules; a rule that runs sends one message
    type Ev = { causation?: { rule_ids: string[]; depth: number } };
    const queue: Ev[] = [{}];
    let automatic = 0;
    while (queue.length) {
      const ev = queue.shift()!;
      for (const rule of ['A', 'B']) {
        if (loopGuard(ev.causation, rule, 3, { eventType: 'message.sent', sendsMessage: true })) continue;
        automatic++;
        queue.push({ causation: { rule_ids: [...(ev.causation?.rule_ids ?? []), rule], depth: (ev.causation?.depth ?? 0) + 1 } });
      }
    }
    expect(automatic).toBe(2);
  });
});

describe('contact triggers (issue 17 §1)', () => {
  const ev = (type: string, properties: Record<string, unknown>) => ({ 'detail-type': type, detail: { properties, metadata: { id: 'e9' } } });
  const contact = { contact_id: '15550001', display_name: 'Ana', numbers: ['15550001'], label_ids: [], custom_properties: {}, updated_at: null };
  it('contact.created fires once; contact.updated fires one property_changed per changed property; the chat is the contact’s 1:1 chat', () => {
    expect(triggersOf(ev('contact.created', { org_id: 'o', contact, source: 'manual' }))).toEqual([{ trigger: 'contact.created', trigger_id: 'e9' }]);
    const upd = ev('contact.updated', { org_id: 'o', contact, changes: ['custom_properties'], property_changes: [{ property_id: 'a', from: null, to: '1' }, { property_id: 'b', from: '2', to: null }] });
    expect(triggersOf(upd)).toEqual([
      { trigger: 'contact.property_changed', trigger_id: 'e9#prop:a', subject: 'a' },
      { trigger: 'contact.property_changed', trigger_id: 'e9#prop:b', subject: 'b' },
    ]);
    expect(triggersOf(ev('contact.updated', { org_id: 'o', contact, changes: ['edited_name'], property_changes: [] }))).toEqual([]);
    expect(chatIdOf(upd)).toBe('15550001@c.us');
  });
});
