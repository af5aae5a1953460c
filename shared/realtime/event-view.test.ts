import { describe, expect, it } from 'vitest';
import { EVENTS, type EventName } from '../../events/catalog.ts';
import type { Viewer } from '../chat/chat-access.rules.ts';
import { eventChatRef, viewEventFor, type EventViewContext, type PushedEvent } from './event-view.ts';

/**
 * Every socket event type of the catalogue through viewEventFor: who gets it, what a member who may
 * not see its chat gets, and that masking leaves no customer number in it. A catalogue event without
 * a fixture here fails the first test, so a new event type cannot skip these checks.
 */
const SENTINEL = 'SENTINEL-7Q2X';
const CUSTOMER = '919812345678';
const GROUP = '120363000000000099@g.us';
const ADMIN: Viewer = { email: 'admin@x.co', role: 'admin' };
const ALLOWED: Viewer = { email: 'allowed@x.co', role: 'member' };
const BLOCKED: Viewer = { email: 'blocked@x.co', role: 'member' };
const RESTRICTED = { chat_access: { 'allowed@x.co': true } };

const chat = {
  chat_id: GROUP,
  org_id: 'o',
  chat_type: 'group',
  // an unnamed customer shown by their number, and what was said in it
  chat_name: CUSTOMER,
  description: SENTINEL,
  org_phone: '15550001111',
  phone_id: 'p1',
  latest_message_timestamp: 5,
  latest_message: { unique_id: 'U1', body: SENTINEL, author: CUSTOMER, timestamp: 5 },
  members: { [CUSTOMER]: { contact_name: CUSTOMER, contact_id: `${CUSTOMER}@c.us` } },
  // the snapshot's access is open: the current one (ctx.chat) decides
  chat_access: {},
};
const message = { chat_id: GROUP, unique_id: 'U1', timestamp: 5, from_me: false, ack: 0, message_type: 'text', body: SENTINEL, sender_phone: CUSTOMER, author: CUSTOMER, reactions: { [CUSTOMER]: { reaction: '👍', timestamp: 5 } } };
const note = { ...message, from_me: true, is_private_note: true as const, author: 'allowed@x.co', body: `${SENTINEL} about the customer` };
const ticket = { org_id: 'o', ticket_id: 'tkt_1', chat_id: GROUP, chat_name: CUSTOMER, subject: SENTINEL, status: 'open', assignee: 'blocked@x.co', last_updated_at: 5 };
const task = {
  org_id: 'o',
  task_id: 'task_1',
  title: 'Call back',
  status: 'open',
  assignee: 'blocked@x.co',
  created_by: 'allowed@x.co',
  remind_at: null,
  associated_object_metadata: { id: 'U1', type: 'message', index: null, object: { chat_id: GROUP, sender_phone: CUSTOMER, body: SENTINEL } },
};
const notification = (email: string) => ({ notification_id: 'ntf_1', kind: 'mention', title: `Mentioned in +${CUSTOMER}`, body: `${SENTINEL} ${CUSTOMER}`, created_at: 5, chat_id: GROUP, actor: 'admin@x.co', email });

