import { z } from 'zod';
import { PageCursor } from '../message/message.schemas.ts';

/**
 * WhatsApp message templates (issue 16 item 1) as Meta returns them from
 * `GET /{waba_id}/message_templates` (Meta "Message templates" / "Template components"):
 *
 * ```json
 * { "data": [ { "id": "546151681022936", "name": "seasonal_promotion", "language": "en_US",
 *     "status": "APPROVED", "category": "MARKETING", "parameter_format": "POSITIONAL",
 *     "components": [
 *       { "type": "HEADER", "format": "TEXT", "text": "Our {{1}} is on!", "example": { "header_text": ["Summer Sale"] } },
 *       { "type": "BODY", "text": "Shop now through {{1}} and use code {{2}}", "example": { "body_text": [["the end of August", "25OFF"]] } },
 *       { "type": "FOOTER", "text": "Reply STOP to opt out" },
 *       { "type": "BUTTONS", "buttons": [ { "type": "QUICK_REPLY", "text": "Unsubscribe" },
 *         { "type": "URL", "text": "Shop", "url": "https://shop.example/p?promo={{1}}", "example": ["https://shop.example/p?promo=summer"] },
 *         { "type": "PHONE_NUMBER", "text": "Call", "phone_number": "+15550051310" } ] } ] } ],
 *   "paging": { "cursors": { "before": "…", "after": "…" }, "next": "https://graph.facebook.com/…" } }
 * ```
 * Media headers (`format: IMAGE | VIDEO | DOCUMENT`) carry `example.header_handle` (an upload handle)
 * and need a media parameter (link or uploaded id) at send time. Unknown extra fields are kept
 * (`passthrough`) so a newer Graph version does not break the sync.
 */

export const TEMPLATE_STATUSES = ['APPROVED', 'PENDING', 'REJECTED', 'PAUSED', 'DISABLED', 'IN_APPEAL', 'PENDING_DELETION', 'DELETED', 'LIMIT_EXCEEDED', 'ARCHIVED'] as const;
export const TEMPLATE_CATEGORIES = ['MARKETING', 'UTILITY', 'AUTHENTICATION'] as const;
export const HEADER_FORMATS = ['TEXT', 'IMAGE', 'DOCUMENT', 'VIDEO', 'LOCATION'] as const;

const Example = z
  .object({
    header_text: z.array(z.string()).optional(),
    header_handle: z.array(z.string()).optional(),
    body_text: z.array(z.array(z.string())).optional(),
    header_text_named_params: z.array(z.object({ param_name: z.string(), example: z.string() })).optional(),
    body_text_named_params: z.array(z.object({ param_name: z.string(), example: z.string() })).optional(),
  })
  .passthrough();

export const HeaderComponent = z
  .object({ type: z.literal('HEADER'), format: z.enum(HEADER_FORMATS), text: z.string().optional(), example: Example.optional() })
  .passthrough();
export const BodyComponent = z.object({ type: z.literal('BODY'), text: z.string(), example: Example.optional() }).passthrough();
export const FooterComponent = z.object({ type: z.literal('FOOTER'), text: z.string() }).passthrough();

export const TemplateButton = z.discriminatedUnion('type', [
  z.object({ type: z.literal('QUICK_REPLY'), text: z.string() }).passthrough(),
  z.object({ type: z.literal('URL'), text: z.string(), url: z.string(), example: z.array(z.string()).optional() }).passthrough(),
  z.object({ type: z.literal('PHONE_NUMBER'), text: z.string(), phone_number: z.string() }).passthrough(),
  // other button kinds (COPY_CODE, OTP, FLOW, CATALOG…) are kept as they are; they take no variable here
  z.object({ type: z.enum(['COPY_CODE', 'OTP', 'FLOW', 'CATALOG', 'MPM', 'VOICE_CALL', 'APP']), text: z.string().optional() }).passthrough(),
]);
export type TemplateButton = z.infer<typeof TemplateButton>;
export const ButtonsComponent = z.object({ type: z.literal('BUTTONS'), buttons: z.array(TemplateButton).max(10) }).passthrough();

export const TemplateComponent = z.discriminatedUnion('type', [HeaderComponent, BodyComponent, FooterComponent, ButtonsComponent]);
export type TemplateComponent = z.infer<typeof TemplateComponent>;

