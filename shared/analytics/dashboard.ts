import { getOrgClock } from '../org/org-clock.ts';
import { dayOf } from './analytics.rules.ts';
import { db } from '../db/service.ts';
import { chatCounts } from '../chat/chat-list.ts';
import { getTicketBadge } from '../ticket/ticket.ts';
import { listPhoneViews } from '../phone/phone.ts';
import { queueStatus, type QueueStatus } from '../ports/queue-status.ts';
import type { Actor } from '../auth/actor.ts';
import { phoneHealth, type PhoneHealth } from './dashboard.rules.ts';

/**
 * /dashboard (issue 19; spec §2: a summary of stats; platform orgs: phone and queue status).
 * Every figure is a counter or key/index read: the chat counters (open, unassigned, unread, mine),
 * the ticket badge counter, the caller's tasks (one index Query, at most 1,000), the phone list,
 * today's hourly aggregate rows, and for platform orgs the queue status port plus the newest chat
 * (one index item). Times are epoch ms.
 */
export interface Dashboard {
  is_platform: boolean;
  today: { open: number; unassigned: number; unread: number; mine: number; my_open_tickets: number; overdue_tasks: number; messages_in: number; messages_out: number; conversations_opened: number };
  phones: Array<{ phone_id: string; org_phone: string; verified_name: string | null; connection_type: string; health: PhoneHealth }>;
  /** platform orgs only; null where the runtime exposes no queue status */
  queues: QueueStatus[] | null;
  /** epoch ms of the newest message the org received or sent (the last webhook's effect), null when none */
  last_activity_at: number | null;
}

/** Overdue = open or in progress, with a due date before now; the caller's tasks only (index Query, ≤ 1,000). */
async function overdueTasks(actor: Actor, now: number): Promise<number> {
  const res = await db()
    .entities.task.query.byAssignee({ org_id: actor.org_id, assignee_key: actor.email.toLowerCase() })
    .where((a, { lt, ne }) => `${lt(a.due_date, now)} AND ${ne(a.status, 'closed')}`)
    .go({ pages: 'all', limit: 1000, attributes: ['task_id'] });
  return res.data.length;
}

export async function readDashboard(actor: Actor, now = Date.now()): Promise<Dashboard> {
  const today = dayOf(now, (await getOrgClock(actor.org_id)).time_zone); // the org's day (its hourly rows are in its zone)
  const [org, counts, badge, overdue, phones, hours, newest] = await Promise.all([
    db().entities.organization.get({ org_id: actor.org_id }).go({ attributes: ['is_platform'] }),
    chatCounts(actor),
    getTicketBadge(actor),
    overdueTasks(actor, now),
    listPhoneViews(actor),
    db().entities.analyticsHourly.query.byHour({ org_id: actor.org_id }).begins({ hour: today }).go({ pages: 'all' }),
    db().entities.chat.query.byRecent({ org_id: actor.org_id }).go({ order: 'desc', limit: 1, pages: 1, attributes: ['latest_message_timestamp'] }),
  ]);
  const isPlatform = !!(org.data as { is_platform?: boolean } | null)?.is_platform;
  const open = counts.counts.open;
  const sum = (k: 'msg_in' | 'msg_out' | 'conv_opened') => hours.data.reduce((n, h) => n + Number(h[k] ?? 0), 0);
  return {
    is_platform: isPlatform,
    today: { open: open.total, unassigned: open.unassigned, unread: open.unread, mine: open.mine, my_open_tickets: badge, overdue_tasks: overdue, messages_in: sum('msg_in'), messages_out: sum('msg_out'), conversations_opened: sum('conv_opened') },
    phones: phones.phones.map((p) => ({ phone_id: p.phone_id, org_phone: p.org_phone, verified_name: p.verified_name ?? null, connection_type: p.connection_type ?? 'wa_cloud', health: phoneHealth(p) })),
    queues: isPlatform ? await queueStatus() : null,
    last_activity_at: (newest.data[0] as { latest_message_timestamp?: number } | undefined)?.latest_message_timestamp ?? null,
  };
}
