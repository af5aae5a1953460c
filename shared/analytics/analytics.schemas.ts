import { z } from 'zod';
import { AUDIT_AREAS } from '../audit/audit.rules.ts';

/** A calendar day 'YYYY-MM-DD' that exists (a day of the org's time zone). */
const day = z
  .string()
  .regex(/^\d{4}-\d{2}-\d{2}$/, 'must be a date YYYY-MM-DD')
  .refine((d) => !Number.isNaN(Date.parse(`${d}T00:00:00Z`)) && new Date(`${d}T00:00:00Z`).toISOString().startsWith(d), 'is not a real date');

/** GET /analytics and /analytics/export.csv: `from` and `to`, both inclusive (the org's days). */
export const AnalyticsQuery = z.object({ from: day, to: day });

const epochMs = z.coerce.number({ invalid_type_error: 'must be epoch ms' }).int('must be epoch ms').min(0, 'must be epoch ms').max(9_999_999_999_999, 'must be epoch ms');

/** GET /logs/audit: filters (area, actor email, time range in epoch ms) and paging. */
export const AuditLogQuery = z.object({
  area: z.enum(AUDIT_AREAS).optional(),
  actor: z.string().trim().min(1).max(254, 'is too long').optional(),
  from: epochMs.optional(),
  to: epochMs.optional(),
  cursor: z.string().min(1).max(2048).optional(),
  limit: z.coerce.number().int().min(1, 'must be 1 to 100').max(100, 'must be 1 to 100').optional(),
});

/** Wire figures of some totals (averages in ms, null without samples). */
export interface Figures {
  conversations_opened: number;
  conversations_closed: number;
  messages_in: number;
  messages_out: number;
  first_response_ms: number | null;
  response_ms: number | null;
  resolution_ms: number | null;
  tickets_created: number;
  tickets_resolved: number;
  assigned: number;
  /** SLA targets breached (issue 17 §6), on the day they were due */
  sla_breaches: number;
}

/** Analytics of a date range (GET /analytics). Days and hours are the org's (`time_zone`). */
export interface AnalyticsReport {
  from: string;
  to: string;
  /** the org's IANA time zone, the one days and hours are counted in */
  time_zone: string;
  /** today in the org's zone, 'YYYY-MM-DD' */
  today: string;
  /** false on plans without advanced analytics (spec §9: Starter): previous and busiest_hours are then null (and /analytics/breakdown and /groups answer 403) */
  advanced: boolean;
  previous: { from: string; to: string; totals: Figures } | null;
  totals: Figures;
  /** one entry per day of the range */
  series: Array<{ day: string } & Figures>;
  /** messages (in + out) by the org's hour of day over the range, 24 entries (null without advanced analytics) */
  busiest_hours: number[] | null;
  /** today's hours (the org's, 'YYYY-MM-DDTHH') when the range includes today: messages in/out per hour */
  today_hours: Array<{ hour: string; messages_in: number; messages_out: number }> | null;
}


/** GET /analytics/groups: group chats by messages, most first (at most 20), each with its most active senders (at most 5). */
export interface AnalyticsGroups {
  from: string;
  to: string;
  groups: Array<{ chat_id: string; messages: number; top_members: Array<{ author: string; messages: number }> }>;
}

/** GET /analytics/breakdown: the range's figures per member, number and label (advanced analytics). */
export interface AnalyticsBreakdown {
  from: string;
  to: string;
  members: Array<{ email: string } & Figures>;
  phones: Array<{ phone_id: string } & Figures>;
  labels: Array<{ label_id: string } & Figures>;
}
