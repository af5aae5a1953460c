/**
 * Rules in words (the editor and the list read like a sentence, issue 17 §10): pure helpers over
 * the rule schema, with label ids shown as their names.
 */
import { OP_WORDS } from '#shared/rules/conditions.rules.ts';
import type { Action, Condition, ConditionGroup, Conditions, Trigger, TriggerType } from '#shared/rules/rule.schemas.ts';

export const TRIGGER_LABELS: Record<TriggerType, string> = {
  'message.received': 'a message is received',
  'message.sent': 'a message is sent by the team',
  'chat.created': 'a chat is created',
  'chat.reopened': 'a chat is reopened',
  'chat.assigned': 'a chat is assigned',
  'chat.closed': 'a chat is closed',
  'label.added': 'a label is added',
  'label.removed': 'a label is removed',
  'message.flagged': 'a message is flagged',
  'ticket.created': 'a ticket is created',
  'ticket.updated': 'a ticket is updated',
  'ticket.closed': 'a ticket is closed',
  'task.created': 'a task is created',
  'task.due': 'a task is due',
  no_reply: 'nobody replies to the customer',
  'contact.created': 'a contact is created',
  'contact.property_changed': 'a contact property changes',
  'reaction.added': 'a reaction is received',
};

export const FIELD_LABELS: Record<string, string> = {
  'message.body': 'the message text',
  'message.type': 'the message type',
  'message.from_me': 'the message is from us',
  'message.number': 'the sender number',
  'chat.labels': 'the chat labels',
  'chat.assignee': 'the chat assignee',
  'chat.type': 'the chat type',
  'chat.unread': 'the unread count',
  'chat.closed': 'the chat is closed',
  'chat.phone': 'our number',
  'contact.name': 'the contact name',
  'contact.labels': 'the contact labels',
  'ticket.status': 'the ticket status',
  'ticket.priority': 'the ticket priority',
  'ticket.subject': 'the ticket subject',
  'ticket.assignee': 'the ticket assignee',
  'time.business_hours': 'it is business hours',
  'time.weekday': 'the weekday',
  'time.date': 'the date',
  'time.hour': 'the hour',
  'reaction.emoji': 'the reaction emoji',
};

/** The operators in words: the same wording as the rule log's (shared/rules/conditions.rules.ts). */
export const OP_LABELS = OP_WORDS;

export const ACTION_LABELS: Record<Action['type'], string> = {
  send_message: 'send a message',
  send_template: 'send a WhatsApp template',
  assign: 'assign the chat',
  unassign: 'unassign the chat',
  add_label: 'add a label',
  remove_label: 'remove a label',
  close: 'close the chat',
  reopen: 'reopen the chat',
  snooze: 'snooze the chat',
  private_note: 'add a private note',
  create_ticket: 'create a ticket',
  create_task: 'create a task',
  notify: 'notify a member',
  webhook: 'call a webhook',
  follow_up: 'follow up if the customer stays silent',
  set_property: 'set a custom property',
  flag_message: 'flag the message',
};

const isGroup = (x: Condition | ConditionGroup): x is ConditionGroup => 'match' in x;
const noValue = (op: Condition['op']) => op === 'is_known' || op === 'is_unknown';

export function triggerText(t: Trigger): string {
  if (t.type === 'contact.property_changed' && t.property_id) return `the contact property ${t.property_id} changes`;
  return t.type === 'no_reply' ? `nobody replies to the customer within ${t.minutes} ${t.business_hours ? 'business-hour ' : ''}min` : TRIGGER_LABELS[t.type];
}

export function conditionText(c: Condition, labelName: (id: string) => string): string {
  const field = FIELD_LABELS[c.field] ?? c.field.replace(/^(chat\.custom_properties|contact\.properties)\./, 'property ');
  const v = Array.isArray(c.value) ? c.value.join(', ') : String(c.value ?? '');
  const shown = c.field.endsWith('labels') ? labelName(v) : v;
  return noValue(c.op) ? `${field} ${OP_LABELS[c.op]}` : `${field} ${OP_LABELS[c.op]} “${shown}”`;
}

export function conditionsText(g: Conditions | ConditionGroup, labelName: (id: string) => string, nested = false): string {
  if (!g.items.length) return '';
  const joiner = g.match === 'all' ? ' and ' : ' or ';
  const s = g.items.map((i) => (isGroup(i) ? conditionsText(i, labelName, true) : conditionText(i, labelName))).join(joiner);
  return nested && g.items.length > 1 ? `(${s})` : s;
}

export function actionText(a: Action, labelName: (id: string) => string): string {
  const delay = 'delay_minutes' in a && a.delay_minutes ? ` after ${a.delay_minutes} ${'business_hours' in a && a.business_hours ? 'business-hour ' : ''}min` : '';
  switch (a.type) {
    case 'send_message':
      return `send “${a.body}”${delay}`;
    case 'send_template':
      return `send the template ${a.name} (${a.language})${delay}`;
    case 'assign':
      return (a.mode === 'member' ? `assign to ${a.member}` : a.mode === 'round_robin' ? 'assign round-robin among online members' : 'assign to the least busy member') + delay;
    case 'add_label':
      return `add label ${labelName(a.label_id)}${delay}`;
    case 'remove_label':
      return `remove label ${labelName(a.label_id)}${delay}`;
    case 'snooze':
      return `snooze for ${a.minutes} min${delay}`;
    case 'private_note':
      return `add a note “${a.body}”${delay}`;
    case 'create_ticket':
      return `create a ticket “${a.subject}”${delay}`;
    case 'create_task':
      return `create a task “${a.title}”${delay}`;
    case 'notify':
      return `notify ${a.member}${delay}`;
    case 'webhook':
      return `call ${a.url}${delay}`;
    case 'set_property':
      return `set property ${a.property_id} to “${a.value}”${delay}`;
    case 'follow_up':
      return `follow up with “${a.body}” after ${a.after_minutes} ${a.business_hours ? 'business-hour ' : ''}min of silence (up to ${a.repeat}×${a.then === 'close' ? ', then close' : a.then === 'label' ? `, then label ${labelName(a.then_label_id ?? '')}` : ''})`;
    default:
      return ACTION_LABELS[a.type] + delay;
  }
}

/** "When a message is received and the chat labels contain “VIP”, assign to ana@… and add label VIP." */
export function ruleSentence(r: { trigger: Trigger; conditions: Conditions; actions: Action[] }, labelName: (id: string) => string): string {
  const cond = conditionsText(r.conditions, labelName);
  return `When ${triggerText(r.trigger)}${cond ? ` and ${cond}` : ''}, ${r.actions.map((a) => actionText(a, labelName)).join(', then ')}.`;
}

/**
 * Why a paused rule or SLA policy is off, in words (issue 42 §1: its owner lost the rights it acts
 * with), for the card on /rules; null when it is not paused. `paused_at` epoch ms.
 */
export function pausedText(p: { paused_reason?: string | null; paused_at?: number | null }, when: (at: number) => string = (at) => new Date(at).toLocaleString()): string | null {
  if (!p.paused_reason) return null;
  return `Paused${p.paused_at ? ` ${when(p.paused_at)}` : ''}: ${p.paused_reason}. Turn it on again to make it act with your rights.`;
}
