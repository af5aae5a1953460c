import { Entity } from 'electrodb';

/**
 * A WhatsApp message template of one org phone (issue 16 item 1), as synced from Meta's
 * `GET /{waba_id}/message_templates` (shared/template/template.ts `syncTemplates`). One row per
 * org × phone_id × name × language; read by key only (a phone's templates: one partition, sorted by
 * name then language). Timestamps epoch ms.
 */
export const TemplateEntity = new Entity({
  model: { entity: 'wa_template', version: '1', service: 'chorus' },
  attributes: {
    org_id: { type: 'string', required: true },
    /** Meta's phone_number_id of the org phone the template is used with */
    phone_id: { type: 'string', required: true },
    name: { type: 'string', required: true },
    /** Meta's language code, e.g. en_US, pt_BR */
    language: { type: 'string', required: true },
    /** the WhatsApp Business Account the template belongs to */
    waba_id: { type: 'string' },
    /** Meta's template id */
    template_id: { type: 'string' },
    /** APPROVED, PENDING, REJECTED, PAUSED, DISABLED… (as Meta says) */
    status: { type: 'string', required: true },
    /** MARKETING, UTILITY, AUTHENTICATION */
    category: { type: 'string', required: true },
    /** POSITIONAL ({{1}}) or NAMED ({{first_name}}) */
    parameter_format: { type: ['POSITIONAL', 'NAMED'] as const, required: true, default: 'POSITIONAL' },
    /** Meta's components (HEADER, BODY, FOOTER, BUTTONS), validated by MetaTemplate on sync */
    components: { type: 'any', required: true },
    /** epoch ms of the sync that last saw it */
    synced_at: { type: 'number', required: true },
  },
  indexes: {
    byPhone: { pk: { field: 'pk', composite: ['org_id', 'phone_id'] }, sk: { field: 'sk', composite: ['name', 'language'] } },
  },
});
