import { chatGuard, type ChatGuard } from '../access/guard.ts';
import { config } from '../config.ts';
import type { Actor } from '../auth/actor.ts';
import type { Message } from '../message/message.schemas.ts';
import type { Ticket } from '../ticket/ticket.schemas.ts';
import type { Task } from '../task/task.schemas.ts';
import type { Notification } from '../notification/notification.schemas.ts';
import type { OutboundEvent, WebhookPayload } from './webhook.rules.ts';

/**
 * Payload data of outbound events, shaped for an org-level integration through the one access
 * and masking guard (shared/access/guard.ts): the integration acts as a non-admin org actor, so
 * with the org's `mask_phone_numbers` on, every number in chats, messages, tickets, tasks and
 * notifications is masked (spec §6), exactly as a member would see it; chats restricted with
 * `chat_access` come as their ids only (viewChat's rule). Standard Webhooks envelope:
 * `{ type, timestamp, data }`.
 */
export const integrationActor = (orgId: string): Actor => ({ email: 'integration@chorus.invalid', user_id: 'integration', org_id: orgId, role: 'member' });

export async function integrationGuard(orgId: string): Promise<ChatGuard> {
  return chatGuard(integrationActor(orgId));
}

type Props = Record<string, unknown>;

/** The `data` of a public event from its bus event's properties, through the guard's view functions. */
export function viewData(g: ChatGuard, type: OutboundEvent, p: Props): Record<string, unknown> {
  const chat = p.chat ? g.viewChat(p.chat as Record<string, unknown>) : undefined;
  const message = p.message ? g.viewMessage(p.message as Message) : undefined;
  switch (type) {
    case 'message.received':
    case 'message.sent':
    case 'chat.new_unassigned':
      return { chat, message };
    case 'message.status_updated':
      return { chat_id: p.chat_id, message };
    case 'chat.assigned':
    case 'chat.closed':
      return { chat, changes: p.changes };
    case 'ticket.created':
    case 'ticket.updated':
    case 'ticket.closed':
      return { ticket: g.viewTicket(p.ticket as Ticket), changes: p.changes ?? [] };
    case 'task.created':
    case 'task.updated':
    case 'task.reminder_due':
      return { task: g.viewTask(p.task as Task), ...(p.actions ? { actions: p.actions } : {}) };
    case 'mention.created':
      return { notification: g.viewNotification(p.notification as Notification), email: p.email };
    default:
      return { ...p };
  }
}

export const envelope = (type: OutboundEvent, at: number, data: Record<string, unknown>): WebhookPayload => ({ type, timestamp: new Date(at).toISOString(), data });

const esc = (s: unknown) => String(s ?? '').replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
const excerpt = (s: unknown, n = 200) => {
  const t = String(s ?? '').replace(/\s+/g, ' ').trim();
  return t.length > n ? `${t.slice(0, n - 1)}…` : t;
};

/**
 * A Slack incoming-webhook body (Block Kit: `text` fallback + one mrkdwn section and a context
 * line) for a Slack event's data (already masked by viewData).
 */
export function slackBody(type: OutboundEvent, data: Record<string, unknown>): { text: string; blocks: unknown[] } {
  const app = (config().APP_URL || '').replace(/\/+$/, '');
  const link = (path: string, label: string) => (app ? ` <${app}${path}|${label}>` : '');
  let text: string;
  if (type === 'chat.new_unassigned') {
    const chat = (data.chat ?? {}) as Record<string, unknown>;
    const msg = (data.message ?? {}) as Record<string, unknown>;
    const who = chat.chat_name || chat.chat_id;
    text = `:incoming_envelope: New unassigned chat from *${esc(who)}*: “${esc(excerpt(msg.body || `[${msg.message_type ?? 'message'}]`))}”${link(`/chats/${encodeURIComponent(String(chat.chat_id ?? ''))}`, 'Open in Chorus')}`;
  } else if (type === 'mention.created') {
    const n = (data.notification ?? {}) as Record<string, unknown>;
    text = `:speech_balloon: ${esc(n.title)}${n.body ? `: “${esc(excerpt(n.body))}”` : ''}${n.chat_id ? link(`/chats/${encodeURIComponent(String(n.chat_id))}`, 'Open the chat') : ''}`;
  } else if (type === 'sla.breached') {
    text = `:rotating_light: SLA breached${data.ticket ? ` on ticket *${esc((data.ticket as Record<string, unknown>).subject)}*` : ''}`;
  } else if (type === 'webhook.test') {
    text = ':white_check_mark: Chorus is connected to this Slack channel.';
  } else {
    text = `Chorus: ${type}`;
  }
  return { text: text.replace(/<[^|>]*\|([^>]*)>/g, '$1').replace(/\*/g, ''), blocks: [{ type: 'section', text: { type: 'mrkdwn', text } }, { type: 'context', elements: [{ type: 'mrkdwn', text: `Chorus · ${type}` }] }] };
}
