import { envelope } from './payload.ts';
import { PUBLIC_EVENTS, type PublicEvent, type WebhookPayload } from './webhook.rules.ts';

/**
 * Sample payloads per trigger (issue 20 item 5: Zapier's and Pabbly's "test trigger" / field
 * mapping), in the exact envelope deliveries use. Static, realistic, masked-looking data.
 */
const AT = Date.UTC(2026, 10, 25, 9, 30);
const chat = { org_id: 'org_sample', chat_id: '447700900123@c.us', chat_type: 'user', chat_name: 'Ana Silva', org_phone: '15550783881', phone_id: '106540352242922', assigned_to: null, label_ids: [], latest_message_timestamp: AT, message_unread_count: 1 };
const message = { chat_id: chat.chat_id, unique_id: '01JDS5V3Q6Y8M2T7K9W4R1N0PX', message_id: 'wamid.HBgLNDQ3NzAwOTAwMTIzFQIAEhgg', timestamp: AT, from_me: false, ack: 0, message_type: 'text', body: 'Hi, is my order shipped?', sender: '447700900123' };
const ticket = { org_id: 'org_sample', ticket_id: 'tkt_01JDS5X0A1B2C3D4E5F6G7H8J9', subject: 'Order 1042 not delivered', chat_id: chat.chat_id, chat_name: 'Ana Silva', status: 'open', priority: 2, assignee: 'agent@example.com', created_by: 'agent@example.com', created_at: AT, last_updated_at: AT, labels: [], due_date: null };
const task = { org_id: 'org_sample', task_id: 'task_01JDS5Y9Z8X7W6V5T4S3R2Q1P0', title: 'Call Ana back about the refund', type: 'chat', status: 'open', priority: 2, assignee: 'agent@example.com', created_by: 'lead@example.com', created_at: AT, due_date: AT + 3600_000, remind_at: AT + 3000_000, notes: '' };

const DATA: Record<PublicEvent, Record<string, unknown>> = {
  'message.received': { chat, message },
  'message.sent': { chat, message: { ...message, from_me: true, body: 'Yes! It left our warehouse this morning.', author: 'agent@example.com' } },
  'message.status_updated': { chat_id: chat.chat_id, message: { ...message, from_me: true, ack: 3, body: 'Yes! It left our warehouse this morning.' } },
  'chat.assigned': { chat: { ...chat, assigned_to: 'agent@example.com' }, changes: ['assigned_to'] },
  'chat.closed': { chat: { ...chat, closed_at: AT + 60_000, closed_by: 'agent@example.com' }, changes: ['closed_at'] },
  'ticket.created': { ticket, changes: [] },
  'ticket.updated': { ticket: { ...ticket, status: 'inprogress' }, changes: ['status'] },
  'ticket.closed': { ticket: { ...ticket, status: 'closed', closed_at: AT + 7200_000 }, changes: ['status'] },
  'task.created': { task, actions: ['TASK_CREATED'] },
  'task.updated': { task: { ...task, status: 'closed' }, actions: ['STATUS_CHANGED'] },
  'task.reminder_due': { task },
};

/** The sample payload of a trigger. */
export function samplePayload(event: PublicEvent): WebhookPayload {
  return envelope(event, AT, DATA[event]);
}

/** Every trigger with its sample (the settings pages and `GET …/hooks/samples`). */
export const allSamples = () => PUBLIC_EVENTS.map((e) => samplePayload(e));
