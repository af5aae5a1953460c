import { Entity } from 'electrodb';
import { COUNTERS, HOUR_COUNTERS } from './analytics.rules.ts';

const counterAttrs = Object.fromEntries([...COUNTERS, ...HOUR_COUNTERS].map((c) => [c, { type: 'number' as const }])) as Record<(typeof COUNTERS)[number] | `h${string}`, { type: 'number' }>;

/**
 * One aggregate row (issue 19): counters of one org × dimension × period, grown only with DynamoDB
 * ADD by the analytics consumer (shared/analytics/analytics.ts) and replaced by
 * `npm run analytics:rebuild`. The period (`day`) is a day of the org's time zone 'YYYY-MM-DD', or
 * a roll-up of those: a week 'W' + its Monday ('W2026-11-23') or a month 'M' + 'YYYY-MM'; the
 * letters sort after digits, so a day range never meets a roll-up (analytics.rules.ts planRange). Counters: shared/analytics/analytics.rules.ts (durations in ms as
 * sum + count; `h00`…`h23` messages by the org's hour of day).
 * Access (ACCESS_PATTERNS.md 60): rows of one dimension over a day range = one Query
 * (pk org + dim, sk between days); never a scan, never a message read.
 */
export const AnalyticsDailyEntity = new Entity({
  model: { entity: 'analytics_daily', version: '1', service: 'chorus' },
  attributes: {
    org_id: { type: 'string', required: true },
    dim: { type: ['org', 'phone', 'member', 'label', 'group', 'gauthor'] as const, required: true },
    dim_id: { type: 'string', required: true },
    /** 'YYYY-MM-DD' (the org's day), 'W' + Monday, or 'M' + 'YYYY-MM' */
    day: { type: 'string', required: true },
    ...counterAttrs,
  },
  indexes: {
    byDay: { pk: { field: 'pk', composite: ['org_id', 'dim'] }, sk: { field: 'sk', composite: ['day', 'dim_id'] } },
  },
});

/**
 * One hourly aggregate row of an org (today's chart on /analytics and /dashboard): messages in and
 * out and conversations opened and closed in one hour of the org's zone. TTL 3 days (only today's are read).
 * Access (61): an org's hours of a day = one Query (pk org, sk begins with the day).
 */
export const AnalyticsHourlyEntity = new Entity({
  model: { entity: 'analytics_hourly', version: '1', service: 'chorus' },
  attributes: {
    org_id: { type: 'string', required: true },
    /** 'YYYY-MM-DDTHH' (the org's zone) */
    hour: { type: 'string', required: true },
    msg_in: { type: 'number' },
    msg_out: { type: 'number' },
    conv_opened: { type: 'number' },
    conv_closed: { type: 'number' },
    /** DynamoDB TTL, epoch s */
    expires_at: { type: 'number' },
  },
  indexes: {
    byHour: { pk: { field: 'pk', composite: ['org_id'] }, sk: { field: 'sk', composite: ['hour'] } },
  },
});

/**
 * What the aggregator remembers about one chat between events (analytics.rules.ts
 * ChatAnalyticsState): when the open conversation started, since when a customer waits, whether
 * it had its first response. `version` guards the read-modify-write (the row is written in the
 * same transaction as the counters and the event's receipt).
 * Access (62): by key (org + chat).
 */
export const AnalyticsChatStateEntity = new Entity({
  model: { entity: 'analytics_chat_state', version: '1', service: 'chorus' },
  attributes: {
    org_id: { type: 'string', required: true },
    chat_id: { type: 'string', required: true },
    opened_at: { type: 'number' },
    waiting_since: { type: 'number' },
    responded: { type: 'boolean', default: false },
    version: { type: 'number', required: true, default: 0 },
  },
  indexes: {
    byChat: { pk: { field: 'pk', composite: ['org_id', 'chat_id'] }, sk: { field: 'sk', composite: [] } },
  },
});
