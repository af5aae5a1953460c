import type { AnalyticsInput, ChatFacts } from './analytics.rules.ts';

/**
 * Bus events -> analytics inputs (issue 19). Each returned input carries the suffix that makes its
 * receipt id unique within the event (an event may cause two inputs, e.g. a close and an assign).
 * Private notes, reactions and system messages are not conversation traffic.
 * Times: epoch ms.
 */
const NOT_TRAFFIC = new Set(['reaction', 'system', 'revoked', 'e2e_notification', 'notification_template']);

export function chatFactsOf(chat: Record<string, unknown>): ChatFacts {
  return {
    chat_id: String(chat.chat_id),
    chat_type: (chat.chat_type as ChatFacts['chat_type']) ?? (String(chat.chat_id).endsWith('@g.us') ? 'group' : 'user'),
    phone_id: String(chat.phone_id ?? 'unknown'),
    label_ids: ((chat.label_ids as string[] | null | undefined) ?? []).slice(0, 20),
    assigned_to: (chat.assigned_to as string | null | undefined) ?? null,
  };
}

const memberOf = (actor: string): string | null => (actor.startsWith('user:') ? actor.slice(5).toLowerCase() : null);

/** The inputs of one catalogue event (none for events that do not count). */
export function inputsOfEvent(name: string, properties: Record<string, unknown>, metadata: { actor: string; occurred_at: string }): Array<{ suffix: string; input: AnalyticsInput }> {
  const occurred = Date.parse(metadata.occurred_at) || Date.now();
  switch (name) {
    case 'message.received':
    case 'message.sent': {
      const m = properties.message as Record<string, unknown>;
      if (m.is_private_note || NOT_TRAFFIC.has(String(m.message_type))) return [];
      const chat = chatFactsOf(properties.chat as Record<string, unknown>);
      const at = Number(m.timestamp) || occurred;
      if (name === 'message.received') return [{ suffix: '', input: { kind: 'message_in', at, chat, author: (m.author as string | null | undefined) ?? null } }];
      return [{ suffix: '', input: { kind: 'message_out', at, chat, member: memberOf(metadata.actor) } }];
    }
    case 'chat.updated': {
      const chat = properties.chat as Record<string, unknown>;
      const changes = (properties.changes as string[]) ?? [];
      const out: Array<{ suffix: string; input: AnalyticsInput }> = [];
      if (changes.includes('closed_at') && typeof chat.closed_at === 'number') out.push({ suffix: '#closed', input: { kind: 'chat_closed', at: chat.closed_at, chat: chatFactsOf(chat), by: (chat.closed_by as string | undefined) ?? memberOf(metadata.actor) } });
      if (changes.includes('assigned_to') && typeof chat.assigned_to === 'string' && chat.assigned_to) out.push({ suffix: '#assigned', input: { kind: 'chat_assigned', at: occurred, chat: chatFactsOf(chat), to: chat.assigned_to } });
      return out;
    }
    case 'ticket.created':
    case 'ticket.closed': {
      const t = properties.ticket as Record<string, unknown>;
      const phone_id = String(t.phone_id ?? 'unknown');
      const assignee = (t.assignee as string | null | undefined) ?? null;
      if (name === 'ticket.created') return [{ suffix: '', input: { kind: 'ticket_created', at: Number(t.created_at) || occurred, phone_id, assignee } }];
      return [{ suffix: '', input: { kind: 'ticket_resolved', at: Number(t.closed_at) || occurred, phone_id, assignee } }];
    }
    default:
      return [];
  }
}
