import { Entity } from 'electrodb';

/**
 * A CSV import of contacts (issue 15 item 3), run in the background chunk by chunk. `job_id` =
 * 'cimp_' + ULID. The rows (already mapped and normalised by the preview: E.164 digits, deduped)
 * are ContactImportChunk items of up to IMPORT_CHUNK rows each, uploaded before the job starts.
 * `step` = the next chunk to run (a queue message whose seq is not `step` is a redelivery and is
 * dropped). Undo runs the same chunks again in phase 'undo', deleting the contacts whose
 * `import_job_id` is this job. Times epoch **ms**; `expires_at` TTL epoch **seconds** (30 days).
 */
export const ContactImportEntity = new Entity({
  model: { entity: 'contact_import', version: '1', service: 'chorus' },
  attributes: {
    org_id: { type: 'string', required: true },
    job_id: { type: 'string', required: true },
    /** 'uploading' (chunks arriving), 'running', 'done', 'undoing', 'undone', 'failed' */
    status: { type: ['uploading', 'running', 'done', 'undoing', 'undone', 'failed'] as const, required: true },
    chunks: { type: 'number', required: true },
    total: { type: 'number', required: true },
    step: { type: 'number', required: true, default: 0 },
    processed: { type: 'number', required: true, default: 0 },
    created: { type: 'number', required: true, default: 0 },
    /** rows whose number was already a contact (left as they are) */
    existing: { type: 'number', required: true, default: 0 },
    removed: { type: 'number', required: true, default: 0 },
    error: { type: 'string' },
    file_name: { type: 'string' },
    created_by: { type: 'string', required: true },
    created_at: { type: 'number', required: true },
    started_at: { type: 'number' },
    finished_at: { type: 'number' },
    expires_at: { type: 'number', required: true },
  },
  indexes: {
    byId: { pk: { field: 'pk', composite: ['org_id'] }, sk: { field: 'sk', composite: ['job_id'] } },
  },
});

/** One chunk of an import's rows (`rows`: [{ phone, name?, notes?, label_ids?, custom_properties? }]). */
export const ContactImportChunkEntity = new Entity({
  model: { entity: 'contact_import_chunk', version: '1', service: 'chorus' },
  attributes: {
    org_id: { type: 'string', required: true },
    job_id: { type: 'string', required: true },
    seq: { type: 'number', required: true, padding: { length: 5, char: '0' } },
    rows: { type: 'any', required: true },
    expires_at: { type: 'number', required: true },
  },
  indexes: {
    byJob: { pk: { field: 'pk', composite: ['org_id', 'job_id'] }, sk: { field: 'sk', composite: ['seq'] } },
  },
});
