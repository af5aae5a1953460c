import { sqsHandler } from '../lib/sqs.ts';
import { parseEventRecord } from '../lib/records.ts';
import { answerFlags } from '../../shared/message/message-actions.ts';

/**
 * flag-responses consumer: on `message.sent`, the chat's messages flagged on that number become
 * answered (answerFlags). Idempotent.
 */
export const handler = sqsHandler('flag-responses', async (record) => {
  const { org_id, message } = parseEventRecord(record, 'flag-responses').detail.properties;
  // the snapshot passes the wire message through; these fields are its spec §3 ones
  await answerFlags(org_id, message.chat_id, message as typeof message & { org_phone: string; author?: string | null; is_private_note?: boolean | null });
});
