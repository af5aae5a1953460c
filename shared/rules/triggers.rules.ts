import type { TriggerType } from './rule.schemas.ts';
import { chatIdOfContactId, isOpaqueContactId } from '../contact/identity.rules.ts';

/**
 * Which rule triggers a bus event fires (issue 17 §1), pure. Each fired trigger carries its own
 * id (`trigger_id`): the event id, or for a trigger derived from a field change the event id
 * plus the detail (`…#label.added:lbl_1`), so action receipts (event id + rule id + index) stay
 * unique per trigger. `chat_created_candidate`: a customer message that may have opened a new
 * chat; the engine confirms it by reading whether the chat has older messages (only when a
 * rule listens to chat.created).
 *
 * Sources: message.received (customer), message.sent (team; private notes are note.created),
 * chat.updated (`changes` + `previous`: assigned_to, closed_at, label_ids, flagged_messages,
 * 'created'), ticket.created/updated/closed, task.created, task.reminder_due (task.due),
 * contact.created, contact.updated (`property_changes`: contact.property_changed, one per property),
 * message.reaction (a customer's reaction set: reaction.added).
 */
export interface FiredTrigger {
  trigger: TriggerType;
  trigger_id: string;
  /** label id for label.added / label.removed; message unique id for message.flagged */
  subject?: string;
}

export interface BusEventLike {
  'detail-type': string;
  detail: { properties: Record<string, unknown>; metadata: { id: string } };
}

const asList = (v: unknown): string[] => (Array.isArray(v) ? v.map(String) : []);
const asKeys = (v: unknown): string[] => (v && typeof v === 'object' ? Object.keys(v) : []);

export function triggersOf(e: BusEventLike): FiredTrigger[] {
  const p = e.detail.properties;
  const id = e.detail.metadata.id;
  const one = (trigger: TriggerType): FiredTrigger[] => [{ trigger, trigger_id: id }];
  switch (e['detail-type']) {
    case 'message.received': {
      const m = p.message as { from_me?: boolean; message_type?: string } | undefined;
      if (!m || m.from_me || m.message_type === 'reaction') return [];
      return one('message.received');
    }
    case 'message.sent': {
      const m = p.message as { is_private_note?: boolean } | undefined;
      return m?.is_private_note ? [] : one('message.sent');
    }
    case 'chat.updated': {
      const changes = asList(p.changes);
      const chat = (p.chat ?? {}) as Record<string, unknown>;
      const prev = (p.previous ?? {}) as Record<string, unknown>;
      const out: FiredTrigger[] = [];
      if (changes.includes('created')) out.push({ trigger: 'chat.created', trigger_id: `${id}#chat.created` });
      if (changes.includes('assigned_to') && chat.assigned_to) out.push({ trigger: 'chat.assigned', trigger_id: `${id}#chat.assigned` });
      if (changes.includes('closed_at')) {
        if (chat.closed_at) out.push({ trigger: 'chat.closed', trigger_id: `${id}#chat.closed` });
        else if ('closed_at' in prev && prev.closed_at) out.push({ trigger: 'chat.reopened', trigger_id: `${id}#chat.reopened` });
      }
      if (changes.includes('label_ids') && 'label_ids' in prev) {
        const before = asList(prev.label_ids);
        const after = asList(chat.label_ids);
        for (const l of after.filter((x) => !before.includes(x))) out.push({ trigger: 'label.added', trigger_id: `${id}#label.added:${l}`, subject: l });
        for (const l of before.filter((x) => !after.includes(x))) out.push({ trigger: 'label.removed', trigger_id: `${id}#label.removed:${l}`, subject: l });
      }
      if (changes.includes('flagged_messages')) {
        const before = 'flagged_messages' in prev ? asKeys(prev.flagged_messages) : [];
        for (const m of asKeys(chat.flagged_messages).filter((x) => !before.includes(x))) out.push({ trigger: 'message.flagged', trigger_id: `${id}#message.flagged:${m}`, subject: m });
      }
      return out;
    }
    case 'ticket.created':
      return one('ticket.created');
    case 'ticket.updated':
      return one('ticket.updated');
    case 'ticket.closed':
      return one('ticket.closed');
    case 'task.created':
      return one('task.created');
    case 'task.reminder_due':
      return one('task.due');
    case 'contact.created':
      return one('contact.created');
    case 'contact.updated': {
      // one trigger per custom property that changed (the rule may name one: trigger.property_id)
      const changes = Array.isArray(p.property_changes) ? (p.property_changes as Array<{ property_id?: string }>) : [];
      return changes.filter((c) => typeof c.property_id === 'string').map((c) => ({ trigger: 'contact.property_changed' as const, trigger_id: `${id}#prop:${c.property_id}`, subject: c.property_id }));
    }
    case 'message.reaction': {
      // a customer's reaction set (not removed, not ours): 'a reaction is received'
      const r = p.reaction as { emoji?: string | null; from_me?: boolean } | undefined;
      return r && !r.from_me && r.emoji ? one('reaction.added') : [];
    }
    default:
      return [];
  }
}

