import { describe, expect, it } from 'vitest';
import { EVENTS, SUBSCRIPTIONS, COMMAND_QUEUES, STREAM_CONSUMERS, matchesPattern, detailSchema, type EventName } from './catalog.ts';
import { existsSync } from 'node:fs';
import { MEDIA_MESSAGE_TYPES } from '../shared/media/media.rules.ts';
import { join } from 'node:path';

/** Contract tests of the event catalogue: fixtures parse, patterns name known events, handlers exist. */
const chat = { chat_id: '1@c.us', org_id: 'o', latest_message_timestamp: 1, chat_type: 'user' };
const message = { chat_id: '1@c.us', unique_id: 'U', timestamp: 1, from_me: false, ack: 0, message_type: 'text', body: 'hi' };
const ticket = { org_id: 'o', ticket_id: 'tkt_1', chat_id: '1@c.us', status: 'open', assignee: null, last_updated_at: 1, subject: 'Refund' };
const task = { org_id: 'o', task_id: 'task_1', title: 'Call back', status: 'open', assignee: 'a@b.c', created_by: 'a@b.c', remind_at: 5, notes: '' };
const FIXTURES: Record<EventName, unknown> = {
  'message.received': { org_id: 'o', chat, message },
  'message.sent': { org_id: 'o', chat, message: { ...message, from_me: true } },
  'message.status_updated': { org_id: 'o', chat_id: '1@c.us', message: { ...message, ack: 2 } },
  'message.updated': { org_id: 'o', chat_id: '1@c.us', message },
  'chat.read': { org_id: 'o', chat, email: 'a@b.c' },
  'chat.updated': { org_id: 'o', chat, changes: ['pinned_messages'] },
  'ticket.created': { org_id: 'o', ticket },
  'ticket.updated': { org_id: 'o', ticket: { ...ticket, status: 'inprogress' }, changes: ['status'] },
  'ticket.closed': { org_id: 'o', ticket: { ...ticket, status: 'closed', closed_at: 2 }, changes: ['status'] },
  'task.created': { org_id: 'o', task, actions: ['TASK_CREATED'] },
  'task.updated': { org_id: 'o', task: { ...task, status: 'closed' }, actions: ['STATUS_CHANGED'] },
  'task.reminder_due': { org_id: 'o', task, remind_at: 5 },
  'note.created': { org_id: 'o', chat_id: '1@c.us', message: { ...message, from_me: true, is_private_note: true, author: 'a@b.c', mentions: [{ email: 'm@b.c', name: 'Mia' }] } },
  'note.deleted': { org_id: 'o', chat_id: '1@c.us', message: { ...message, from_me: true, is_private_note: true, author: 'a@b.c', is_deleted: true } },
  'notification.created': { org_id: 'o', email: 'm@b.c', notification: { notification_id: 'ntf_1', kind: 'mention', title: 'Ann mentioned you', body: 'hi', created_at: 1, chat_id: '1@c.us', actor: 'a@b.c' } },
  'bulk_job.updated': { org_id: 'o', job: { job_id: 'job_1', action: 'label', status: 'running', total: 480, processed: 200, succeeded: 198, failed_count: 2, created_by: 'a@b.c' } },
  'phone.session_updated': { org_id: 'o', phone_id: 'waweb_1', state: 'qr', qr: '2@abc,def', detail: null, at: 5 },
  // issue 17: contact triggers
  'contact.created': { org_id: 'o', contact: { contact_id: '15550001', display_name: 'Ana', numbers: ['15550001'], label_ids: [], custom_properties: {}, updated_at: null }, source: 'manual' },
  'contact.updated': { org_id: 'o', contact: { contact_id: '15550001', display_name: 'Ana', numbers: ['15550001'], label_ids: ['lbl_1'], custom_properties: { prp_tier: 'Gold' }, updated_at: 5 }, changes: ['custom_properties'], property_changes: [{ property_id: 'prp_tier', from: null, to: 'Gold' }] },
  // issue 17: the reaction trigger
  'message.reaction': { org_id: 'o', chat_id: '1@c.us', message: { ...message, from_me: true }, reaction: { sender_id: '15550001', emoji: '👍', from_me: false, timestamp: 5 } },
};
const metadata = { id: 'e1', version: 1, occurred_at: '2026-11-21T00:00:00.000Z', actor: 'system' };