const FIXTURES: Record<EventName, (to: string) => Record<string, unknown>> = {
  'message.received': () => ({ org_id: 'o', chat, message }),
  'message.sent': () => ({ org_id: 'o', chat, message: { ...message, from_me: true } }),
  'message.status_updated': () => ({ org_id: 'o', chat_id: GROUP, message: { ...message, ack: 2 } }),
  'message.updated': () => ({ org_id: 'o', chat_id: GROUP, message: { ...message, is_deleted: true, deleted_by: `whatsapp:${CUSTOMER}`, edit_history: [{ body: SENTINEL, edited_at: 4, edited_by: `whatsapp:${CUSTOMER}` }] } }),
  'chat.read': () => ({ org_id: 'o', chat, email: 'admin@x.co' }),
  'chat.updated': () => ({ org_id: 'o', chat, changes: ['chat_name'] }),
  'ticket.created': () => ({ org_id: 'o', ticket }),
  'ticket.updated': () => ({ org_id: 'o', ticket, changes: ['subject'] }),
  'ticket.closed': () => ({ org_id: 'o', ticket: { ...ticket, status: 'closed' }, changes: ['status'] }),
  'task.created': () => ({ org_id: 'o', task, actions: ['TASK_CREATED'] }),
  'task.updated': () => ({ org_id: 'o', task, actions: ['TITLE_CHANGED'] }),
  'task.reminder_due': () => ({ org_id: 'o', task, remind_at: 5 }),
  'note.created': () => ({ org_id: 'o', chat_id: GROUP, message: note }),
  'note.deleted': () => ({ org_id: 'o', chat_id: GROUP, message: { ...note, is_deleted: true } }),
  'notification.created': (to) => ({ org_id: 'o', email: to, notification: notification(to) }),
  'bulk_job.updated': (to) => ({ org_id: 'o', job: { job_id: 'job_1', action: 'label', status: 'running', total: 3, processed: 1, created_by: to } }),
  'phone.session_updated': () => ({ org_id: 'o', phone_id: 'p1', state: 'qr', qr: '2@abc', detail: null, at: 5 }),
  // issue 17: contact events are for the rules consumer only, never pushed on sockets
  'contact.created': () => ({ org_id: 'o', contact: { contact_id: CUSTOMER, display_name: SENTINEL, numbers: [CUSTOMER], label_ids: [], custom_properties: {}, updated_at: null }, source: 'whatsapp' }),
  'contact.updated': () => ({ org_id: 'o', contact: { contact_id: CUSTOMER, display_name: SENTINEL, numbers: [CUSTOMER], label_ids: [], custom_properties: { p: 'v' }, updated_at: 5 }, changes: ['custom_properties'], property_changes: [{ property_id: 'p', from: null, to: 'v' }] }),
  // issue 17: the reaction trigger's event, for the rules consumer only (message.updated carries the reaction to sockets)
  'message.reaction': () => ({ org_id: 'o', chat_id: GROUP, message, reaction: { sender_id: CUSTOMER, emoji: '👍', from_me: false, timestamp: 5 } }),
};
const NAMES = Object.keys(EVENTS) as EventName[];
/** Events about no chat at all. */
const CHATLESS: EventName[] = ['bulk_job.updated', 'phone.session_updated', 'contact.created', 'contact.updated'];
/** Events pushed to nobody (consumed by back-end consumers only). */
const UNPUSHED: EventName[] = ['contact.created', 'contact.updated', 'message.reaction'];

/** The event for `to` (the recipient / job creator where the type has one), parsed by its contract like the fan-out does. */
const event = (name: EventName, to = 'blocked@x.co'): PushedEvent => ({ type: name, properties: EVENTS[name].properties.parse(FIXTURES[name](to)) as Record<string, unknown>, metadata: { id: 'e1' } });
const restricted: EventViewContext = { maskPhoneNumbers: false, chat: RESTRICTED };
const open: EventViewContext = { maskPhoneNumbers: false, chat: { chat_access: null } };
const text = (v: unknown) => JSON.stringify(v);

describe('viewEventFor over every catalogued event type', () => {
  it('has a fixture for every event type of the catalogue', () => {
    expect(NAMES.filter((n) => !(n in FIXTURES))).toEqual([]);
    expect(NAMES.length).toBe(20);
  });

  it.each(NAMES)('%s: a connection of no active member (removed, invited, unknown) gets nothing', (name) => {
    expect(viewEventFor(undefined, event(name), open)).toBeNull();
    expect(viewEventFor(undefined, event(name, 'admin@x.co'), { maskPhoneNumbers: false })).toBeNull();
  });

  it.each(NAMES.filter((n) => !CHATLESS.includes(n)))('%s: a member the chat’s current access does not list gets nothing of it (a task’s assignee, a notification’s recipient included)', (name) => {
    const out = viewEventFor(BLOCKED, event(name), restricted);
    expect(text(out)).not.toContain(SENTINEL);
    if (/^(message|chat)\./.test(name) && 'chat' in event(name).properties) {
      // the list's dimmed stub (spec §6) and nothing else
      expect(out).toMatchObject({ type: 'chat.updated', properties: { chat: { chat_id: GROUP, has_access: false }, changes: ['chat_access'] } });
      expect(out!.properties.chat).not.toHaveProperty('chat_name');
    } else {
      expect(out).toBeNull();
    }
  });

  it.each(NAMES.filter((n) => !CHATLESS.includes(n) && !UNPUSHED.includes(n)))('%s: the member the access lists gets it, and an admin always does (unchanged)', (name) => {
    const e = event(name, 'allowed@x.co');
    expect(viewEventFor(ALLOWED, e, restricted)).toBe(e);
    const forAdmin = event(name, 'admin@x.co');
    expect(viewEventFor(ADMIN, forAdmin, { ...restricted, maskPhoneNumbers: true })).toBe(forAdmin);
  });

  it.each(NAMES)('%s: with mask_phone_numbers on, what a member gets holds no customer number', (name) => {
    // the task fixture is assigned to 'blocked@x.co'; the chat is open here
    const out = viewEventFor(BLOCKED, event(name), { maskPhoneNumbers: true, chat: { chat_access: null } });
    if (name === 'phone.session_updated' || UNPUSHED.includes(name)) return expect(out).toBeNull(); // admins only / nobody
    expect(out).not.toBeNull();
    expect(text(out)).not.toContain(CUSTOMER);
    if (name !== 'bulk_job.updated') expect(text(out)).toContain(`91********78`);
  });

  it('a chat that cannot be found (or was not read) is for admins only', () => {
    for (const name of ['message.updated', 'ticket.created', 'note.created'] as EventName[]) {
      expect(viewEventFor(ALLOWED, event(name), { maskPhoneNumbers: false, chat: null })).toBeNull();
      expect(viewEventFor(ALLOWED, event(name), { maskPhoneNumbers: false })).toBeNull();
      expect(viewEventFor(ADMIN, event(name), { maskPhoneNumbers: false, chat: null })).not.toBeNull();
    }
  });
});

