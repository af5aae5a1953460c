import { httpFileHandler } from '../../lib/http.ts';
import { OrgParams } from '../chats/params.ts';
import { ExportChatsQuery } from '../../../shared/bulk/bulk-job.schemas.ts';
import { exportChatsCsv, exportFileName } from '../../../shared/bulk/chat-export.ts';

/** GET /api/orgs/{org_id}/chats/export.csv?state&unread&assignee&label_id&phone&type -> text/csv (up to 100,000 rows). */
export const handler = httpFileHandler({ params: OrgParams, query: ExportChatsQuery }, async ({ actor, query }) => ({
  contentType: 'text/csv; charset=utf-8',
  filename: exportFileName(query),
  body: exportChatsCsv(actor, query),
}));