/** The bus events the rules consumer subscribes to (events/catalog.ts; a test keeps them equal). */
export const RULE_BUS_EVENTS = ['message.received', 'message.sent', 'chat.updated', 'ticket.created', 'ticket.updated', 'ticket.closed', 'task.created', 'task.reminder_due', 'contact.created', 'contact.updated', 'message.reaction'] as const;

/** The chat an event is about (chat snapshot, message, ticket or task link), if any. */
export function chatIdOf(e: BusEventLike): string | null {
  const p = e.detail.properties as Record<string, { chat_id?: unknown; associated_object_metadata?: { type?: string; id?: string } } | unknown>;
  const chat = p.chat as { chat_id?: string } | undefined;
  if (chat?.chat_id) return chat.chat_id;
  if (typeof (p as { chat_id?: unknown }).chat_id === 'string') return (p as { chat_id: string }).chat_id;
  const msg = p.message as { chat_id?: string } | undefined;
  if (msg?.chat_id) return msg.chat_id;
  const ticket = p.ticket as { chat_id?: string } | undefined;
  if (ticket?.chat_id) return ticket.chat_id;
  const task = p.task as { associated_object_metadata?: { type?: string; id?: string } | null } | undefined;
  if (task?.associated_object_metadata?.type === 'chat' && task.associated_object_metadata.id) return task.associated_object_metadata.id;
  // a contact's 1:1 chat (a number's `{digits}@c.us`, or issue 41's opaque `ctc_X` -> `cht_X`); it may not exist yet
  const contact = p.contact as { contact_id?: string } | undefined;
  if (e['detail-type'].startsWith('contact.') && contact?.contact_id && (/^\d+$/.test(contact.contact_id) || isOpaqueContactId(contact.contact_id))) return chatIdOfContactId(contact.contact_id);
  return null;
}

/** What the loop guard needs to know about the event and the rule besides the causation (issue 42 §4). */
export interface LoopGuardOptions {
  /** the bus event's detail-type (`message.sent`: a message of the team, or of automation when a rule caused it) */
  eventType?: string;
  /** the rule would send the chat's customer a message (send_message, send_template, follow_up) */
  sendsMessage?: boolean;
  /** the rule's `allow_after_automation` flag: it may answer another rule's automatic message */
  allowAfterAutomation?: boolean;
}

/**
 * The loop guard (issue 17 §4, issue 42 §4): may `ruleId` evaluate an event with this causation?
 * Not when the rule itself caused the event (anywhere along the chain), nor past `maxDepth` rule
 * hops, nor — unless the rule allows it (`allowAfterAutomation`) — when the event is an automatic
 * message (a `message.sent` a rule caused) and the rule would send a message in answer: a chain of
 * automatic messages to a customer stops at the first one an automatic message would cause, so two
 * rules "message sent → send a message" send one message each, not four. Rule actions always act on
 * the event's own chat, so that message would go to the same chat. Pure.
 * @returns the reason in words (the rule log), or null when the rule may run
 */
export function loopGuard(causation: { rule_ids?: string[]; depth?: number } | undefined, ruleId: string, maxDepth: number, opts: LoopGuardOptions = {}): string | null {
  if (!causation) return null;
  if (causation.rule_ids?.includes(ruleId)) return 'the event was caused by this rule’s own action (loop guard)';
  if ((causation.depth ?? 0) >= maxDepth) return `the event is ${causation.depth} rule hops deep (loop guard, at most ${maxDepth})`;
  const automaticMessage = opts.eventType === 'message.sent' && (causation.rule_ids?.length ?? 0) > 0;
  if (automaticMessage && opts.sendsMessage && !opts.allowAfterAutomation) return 'the message was sent automatically by another rule, and this rule does not answer automatic messages with a message (loop guard; “may follow another rule” is off)';
  return null;
}
