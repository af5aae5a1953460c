import { z } from 'zod';

/**
 * Kept webhook rejections on the wire (GET /logs/webhook-rejections; browser-safe). A rejection is
 * a validly signed WhatsApp Cloud API body, or one update inside it, that no schema accepted: it is
 * answered 200 (Meta would otherwise retry it for 7 days) and kept 90 days with its reason
 * (shared/inbox/ingest.ts keepRejection, shared/whatsapp/webhook-rejection.entity.ts).
 */

/** The characters of a kept body a list row carries; the whole one comes from GET …/{rejection_id}. */
export const REJECTION_PREVIEW_CHARS = 2_000;

/** A ULID: what `rejection_id` is (its first 10 characters are the time it was kept). */
const Ulid = z.string().regex(/^[0-9A-HJKMNP-TV-Z]{26}$/, 'is not a rejection id');

/** GET /logs/webhook-rejections: paging (newest first). */
export const ListWebhookRejectionsQuery = z.object({
  cursor: z.string().min(1).max(2048).optional(),
  limit: z.coerce.number().int().min(1, 'must be 1 to 100').max(100, 'must be 1 to 100').optional(),
});
export type ListWebhookRejectionsQuery = z.infer<typeof ListWebhookRejectionsQuery>;

/** GET /logs/webhook-rejections/{rejection_id}: path parameters. */
export const WebhookRejectionParams = z.object({ org_id: z.string().min(1, 'is required'), rejection_id: Ulid });

/** One kept rejection as the API returns it. */
export interface WebhookRejection {
  rejection_id: string;
  /** epoch ms, when Chorus kept it */
  received_at: number;
  /** the channel it came on: `whatsapp_cloud` */
  source: string;
  /** why no schema accepted it (`bad message: from: …`, `body is not valid JSON`…) */
  reason: string;
  /** UTF-8 bytes of the kept body (bodies are kept up to 350,000 characters) */
  size_bytes: number;
  /** the kept body, exactly as signed (a fragment: the one update that failed); in a list only its first REJECTION_PREVIEW_CHARS characters */
  raw_body: string;
  /** true when `raw_body` is a preview of a longer body */
  truncated: boolean;
}
