import { httpFileHandler } from '../../lib/http.ts';
import { OrgParams } from '../chats/params.ts';
import { ContactExportQuery } from '../../../shared/contact/contact.schemas.ts';
import { contactExportFileName, exportContactsCsv } from '../../../shared/contact/export.ts';

/** GET /api/orgs/{org_id}/contacts/export.csv?q&label_id&property_id&property_value&phone_id&seen_from&seen_to&sort&order -> text/csv (up to 100,000 rows). */
export const handler = httpFileHandler({ params: OrgParams, query: ContactExportQuery }, async ({ actor, query }) => ({
  contentType: 'text/csv; charset=utf-8',
  filename: contactExportFileName(),
  body: exportContactsCsv(actor, query),
}));
