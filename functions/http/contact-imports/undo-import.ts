import { httpHandler } from '../../lib/http.ts';
import { ImportParams } from './params.ts';
import { undoImport } from '../../../shared/contact/import.ts';

/** POST /api/orgs/{org_id}/contacts/imports/{job_id}/undo -> 202 `{ import }` (deletes what the import created, in the background). */
export const handler = httpHandler({ params: ImportParams }, async ({ actor, params }) => ({ status: 202, body: { import: await undoImport(actor, params.job_id) } }));
