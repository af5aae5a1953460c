import { httpHandler } from '../../lib/http.ts';
import { ImportParams } from './params.ts';
import { startImport } from '../../../shared/contact/import.ts';

/** POST /api/orgs/{org_id}/contacts/imports/{job_id}/start -> 202 `{ import }` (running in the background). */
export const handler = httpHandler({ params: ImportParams }, async ({ actor, params }) => ({ status: 202, body: { import: await startImport(actor, params.job_id) } }));
