import type { QuietHours, SkipReason } from './broadcast.schemas.ts';

/**
 * Pure rules of broadcasts (issue 16 part B): pacing per number, rate-limit backoff, quiet hours,
 * variables, opt-out, credit months and recipient keys. Times are epoch **ms**; minutes of day are
 * 0–1439 in the org's time zone (shared/org/business-hours.rules.ts localTime).
 */

/** WhatsApp Web numbers go slower than Cloud API numbers (a linked phone is a person's phone to WhatsApp): at least 3 s apart, plus up to 2 s of jitter. */
export const WA_WEB_MIN_PACE_MS = 3000;
export const WA_WEB_JITTER_MS = 2000;
/** Longest wait after repeated rate-limit errors on a number. */
export const MAX_BACKOFF_MS = 60_000;
/** Meta rate-limit error codes (Meta "Error codes": 130429 throughput reached, 131056 pair rate limit). */
export const RATE_LIMIT_CODES: readonly number[] = [130429, 131056];

/**
 * Ms to wait after one recipient before the next on the same number.
 * @param kind the number's connection type
 * @param paceMs the broadcast's configured pace
 * @param rand a random number in [0, 1) (jitter of WhatsApp Web numbers)
 */
export function paceFor(kind: 'wa_cloud' | 'wa_web', paceMs: number, rand: () => number): number {
  if (kind === 'wa_web') return Math.max(paceMs, WA_WEB_MIN_PACE_MS) + Math.floor(rand() * WA_WEB_JITTER_MS);
  return paceMs;
}

/**
 * Backoff after the `hits`-th rate-limit error in a row on a number: the pace (at least 1 s) doubled
 * per hit, at most 60 s. @param hits ≥ 1
 */
export function rateLimitBackoffMs(hits: number, paceMs: number): number {
  return Math.min(MAX_BACKOFF_MS, Math.max(paceMs, 1000) * 2 ** Math.min(Math.max(hits, 1) - 1, 10));
}

const minutesOf = (hhmm: string): number => Number(hhmm.slice(0, 2)) * 60 + Number(hhmm.slice(3, 5));

/** Is `minuteOfDay` (0–1439, org time) inside the quiet hours [start, end)? Wraps midnight when start > end. */
export function inQuietHours(quiet: QuietHours | null | undefined, minuteOfDay: number): boolean {
  if (!quiet) return false;
  const s = minutesOf(quiet.start);
  const e = minutesOf(quiet.end);
  return s < e ? minuteOfDay >= s && minuteOfDay < e : minuteOfDay >= s || minuteOfDay < e;
}

/**
 * Ms from now until the quiet hours end, to the minute (the engine's wake-up). DST shifts on that
 * night may move it by an hour; the engine re-checks when it wakes and waits again if needed.
 * @param nowMs epoch ms; @param minuteOfDay the org-time minute of `nowMs`
 */
export function msUntilQuietEnds(quiet: QuietHours, nowMs: number, minuteOfDay: number): number {
  const e = minutesOf(quiet.end);
  const minutes = (e - minuteOfDay + 1440) % 1440 || 1440;
  const intoMinute = nowMs % 60_000;
  return Math.max(1000, minutes * 60_000 - intoMinute);
}

/**
 * Fill `{{var}}` placeholders (spaces allowed inside the braces): the recipient's own variables
 * first (CSV columns), then `name` and `phone`. An unknown variable becomes an empty string.
 */
export function fillVariables(text: string, vars: Record<string, string | null | undefined>): string {
  return text.replace(/\{\{\s*([A-Za-z_][A-Za-z0-9_]*)\s*\}\}/g, (_, k: string) => vars[k] ?? '');
}

/**
 * A broadcast template's values for one recipient: every text value filled like the text content
 * (fillVariables: CSV columns, `name`, `phone`); media values (`{ link } | { id }`) are kept as they are.
 */
export function fillTemplateValues<V>(values: Record<string, string | V>, vars: Record<string, string | null | undefined>): Record<string, string | V> {
  const out: Record<string, string | V> = {};
  for (const [k, v] of Object.entries(values)) out[k] = typeof v === 'string' ? fillVariables(v, vars) : v;
  return out;
}

/** Names of the variables a text uses (the create flow shows which CSV columns it needs). */
export function variablesOf(text: string): string[] {
  return [...new Set([...text.matchAll(/\{\{\s*([A-Za-z_][A-Za-z0-9_]*)\s*\}\}/g)].map((m) => m[1]!))];
}

/**
 * Has the customer opted out? Their last message in the chat (not ours) is the keyword, in any case
 * and with surrounding spaces or a final '.'/'!' (spec: STOP by default), or the chat carries a label
 * named like the opted-out label ('opted-out', 'opted out', 'opt-out', any case).
 */
export function isOptedOut(
  latest: { from_me?: boolean | null; body?: string | null } | null | undefined,
  keyword: string,
  labelNames: readonly string[] = [],
): boolean {
  if (labelNames.some((n) => /^opt(ed)?[\s_-]?out$/i.test(n.trim()))) return true;
  if (!latest || latest.from_me || !latest.body) return false;
  return latest.body.trim().replace(/[.!]+$/, '').toUpperCase() === keyword.trim().toUpperCase();
}

/** The credit month of a time: 'YYYY-MM' in UTC (credits reset on the 1st, 00:00 UTC). */
export function creditMonth(atMs: number): string {
  return new Date(atMs).toISOString().slice(0, 7);
}