describe('event catalogue', () => {
  it.each(Object.keys(EVENTS) as EventName[])('%s: the fixture parses against its contract, extra fields pass through', (name) => {
    const parsed = detailSchema(name).parse({ properties: FIXTURES[name], metadata }) as { properties: Record<string, unknown> };
    expect(parsed.properties).toEqual(FIXTURES[name]);
  });

  it('rejects a message with an ack outside -1..4', () => {
    expect(() => EVENTS['message.received'].properties.parse({ org_id: 'o', chat, message: { ...message, ack: 7 } })).toThrow();
  });

  it('every subscription names catalogued events, and its pattern matches them', () => {
    for (const s of SUBSCRIPTIONS) {
      for (const name of s.pattern['detail-type']) {
        expect(EVENTS).toHaveProperty(name);
        // a pattern that also filters on detail (media-download) is checked with an image message
        const detail = 'detail' in s.pattern && s.pattern.detail ? { properties: { message: { message_type: 'image' } } } : undefined;
        expect(matchesPattern(s.pattern, { source: 'chorus', 'detail-type': name, detail })).toBe(true);
      }
      expect(matchesPattern(s.pattern, { source: 'other', 'detail-type': s.pattern['detail-type'][0] })).toBe(false);
    }
  });

  it('content filters: media-download gets only messages with a file, the same types the media rules know', () => {
    const sub = SUBSCRIPTIONS.find((s) => s.name === 'media-download')!;
    const ev = (message_type: string) => ({ source: 'chorus', 'detail-type': 'message.received', detail: { properties: { message: { message_type } } } });
    expect(matchesPattern(sub.pattern, ev('image'))).toBe(true);
    expect(matchesPattern(sub.pattern, ev('text'))).toBe(false);
    expect(matchesPattern(sub.pattern, { source: 'chorus', 'detail-type': 'message.received' })).toBe(false);
    expect([...sub.pattern.detail.properties.message.message_type]).toEqual([...MEDIA_MESSAGE_TYPES]);
  });

  it('every Lambda queue (and stream) consumer lives in functions/consumers/, named after its queue', () => {
    for (const q of [...SUBSCRIPTIONS, ...COMMAND_QUEUES, ...STREAM_CONSUMERS]) expect(q.handler).toBe(`functions/consumers/${q.name}.ts#handler`);
  });

  it('every consumer handler file exists', () => {
    for (const h of [...SUBSCRIPTIONS, ...COMMAND_QUEUES, ...STREAM_CONSUMERS].map((x) => x.handler)) expect(existsSync(join(import.meta.dirname, '..', h.split('#')[0])), h).toBe(true);
  });
});

// --- issue 20: outbound webhooks ---
describe('webhook-dispatch subscription', () => {
  it('listens to exactly the bus events the webhook mapping table knows', async () => {
    const { DISPATCHED_BUS_EVENTS } = await import('../shared/webhooks/webhook.rules.ts');
    const sub = SUBSCRIPTIONS.find((s) => s.name === 'webhook-dispatch')!;
    expect([...sub.pattern['detail-type']].sort()).toEqual([...DISPATCHED_BUS_EVENTS].sort());
  });
});

// --- issue 17: automation rules ---
describe('rules-engine subscription', () => {
  it('listens to exactly the bus events the rule triggers derive from', async () => {
    const { RULE_BUS_EVENTS } = await import('../shared/rules/triggers.rules.ts');
    const sub = SUBSCRIPTIONS.find((s) => s.name === 'rules-engine')!;
    expect([...sub.pattern['detail-type']].sort()).toEqual([...RULE_BUS_EVENTS].sort());
  });
});
