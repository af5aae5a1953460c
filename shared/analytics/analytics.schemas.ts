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
