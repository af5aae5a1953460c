import { sqsHandler } from '../lib/sqs.ts';
import { EVENTS } from '../../events/catalog.ts';
import { answerFlags } from '../../shared/message/message-actions.ts';

/**
 * flag-responses consumer: on `message.sent`, the chat's messages flagged on that number become
 * answered (answerFlags). Idempotent.
 */
export const handler = sqsHandler('flag-responses', async (record) => {
  const event = JSON.parse(record.body) as { detail: { properties: unknown } };
  const { org_id, message } = EVENTS['message.sent'].properties.parse(event.detail.properties) as unknown as {
    org_id: string;
    message: { chat_id: string; org_phone: string; author?: string | null; timestamp: number; is_private_note?: boolean | null };
  };
  await answerFlags(org_id, message.chat_id, message);
});
