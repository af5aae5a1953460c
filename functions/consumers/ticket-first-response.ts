import { sqsHandler } from '../lib/sqs.ts';
import { EVENTS } from '../../events/catalog.ts';
import { recordFirstResponse } from '../../shared/ticket/ticket.ts';

/**
 * ticket-first-response consumer: on `message.sent`, stamps first_response_at on the chat's
 * tickets made before that reply (recordFirstResponse). Idempotent, so redelivery is harmless.
 */
export const handler = sqsHandler('ticket-first-response', async (record) => {
  const event = JSON.parse(record.body) as { detail: { properties: unknown } };
  const { org_id, chat_id, message } = EVENTS['message.sent'].properties.parse(event.detail.properties) as {
    org_id: string;
    chat_id?: string;
    message: { chat_id: string; timestamp: number; from_me: boolean; is_private_note?: boolean | null; author?: string | null };
  };
  await recordFirstResponse(org_id, chat_id ?? message.chat_id, message);
});