/** A recipient's id: its position, zero-padded so the table's string sort keys keep the order. */
export function recipientId(seq: number): string {
  return String(seq).padStart(6, '0');
}

/** The idempotency key of one recipient's send (the message's client_id; one per broadcast and recipient). */
export function idempotencyKey(broadcastId: string, rid: string): string {
  return `${broadcastId}:${rid}`;
}

/** Counts of a set of skip reasons, as the preview and stats show them. */
export function countSkips(reasons: Array<SkipReason | null | undefined>): { opt_out: number; no_template: number; other: number } {
  const c = { opt_out: 0, no_template: 0, other: 0 };
  for (const r of reasons) {
    if (r === 'opt_out') c.opt_out++;
    else if (r === 'no_template') c.no_template++;
    else if (r) c.other++;
  }
  return c;
}

/**
 * Meta's default Cloud API throughput per business number: 80 messages a second. The pacer's
 * catch-up after lateness never sends faster than this on one number.
 */
export const CLOUD_MAX_PER_SECOND = 80;
/** Lateness (ms) the pacer makes up on a Cloud API number; a longer stall is forgiven, not caught up. */
export const CATCH_UP_MS = 2000;

/**
 * The per-number pacer of one engine run: when each number may send next. Pure state plus an
 * injected clock, so the bench and tests drive it without real waits where they want to.
 *
 * Cloud API numbers follow a schedule: the n-th send of a run is due at first + n × pace, whatever
 * each send's own latency or the engine's timer lateness, so the achieved pace is the configured
 * one (issue 16 bench: within 5%). Sends that fall behind the schedule go at once (no sleep, so no
 * timer lateness again), but never more than CLOUD_MAX_PER_SECOND in any second on the number, and
 * never more than CATCH_UP_MS of them: after a longer stall (a pause, a slow step) the schedule
 * starts afresh instead of bursting.
 * WhatsApp Web numbers (slower, with jitter, to look like a person) never catch up.
 */
export class NumberPacer {
  private next = new Map<string, number>();
  /** the number's last CLOUD_MAX_PER_SECOND send times, oldest first */
  private recent = new Map<string, number[]>();
  private hits = new Map<string, number>();
  constructor(private readonly paceMs: number, private readonly rand: () => number = Math.random) {}

  /** Epoch ms when `phoneId` may send next (0: now). */
  readyAt(phoneId: string): number {
    const slot = this.next.get(phoneId) ?? 0;
    const recent = this.recent.get(phoneId);
    // behind the schedule: at most CLOUD_MAX_PER_SECOND in any 1,000 ms
    return recent && recent.length >= CLOUD_MAX_PER_SECOND ? Math.max(slot, recent[0]! + 1000) : slot;
  }

  /** A send started on `phoneId` at `at`: the next one is due one pace after this one's slot. */
  sent(phoneId: string, kind: 'wa_cloud' | 'wa_web', at: number): void {
    const slot = this.next.get(phoneId);
    const step = paceFor(kind, this.paceMs, this.rand);
    if (kind === 'wa_web') {
      // on schedule (late by less than one pace): the next slot follows this one; else afresh
      this.next.set(phoneId, slot !== undefined && at >= slot && at - slot < step ? slot + step : at + step);
      this.recent.delete(phoneId);
    } else {
      // the schedule, unless this send is more than CATCH_UP_MS behind it (or it is the first)
      this.next.set(phoneId, slot !== undefined && at - slot <= CATCH_UP_MS ? Math.max(slot, at - CATCH_UP_MS) + step : at + step);
      const recent = this.recent.get(phoneId) ?? [];
      recent.push(at);
      if (recent.length > CLOUD_MAX_PER_SECOND) recent.shift();
      this.recent.set(phoneId, recent);
    }
    this.hits.delete(phoneId);
  }

  /** A rate-limit error was seen on `phoneId` at `at`: back off (doubling per hit in a row). */
  rateLimited(phoneId: string, at: number): void {
    const hits = (this.hits.get(phoneId) ?? 0) + 1;
    this.hits.set(phoneId, hits);
    this.next.set(phoneId, Math.max(this.readyAt(phoneId), at + rateLimitBackoffMs(hits, this.paceMs)));
  }
}

/** Bytes of recipient rows kept in one audience part (DynamoDB items are at most 400 KB). */
export const AUDIENCE_PART_BYTES = 300_000;

/**
 * Split a broadcast's resolved recipient rows into parts of at most `maxBytes` of JSON each (a
 * row larger than that alone is a part of its own), in order. The create request stores these few
 * parts instead of one row per recipient, so its work does not grow with the audience (issue 16: a
 * 10,000-chat create outlived the gateway's 30 s and answered 500); the engine's first step turns
 * them into recipient rows.
 */
export function audienceParts<T>(rows: T[], maxBytes = AUDIENCE_PART_BYTES): T[][] {
  const parts: T[][] = [];
  let cur: T[] = [];
  let size = 2;
  for (const r of rows) {
    const n = JSON.stringify(r).length + 1;
    if (cur.length && size + n > maxBytes) {
      parts.push(cur);
      cur = [];
      size = 2;
    }
    cur.push(r);
    size += n;
  }
  if (cur.length) parts.push(cur);
  return parts;
}
