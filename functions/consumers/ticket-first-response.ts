import { sqsHandler } from '../lib/sqs.ts';
import { parseEventRecord } from '../lib/records.ts';
import { recordFirstResponse } from '../../shared/ticket/ticket.ts';

/**
 * ticket-first-response consumer: on `message.sent`, stamps first_response_at on the chat's
 * tickets made before that reply (recordFirstResponse). Idempotent, so redelivery is harmless.
 */
export const handler = sqsHandler('ticket-first-response', async (record) => {
  const { org_id, message } = parseEventRecord(record, 'ticket-first-response').detail.properties;
  await recordFirstResponse(org_id, message.chat_id, message);
});
