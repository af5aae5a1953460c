import { decodeTime } from 'ulid';
import { db } from '../db/service.ts';
import { withCursor } from '../db/paging.ts';
import { notFound } from '../errors.ts';
import { assertLogsAccess } from '../audit/audit.ts';
import type { Actor } from '../auth/actor.ts';
import { REJECTION_PREVIEW_CHARS, type ListWebhookRejectionsQuery, type WebhookRejection } from './webhook-rejection.schemas.ts';

/**
 * Reading the kept webhook rejections (signed WhatsApp Cloud API bodies, or updates inside them,
 * that no schema accepted; written by shared/inbox/ingest.ts keepRejection, kept 90 days): for an
 * org's admins on /logs, and for operators through `npm run dlq -- rejections` (every org, and the
 * ones no org could be matched to, kept under org "unknown"). Times are epoch ms.
 */

/** The org id rejections are kept under when no org could be matched (not JSON, unknown phone_number_id). */
export const UNKNOWN_ORG = 'unknown';

type Row = { org_id: string; rejection_id: string; received_at: number; source: string; reason: string; raw_body: string };

/** A stored row on the wire; `preview` cuts the body to REJECTION_PREVIEW_CHARS characters. */
function toWire(r: Row, preview: boolean): WebhookRejection {
  const truncated = preview && r.raw_body.length > REJECTION_PREVIEW_CHARS;
  return {
    rejection_id: r.rejection_id,
    received_at: r.received_at,
    source: r.source,
    reason: r.reason,
    size_bytes: Buffer.byteLength(r.raw_body, 'utf8'),
    raw_body: truncated ? r.raw_body.slice(0, REJECTION_PREVIEW_CHARS) : r.raw_body,
    truncated,
  };
}

/**
 * One page of an org's kept rejections, newest first, bodies cut to previews.
 * @param orgId an org id, or UNKNOWN_ORG
 * @returns `{ rejections, cursor }` (cursor null on the last page)
 * @throws AppError 400 query.cursor for a cursor of another list
 */
export async function rejectionsOfOrg(orgId: string, q: ListWebhookRejectionsQuery = {}): Promise<{ rejections: WebhookRejection[]; cursor: string | null }> {
  // access pattern: an org's rejections, newest first (byOrg: pk org_id, sk received_at + rejection_id)
  const res = await withCursor(q.cursor, () =>
    db().entities.webhookRejection.query.byOrg({ org_id: orgId }).go({ order: 'desc', limit: q.limit ?? 50, cursor: q.cursor ?? null, pages: 1 }),
  );
  return { rejections: res.data.map((r) => toWire(r, true)), cursor: res.cursor };
}

/**
 * One kept rejection of an org with its whole body, by id. The id is a ULID of the time it was
 * kept, so this reads the few seconds around that time rather than the org's whole list.
 * @param orgId an org id, or UNKNOWN_ORG
 * @returns the rejection, or undefined when the org has none with that id
 */
export async function rejectionOfOrg(orgId: string, rejectionId: string): Promise<WebhookRejection | undefined> {
  let at: number;
  try {
    at = decodeTime(rejectionId);
  } catch {
    return undefined;
  }
  // access pattern: an org's rejections kept within 5 s of the id's time (received_at and the id's time come from one clock read, or two a moment apart)
  const near = await db()
    .entities.webhookRejection.query.byOrg({ org_id: orgId })
    .between({ received_at: Math.max(0, at - 5_000) }, { received_at: at + 5_000 })
    .go({ pages: 'all' });
  const row = near.data.find((r) => r.rejection_id === rejectionId);
  return row ? toWire(row, false) : undefined;
}

/**
 * GET /logs/webhook-rejections: the caller's org's rejections, newest first, admins only.
 * @throws AppError 403 logs.forbidden (not an admin); 400 query.cursor
 */
export async function listWebhookRejections(actor: Actor, q: ListWebhookRejectionsQuery): Promise<{ rejections: WebhookRejection[]; cursor: string | null }> {
  assertLogsAccess(actor);
  return rejectionsOfOrg(actor.org_id, q);
}

/**
 * GET /logs/webhook-rejections/{rejection_id}: one of the caller's org's rejections with its whole
 * body, admins only.
 * @throws AppError 403 logs.forbidden; 404 webhook_rejection.not_found
 */
export async function getWebhookRejection(actor: Actor, rejectionId: string): Promise<{ rejection: WebhookRejection }> {
  assertLogsAccess(actor);
  const rejection = await rejectionOfOrg(actor.org_id, rejectionId);
  if (!rejection) throw notFound('webhook_rejection');
  return { rejection };
}
