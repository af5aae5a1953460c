import { receiveCount, sqsHandler } from '../lib/sqs.ts';
import { SUBSCRIPTIONS } from '../../events/catalog.ts';
import { parseEventRecord } from '../lib/records.ts';
import { downloadMessageMedia } from '../../shared/media/media.ts';

/** Receives before the queue dead-letters a record (the catalogue's maxReceiveCount). */
const MAX_RECEIVES = SUBSCRIPTIONS.find((s) => s.name === 'media-download')?.maxReceiveCount ?? 5;

/**
 * media-download consumer: on `message.received` with a file (image, video, audio, voice,
 * document, sticker), downloads it from the Graph API into the blob store (downloadMessageMedia).
 * Other messages are dropped after a glance at the body. A retryable failure fails the record so
 * the queue retries it with backoff; on its last receive the message is marked failed instead,
 * so a person sees why rather than a file that never arrives. Idempotent (a stored file is skipped).
 */
export const handler = sqsHandler('media-download', async (record) => {
  const { org_id, message } = parseEventRecord(record, 'media-download').detail.properties;
  const media = message.media as { media_id?: unknown } | null | undefined; // passed through from the wire message
  if (!media?.media_id || message.from_me) return;
  await downloadMessageMedia(org_id, message.chat_id, message.unique_id, { finalAttempt: receiveCount(record) >= MAX_RECEIVES });
});
