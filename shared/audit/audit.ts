import { db } from '../db/service.ts';
import { AppError } from '../errors.ts';
import { withCursor } from '../db/paging.ts';
import { ulid } from 'ulid';
import { log } from '../log.ts';
import type { Actor } from '../auth/actor.ts';
import { actorOf, AUDIT_TTL_DAYS, auditIdOf, auditOfAdminAction, type AuditArea, type AuditDraft, type AuditEntry } from './audit.rules.ts';
export type { AuditEntry } from './audit.rules.ts';

/**
 * The audit log (issue 19; spec §2 /logs): rows written by the audit consumer
 * (functions/consumers/audit-log.ts) and read by admins, newest first, with filters and paging.
 * Times are epoch ms.
 */


/** Store the audit rows of one event (idempotent: keyed by event id and position). */
export async function writeAuditRows(orgId: string, eventId: string, metadataActor: string, at: number, drafts: AuditDraft[]): Promise<void> {
  if (!drafts.length) return;
  const expires_at = Math.floor(at / 1000) + AUDIT_TTL_DAYS * 86_400;
  await db()
    .entities.auditEntry.put(
      drafts.map((d, i) => ({ org_id: orgId, audit_id: auditIdOf(at, eventId, i), at, actor: actorOf(metadataActor), area: d.area, action: d.action, target: d.target, summary: d.summary, details: d.details, event_id: eventId, expires_at })),
    )
    .go();
}

/**
 * Record an admin action (no bus event carries these): one audit row, written after the change was
 * stored — by the HTTP wrapper for a route declaring `audit: '<kind>'` (functions/lib/http.ts;
 * issue 49). Best effort: a failure is logged, never thrown (the change stands).
 * @param action dotted, one of audit.rules.ts ADMIN_SAY's keys ('label.created', 'team.invited'…)
 */
export async function recordAdminAction(actor: Actor, area: AuditArea, action: string, target: string, details?: Record<string, unknown>, now = Date.now()): Promise<void> {
  await writeAuditRows(actor.org_id, `admin:${ulid(now)}`, `user:${actor.email}`, now, [auditOfAdminAction({ area, action, target, details })]).catch((e: unknown) =>
    log('warn', 'audit.record_failed', { org_id: actor.org_id, action, error: String((e as Error)?.message ?? e) }),
  );
}

/**
 * The org's label names by id, for audit rows that name labels (issue 49: names resolved when the
 * row is written, so the log stays true after a rename or delete). One query of the org's labels,
 * made by the audit consumer only for events that change labels; on failure the ids stay.
 */
export async function labelNamesOf(orgId: string): Promise<Map<string, string>> {
  const res = await db()
    .entities.chatLabel.query.byOrg({ org_id: orgId })
    .go({ pages: 'all' })
    .catch((e: unknown) => {
      log('warn', 'audit.label_names_failed', { org_id: orgId, error: String((e as Error)?.message ?? e) });
      return { data: [] as Array<{ label_id: string; name: string }> };
    });
  return new Map(res.data.map((l) => [l.label_id, l.name]));
}

/** Admins only (spec §6 reading for /logs: the organization's logs are an admin page). @throws AppError 403 logs.forbidden */
export function assertLogsAccess(actor: Actor): void {
  if (actor.role !== 'admin' || actor.email.startsWith('apikey:')) throw new AppError('logs.forbidden', 'Only admins can see the logs.', { status: 403 });
}

export interface AuditQuery {
  area?: string;
  actor?: string;
  /** epoch ms, inclusive */
  from?: number;
  /** epoch ms, inclusive */
  to?: number;
  cursor?: string | null;
  limit?: number;
}

/**
 * One page of the audit log, newest first: by area (gsi1) or actor (gsi2) when filtered (both:
 * by area, then the actor checked on the page), the time range as a sort-key range.
 * @returns `{ entries, cursor }` (cursor null on the last page)
 * @throws AppError 403 (assertLogsAccess); 400 query.cursor for a cursor of another list
 */
export async function listAuditEntries(actor: Actor, q: AuditQuery): Promise<{ entries: AuditEntry[]; cursor: string | null }> {
  assertLogsAccess(actor);
  const org_id = actor.org_id;
  const lo = q.from !== undefined ? String(q.from).padStart(15, '0') : '0';
  const hi = `${q.to !== undefined ? String(q.to).padStart(15, '0') : '9'.repeat(15)}#\uffff`;
  const limit = q.limit ?? 50;
  const e = db().entities.auditEntry;
  const opts = { order: 'desc' as const, limit, cursor: q.cursor ?? null, pages: 1 as const };
  const res = await withCursor(q.cursor, async () => {
    if (q.area) {
      const query = e.query.byArea({ org_id, area: q.area }).between({ audit_id: lo }, { audit_id: hi });
      return q.actor ? query.where((a, { eq }) => eq(a.actor, q.actor!.toLowerCase())).go(opts) : query.go(opts);
    }
    if (q.actor) return e.query.byActor({ org_id, actor: q.actor.toLowerCase() }).between({ audit_id: lo }, { audit_id: hi }).go(opts);
    return e.query.byOrg({ org_id }).between({ audit_id: lo }, { audit_id: hi }).go(opts);
  });
  return {
    entries: res.data.map((r) => ({ audit_id: r.audit_id, at: r.at, actor: r.actor, area: r.area, action: r.action, target: r.target, summary: r.summary, details: (r.details as Record<string, unknown> | undefined) ?? null })),
    cursor: res.cursor,
  };
}
