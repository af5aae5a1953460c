import { z } from 'zod';

/** Wire shapes of the contacts CSV import (issue 15 item 3). Browser-safe. */
/** Rows per uploaded chunk (one DynamoDB item stays well under 400 KB). */
export const IMPORT_CHUNK = 1000;
/** Rows per import. */
export const MAX_IMPORT_ROWS = 100_000;

export const ImportRow = z.object({
  /** E.164 digits without '+' (the preview normalised it) */
  phone: z.string().regex(/^\d{6,15}$/, 'must be E.164 digits'),
  name: z.string().trim().max(250, 'must be at most 250 characters').optional(),
  notes: z.string().max(5000, 'must be at most 5000 characters').optional(),
  custom_properties: z.record(z.string().max(100), z.string().max(500, 'must be at most 500 characters')).optional(),
});
export type ImportRow = z.infer<typeof ImportRow>;

/** POST /contacts/imports */
export const CreateImportInput = z.object({
  total: z.number({ required_error: 'is required' }).int('must be a whole number').min(1, 'must be at least 1').max(MAX_IMPORT_ROWS, `must be at most ${MAX_IMPORT_ROWS}`),
  file_name: z.string().trim().max(255, 'must be at most 255 characters').optional(),
});
/** PUT /contacts/imports/{job_id}/chunks/{seq} */
export const ImportChunkInput = z.object({ rows: z.array(ImportRow).min(1, 'must not be empty').max(IMPORT_CHUNK, `must have at most ${IMPORT_CHUNK} rows`) });

export const ContactImport = z.object({
  job_id: z.string(),
  status: z.enum(['uploading', 'running', 'done', 'undoing', 'undone', 'failed']),
  total: z.number(),
  chunks: z.number(),
  processed: z.number(),
  created: z.number(),
  existing: z.number(),
  removed: z.number(),
  error: z.string().nullable(),
  file_name: z.string().nullable(),
  created_by: z.string(),
  /** epoch ms */
  created_at: z.number(),
  finished_at: z.number().nullable(),
});
export type ContactImport = z.infer<typeof ContactImport>;
