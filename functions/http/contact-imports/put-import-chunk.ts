import { httpHandler } from '../../lib/http.ts';
import { ChunkParams } from './params.ts';
import { ImportChunkInput } from '../../../shared/contact/import.schemas.ts';
import { putImportChunk } from '../../../shared/contact/import.ts';

/** PUT /api/orgs/{org_id}/contacts/imports/{job_id}/chunks/{seq} `{ rows }` -> `{ seq, rows }`. */
export const handler = httpHandler({ params: ChunkParams, body: ImportChunkInput }, async ({ actor, params, body }) => ({ body: await putImportChunk(actor, params.job_id, params.seq, body.rows) }));
