import { NOOP, sqsHandler } from '../lib/sqs.ts';
import { parseEventRecord } from '../lib/records.ts';
import { recordFirstResponse } from '../../shared/ticket/ticket.ts';

/**
 * ticket-first-response consumer: on `message.sent`, stamps first_response_at on the chat's
 * tickets made before that reply (recordFirstResponse). Idempotent, so redelivery is harmless.
 * Private notes and messages not from the team are skipped before any table call (`relevant`);
 * a reply that stamped nothing answers NOOP (an in-process receipt only: running it again would
 * only read the chat's tickets again).
 */
export const handler = sqsHandler(
  'ticket-first-response',
  async (record) => {
    const { org_id, message } = parseEventRecord(record, 'ticket-first-response').detail.properties;
    return (await recordFirstResponse(org_id, message.chat_id, message)) ? undefined : NOOP;
  },
  {
    relevant: (record) => {
      try {
        const { message } = parseEventRecord(record, 'ticket-first-response').detail.properties;
        return message.from_me && !message.is_private_note;
      } catch {
        return true; // unreadable: the handler reports it
      }
    },
  },
);
