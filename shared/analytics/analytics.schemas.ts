import { z } from 'zod';
import { AUDIT_AREAS } from '../audit/audit.rules.ts';

/** A calendar day 'YYYY-MM-DD' (UTC) that exists. */
const day = z
  .string()
  .regex(/^\d{4}-\d{2}-\d{2}$/, 'must be a date YYYY-MM-DD')
  .refine((d) => !Number.isNaN(Date.parse(`${d}T00:00:00Z`)) && new Date(`${d}T00:00:00Z`).toISOString().startsWith(d), 'is not a real date');

/** GET /analytics and /analytics/export.csv: `from` and `to`, both inclusive (UTC days). */
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
}

/** Analytics of a date range (GET /analytics). */
export interface AnalyticsReport {
  from: string;
  to: string;
  previous: { from: string; to: string; totals: Figures };
  totals: Figures;
  /** one entry per day of the range */
  series: Array<{ day: string } & Figures>;
  /** messages (in + out) by UTC hour of day over the range, 24 entries */
  busiest_hours: number[];
  members: Array<{ email: string } & Figures>;
  phones: Array<{ phone_id: string } & Figures>;
  labels: Array<{ label_id: string } & Figures>;
  /** group chats by messages, most first (at most 20), each with its most active senders (at most 5) */
  groups: Array<{ chat_id: string; messages: number; top_members: Array<{ author: string; messages: number }> }>;
  /** today's hours (UTC) when the range includes today: messages in/out per hour */
  today_hours: Array<{ hour: string; messages_in: number; messages_out: number }> | null;
}