describe('audiences', () => {
  it('a notification only to its recipient, a bulk job only to its creator, a phone session only to admins', () => {
    expect(viewEventFor(ALLOWED, event('notification.created', 'blocked@x.co'), open)).toBeNull();
    expect(viewEventFor(ADMIN, event('notification.created', 'blocked@x.co'), open)).toBeNull();
    expect(viewEventFor(BLOCKED, event('notification.created', 'BLOCKED@x.co'), open)).not.toBeNull();
    expect(viewEventFor(ALLOWED, event('bulk_job.updated', 'blocked@x.co'), { maskPhoneNumbers: false })).toBeNull();
    expect(viewEventFor(BLOCKED, event('bulk_job.updated', 'blocked@x.co'), { maskPhoneNumbers: false })).not.toBeNull();
    expect(viewEventFor(ALLOWED, event('phone.session_updated'), { maskPhoneNumbers: false })).toBeNull();
    expect(viewEventFor(ADMIN, event('phone.session_updated'), { maskPhoneNumbers: false })).not.toBeNull();
  });

  it('contact and reaction events go to nobody, admins included (the rules consumer reads them from the bus)', () => {
    for (const name of UNPUSHED) for (const v of [ADMIN, ALLOWED, BLOCKED]) expect(viewEventFor(v, event(name), open)).toBeNull();
  });

  it('a task to admins, its assignee and its creator', () => {
    const other: Viewer = { email: 'other@x.co', role: 'member' };
    expect(viewEventFor(other, event('task.updated'), open)).toBeNull();
    expect(viewEventFor(BLOCKED, event('task.updated'), open)).not.toBeNull(); // assignee
    expect(viewEventFor(ALLOWED, event('task.updated'), open)).not.toBeNull(); // creator
    expect(viewEventFor(ADMIN, event('task.updated'), open)).not.toBeNull();
  });
});

describe('eventChatRef', () => {
  it('names the chat of chat, message, note, ticket, task and notification events; a task linked to a ticket by the ticket', () => {
    expect(eventChatRef(event('message.status_updated'))).toEqual({ chat_id: GROUP });
    expect(eventChatRef(event('ticket.created'))).toEqual({ chat_id: GROUP });
    expect(eventChatRef(event('notification.created'))).toEqual({ chat_id: GROUP });
    expect(eventChatRef({ type: 'task.created', properties: { task: { ...task, associated_object_metadata: { id: 'tkt_9', type: 'ticket', object: {} } } } })).toEqual({ ticket_id: 'tkt_9' });
    expect(eventChatRef({ type: 'task.created', properties: { task: { ...task, associated_object_metadata: { id: 'c@c.us', type: 'chat' } } } })).toEqual({ chat_id: 'c@c.us' });
    expect(eventChatRef({ type: 'task.created', properties: { task: { ...task, associated_object_metadata: null } } })).toBeUndefined();
    expect(eventChatRef(event('phone.session_updated'))).toBeUndefined();
  });
});
