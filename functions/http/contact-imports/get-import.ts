import { httpHandler } from '../../lib/http.ts';
import { ImportParams } from './params.ts';
import { getImport } from '../../../shared/contact/import.ts';

/** GET /api/orgs/{org_id}/contacts/imports/{job_id} -> `{ import }` (progress: processed of total, created, existing, removed). */
export const handler = httpHandler({ params: ImportParams }, async ({ actor, params }) => ({ body: { import: await getImport(actor, params.job_id) } }));
