import { sqsHandler } from '../lib/sqs.ts';
import { parseEventRecord } from '../lib/records.ts';
import { applyBroadcastReply, applyBroadcastStatus } from '../../shared/broadcast/broadcast.ts';

/**
 * broadcast-stats consumer (issue 16 part B): statuses of broadcast messages (delivered, read,
 * failed with the reason) and customers' replies update the broadcast's recipient and counters,
 * exactly once each (conditional transactions). Other messages cost one GetItem.
 */
export const handler = sqsHandler('broadcast-stats', async (record) => {
  const ev = parseEventRecord(record, 'broadcast-stats');
  if (ev['detail-type'] === 'message.status_updated') {
    const p = ev.detail.properties;
    await applyBroadcastStatus(p.org_id, p.message as typeof p.message & { ack: number });
  } else {
    const p = ev.detail.properties;
    await applyBroadcastReply(p.org_id, p.chat.chat_id, p.message as typeof p.message & { timestamp: number });
  }
});
