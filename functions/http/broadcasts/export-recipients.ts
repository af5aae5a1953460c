import { httpFileHandler } from '../../lib/http.ts';
import { BroadcastParams } from './params.ts';
import { exportRecipientsCsv } from '../../../shared/broadcast/broadcast.ts';

/** GET /api/orgs/{org_id}/broadcasts/{broadcast_id}/recipients.csv -> text/csv of every recipient (formula-injection safe). 403, 404. */
export const handler = httpFileHandler({ params: BroadcastParams }, async ({ actor, guard, params }) => ({
  contentType: 'text/csv; charset=utf-8',
  filename: `chorus-broadcast-${params.broadcast_id}.csv`,
  body: await exportRecipientsCsv(actor, guard, params.broadcast_id),
}));
