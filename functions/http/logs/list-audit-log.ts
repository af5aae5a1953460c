import { httpHandler } from '../../lib/http.ts';
import { OrgParams } from '../chats/params.ts';
import { AuditLogQuery } from '../../../shared/analytics/analytics.schemas.ts';
import { listAuditEntries } from '../../../shared/audit/audit.ts';

/** GET /api/orgs/{org_id}/logs/audit?area&actor&from&to&cursor&limit -> `{ entries, cursor }`, newest first, 90 days; admins only (403). */
export const handler = httpHandler({ params: OrgParams, query: AuditLogQuery }, async ({ actor, query }) => ({ body: await listAuditEntries(actor, query) }));