/** One template as `GET /{waba_id}/message_templates` lists it. */
export const MetaTemplate = z
  .object({
    id: z.string().optional(),
    name: z.string().min(1).max(512),
    language: z.string().min(2).max(15),
    status: z.string(),
    category: z.string(),
    /** 'POSITIONAL' ({{1}}, {{2}}) or 'NAMED' ({{first_name}}); Meta's default is POSITIONAL */
    parameter_format: z.enum(['POSITIONAL', 'NAMED']).optional(),
    components: z.array(TemplateComponent),
  })
  .passthrough();
export type MetaTemplate = z.infer<typeof MetaTemplate>;

/** One page of `GET /{waba_id}/message_templates`. Rows are validated one by one (a bad row is skipped, not fatal). */
export const MetaTemplatePage = z.object({
  data: z.array(z.unknown()),
  paging: z.object({ cursors: z.object({ before: z.string().optional(), after: z.string().optional() }).partial().optional(), next: z.string().optional() }).partial().optional(),
});

/** A template as Chorus stores and serves it (wire shape of the templates routes). Epoch ms. */
export const TemplateView = z.object({
  phone_id: z.string(),
  waba_id: z.string().nullable(),
  template_id: z.string().nullable(),
  name: z.string(),
  language: z.string(),
  status: z.string(),
  category: z.string(),
  parameter_format: z.enum(['POSITIONAL', 'NAMED']),
  components: z.array(TemplateComponent),
  /** epoch ms of the sync that last saw it */
  synced_at: z.number(),
});
export type TemplateView = z.infer<typeof TemplateView>;

/** Media for a media header: a public link, or a media id uploaded to Meta (`POST /{phone_number_id}/media`). */
export const TemplateMediaValue = z.union([
  z.object({ link: z.string().url().max(2000).refine((u) => /^https?:\/\//i.test(u), 'must be an http(s) link') }).strict(),
  z.object({ id: z.string().min(1).max(200) }).strict(),
]);
export type TemplateMediaValue = z.infer<typeof TemplateMediaValue>;

/**
 * Values of a template's variables, keyed like `templateVariables` names them:
 * `header.1` / `header.first_name` (text header), `body.1`, `body.2` / `body.order_id`,
 * `button.<index>.1` (URL button suffix, index = the button's 0-based position), and
 * `header.media` (media header: an http(s) link, or `{ link }` / `{ id }`).
 * Text values: 1–1024 characters, no newlines/tabs and no more than 4 consecutive spaces in
 * header and button values (Meta's parameter rules).
 */
export const TemplateValues = z.record(z.string().max(100), z.union([z.string().max(1024), TemplateMediaValue]));
export type TemplateValues = z.infer<typeof TemplateValues>;

/** What a client sends to pick a template: name + language (+ values). */
export const TemplateRef = z.object({
  name: z.string().trim().min(1, 'Please pick a template').max(512),
  language: z.string().trim().min(2).max(15),
  values: TemplateValues.default({}),
});
export type TemplateRef = z.infer<typeof TemplateRef>;

/** The 24-hour customer service window of a chat on one org phone (Meta A.8). `closes_at`: epoch ms, null when it never opened. */
export interface WindowState {
  open: boolean;
  closes_at: number | null;
}

/** GET /api/orgs/{org_id}/templates query: `phone_id` (default: the org's first Cloud API number), `status` filter, paging. */
export const ListTemplatesQuery = z.object({
  phone_id: z.string().trim().min(1, 'must not be empty').max(64, 'is too long').optional(),
  status: z.enum(TEMPLATE_STATUSES).optional(),
  cursor: PageCursor.optional(),
  limit: z.coerce.number({ invalid_type_error: 'must be a number' }).int('must be a whole number').min(1, 'must be at least 1').max(200, 'must be at most 200').optional(),
});
export type ListTemplatesQuery = z.infer<typeof ListTemplatesQuery>;

/** POST /api/orgs/{org_id}/templates/sync body: one phone, or every Cloud API number of the org when left out. */
export const SyncTemplatesInput = z.object({ phone_id: z.string().trim().min(1, 'must not be empty').max(64, 'is too long').optional() }).strict();
export type SyncTemplatesInput = z.infer<typeof SyncTemplatesInput>;

/** POST /api/orgs/{org_id}/chats/{chat_id}/templates body: the template (name + language), its values, the browser's bubble id. */
export const SendTemplateInput = TemplateRef.extend({
  client_id: z.string({ invalid_type_error: 'must be text' }).regex(/^[A-Za-z0-9-]{1,64}$/, 'must be 1 to 64 letters, digits or dashes').optional(),
});
export type SendTemplateInput = z.infer<typeof SendTemplateInput>;
