import { NOOP, sqsHandler } from '../lib/sqs.ts';
import { parseEventRecord } from '../lib/records.ts';
import { answerFlags, flagWaitingFor } from '../../shared/message/message-actions.ts';

/**
 * flag-responses consumer: on `message.sent`, the chat's messages flagged on that number become
 * answered (answerFlags). Idempotent. The event's chat (stored with the message) says whether any
 * flag was waiting: when none was, the record is skipped before any table call (`relevant`, no
 * receipt either), and an answer that found nothing to clear answers NOOP (an in-process receipt).
 */
export const handler = sqsHandler(
  'flag-responses',
  async (record) => {
    const { org_id, message, chat } = parseEventRecord(record, 'flag-responses').detail.properties;
    // the snapshots pass the wire message and chat through; these fields are their spec §3 ones
    const answered = await answerFlags(org_id, message.chat_id, message as typeof message & { org_phone: string; author?: string | null; is_private_note?: boolean | null }, chat as typeof chat & { flagged_messages?: Record<string, string> | null });
    return answered ? undefined : NOOP;
  },
  {
    relevant: (record) => {
      try {
        const { message, chat } = parseEventRecord(record, 'flag-responses').detail.properties;
        return flagWaitingFor(message as typeof message & { org_phone: string; is_private_note?: boolean | null }, chat as typeof chat & { flagged_messages?: Record<string, string> | null });
      } catch {
        return true; // unreadable: the handler reports it
      }
    },
  },
);
