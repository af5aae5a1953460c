import { z } from 'zod';
import { sqsHandler } from '../lib/sqs.ts';
import { parseCommandRecord } from '../lib/records.ts';
import { wakeSnoozedChat } from '../../shared/chat/chat-workflow.ts';

/** A wake-up put on the chat-snooze queue by the scheduler (shared/chat/chat-workflow.ts snoozeChats). snooze_until is epoch ms. */
const Wakeup = z.object({ org_id: z.string(), chat_id: z.string(), snooze_until: z.number() });

/** chat-snooze consumer: brings a snoozed chat back, or ignores a stale wake-up (wakeSnoozedChat). */
export const handler = sqsHandler('chat-snooze', async (record) => {
  const w = parseCommandRecord(record, Wakeup);
  await wakeSnoozedChat(w.org_id, w.chat_id, w.snooze_until);
});
