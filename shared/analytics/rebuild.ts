import { encodeTime } from 'ulid';
import { db } from '../db/service.ts';
import { chatFactsOf } from './analytics-events.ts';
import { clearDailyRows, putDailyRows, rollUpRows } from './analytics.ts';
import { getOrgClock } from '../org/org-clock.ts';
import { DIMENSIONS, EMPTY_STATE, reduce, type AnalyticsInput, type Increment } from './analytics.rules.ts';

/**
 * `npm run analytics:rebuild` (issue 19): recompute an org's daily aggregate rows for a range of
 * UTC days from the table, by key and index Queries only (no Scan):
 *   - chats with a message since the range's start: the org's recent-chats index (ACCESS_PATTERNS 8),
 *     newest first, stopping at the start;
 *   - each chat's messages in the range: its message partition between two timestamps (9), replayed
 *     in order through the same rules as the live consumer (analytics.rules.ts reduce), with the
 *     chat's last close (`closed_at`) when it falls in the range;
 *   - tickets created in the range: the org's tickets between two ULID times (14); resolved: the
 *     closed-status index (15) with `closed_at` in the range.
 * Assignment counts have no history in the table: the rows' `assigned` counters are carried over.
 * Conversations still open at the range's start begin at their first message in the range.
 * Then the range's rows are deleted and written anew, and the week and month roll-up rows the range
 * touches are summed again from the day rows (rollUpRows). Days are the org's (its time zone,
 * getOrgClock): the table is read from a day before `from` to a day after `to` (UTC bounds) and
 * only increments on the org's days [from, to] are kept. Times: epoch ms.
 */
export interface RebuildProgress {
  chats: number;
  messages: number;
  tickets: number;
  rows: number;
  phase: 'chats' | 'tickets' | 'writing' | 'done';
}

const NOT_TRAFFIC = new Set(['reaction', 'system', 'revoked', 'e2e_notification', 'notification_template']);

export async function rebuildAnalytics(orgId: string, from: string, to: string, onProgress: (p: RebuildProgress) => void = () => undefined): Promise<RebuildProgress> {
  const tz = (await getOrgClock(orgId)).time_zone;
  // the org's days lie within a day of UTC's: read one day more on each side, keep [from, to]
  const start = Date.parse(`${from}T00:00:00Z`) - 86_400_000;
  const end = Date.parse(`${to}T23:59:59.999Z`) + 86_400_000;
  const p: RebuildProgress = { chats: 0, messages: 0, tickets: 0, rows: 0, phase: 'chats' };
  const increments: Increment[] = [];

  let cursor: string | null = null;
  do {
    const page: { data: Array<Record<string, unknown>>; cursor: string | null } = await db()
      .entities.chat.query.byRecent({ org_id: orgId })
      .gte({ latest_message_timestamp: start })
      .go({ order: 'desc', limit: 200, cursor, pages: 1 });
    for (const chat of page.data) {
      const facts = chatFactsOf(chat);
      const inputs: AnalyticsInput[] = [];
      let mc: string | null = null;
      do {
        const msgs: { data: Array<Record<string, unknown>>; cursor: string | null } = await db()
          .entities.message.query.byChat({ org_id: orgId, chat_id: facts.chat_id })
          .between({ timestamp: start }, { timestamp: end })
          .go({ limit: 1000, cursor: mc, pages: 1 });
        for (const m of msgs.data) {
          if (m.is_private_note || NOT_TRAFFIC.has(String(m.message_type))) continue;
          const at = Number(m.timestamp);
          inputs.push(m.from_me ? { kind: 'message_out', at, chat: facts, member: typeof m.author === 'string' && m.author.includes('@') && !m.author.includes('@c.us') ? m.author : null } : { kind: 'message_in', at, chat: facts, author: (m.author as string | null | undefined) ?? null });
        }
        p.messages += msgs.data.length;
        mc = msgs.cursor;
      } while (mc);
      const closedAt = chat.closed_at as number | undefined;
      if (closedAt && closedAt >= start && closedAt <= end) inputs.push({ kind: 'chat_closed', at: closedAt, chat: facts, by: (chat.closed_by as string | undefined) ?? null });
      inputs.sort((a, b) => a.at - b.at);
      let state = { ...EMPTY_STATE };
      for (const input of inputs) {
        const r = reduce(state, input, tz);
        state = r.state;
        increments.push(...r.increments);
      }
      p.chats++;
      if (p.chats % 100 === 0) onProgress({ ...p });
    }
    cursor = page.cursor;
  } while (cursor);
  onProgress({ ...p, phase: 'tickets' });

  const created = await db()
    .entities.ticket.query.byId({ org_id: orgId })
    .between({ ticket_id: `tkt_${encodeTime(start, 10)}` }, { ticket_id: `tkt_${encodeTime(end, 10)}Z` })
    .go({ pages: 'all', attributes: ['ticket_id', 'created_at', 'phone_id', 'assignee'] });
  for (const t of created.data) increments.push(...reduce(EMPTY_STATE, { kind: 'ticket_created', at: t.created_at, phone_id: t.phone_id, assignee: t.assignee ?? null }, tz).increments);
  const closed = await db()
    .entities.ticket.query.byStatus({ org_id: orgId, status: 'closed' })
    .where((a, { between }) => between(a.closed_at, start, end))
    .go({ pages: 'all', attributes: ['ticket_id', 'closed_at', 'phone_id', 'assignee'] });
  for (const t of closed.data) increments.push(...reduce(EMPTY_STATE, { kind: 'ticket_resolved', at: t.closed_at!, phone_id: t.phone_id, assignee: t.assignee ?? null }, tz).increments);
  p.tickets = created.data.length + closed.data.length;

  // issue 17 §6: SLA breaches from the breach report (keyed by due time: one range Query), with the chat's facts at the breach
  const breaches = await db()
    .entities.slaBreach.query.byOrg({ org_id: orgId })
    .between({ breach_id: String(start).padStart(15, '0') }, { breach_id: `${String(end).padStart(15, '0')}\uffff` })
    .go({ pages: 'all' });
  for (const b of breaches.data) {
    const chat = chatFactsOf({ chat_id: b.chat_id, phone_id: b.phone_id ?? 'unknown', label_ids: b.label_ids ?? [], assigned_to: b.assignee ?? null });
    increments.push(...reduce(EMPTY_STATE, { kind: 'sla_breached', at: b.due_at, chat }, tz).increments);
  }

  // assignment counts are carried over (no history of assignments in the table)
  onProgress({ ...p, phase: 'writing' });
  for (const dim of DIMENSIONS.filter((d) => d === 'org' || d === 'member')) {
    const rows = await db().entities.analyticsDaily.query.byDay({ org_id: orgId, dim }).between({ day: from, dim_id: '' }, { day: to, dim_id: '\uffff' }).go({ pages: 'all' });
    for (const r of rows.data) if (r.assigned) increments.push({ dim, dim_id: r.dim_id, day: r.day, counters: { assigned: r.assigned } });
  }
  await clearDailyRows(orgId, from, to);
  p.rows = await putDailyRows(orgId, increments.filter((i) => i.day >= from && i.day <= to));
  p.rows += await rollUpRows(orgId, from, to);
  p.phase = 'done';
  onProgress({ ...p });
  return p;
}
