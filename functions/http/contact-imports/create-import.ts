import { httpHandler } from '../../lib/http.ts';
import { OrgParams } from '../chats/params.ts';
import { CreateImportInput, IMPORT_CHUNK } from '../../../shared/contact/import.schemas.ts';
import { createImport } from '../../../shared/contact/import.ts';

/** POST /api/orgs/{org_id}/contacts/imports `{ total, file_name? }` -> 201 `{ import }` (status 'uploading'; chunks of IMPORT_CHUNK rows). */
export const handler = httpHandler({ params: OrgParams, body: CreateImportInput }, async ({ actor, body }) => ({ status: 201, body: { import: await createImport(actor, body, IMPORT_CHUNK) } }));
