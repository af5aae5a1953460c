import type { APIGatewayProxyEventV2, APIGatewayProxyResultV2 } from 'aws-lambda';
import { config } from '../../../shared/config.ts';
import { verifySignature } from '../../../shared/whatsapp/cloud/signature.ts';
import { enqueue } from '../../../shared/ports/commands.ts';
import { json, observed, rawBodyOf } from '../../lib/http.ts';
import { METRIC, recordMetric } from '../../../shared/metrics.ts';
import { log } from '../../../shared/log.ts';
import { splitWebhookBody } from '../../../shared/whatsapp/cloud/split.ts';
import { keepRejection } from '../../../shared/inbox/ingest.ts';
import { webhookDedupeId, webhookGroupId } from '../../../shared/whatsapp/cloud/group.ts';

/** The FIFO group and deduplication id of a body (shared/whatsapp/cloud/group.ts). */
function fifoOf(text: string, parsed?: unknown) {
  let body = parsed;
  if (body === undefined) {
    try {
      body = JSON.parse(text);
    } catch {
      body = undefined;
    }
  }
  return { groupId: webhookGroupId(body), dedupeId: webhookDedupeId(text) };
}

/** Largest raw body put on the queue as is (SQS messages hold 1 MiB including the envelope). */
const MAX_RECORD_BODY = 900 * 1024;

/**
 * POST /webhooks/whatsapp (whatsapp-protocols.md A.3/A.4). The signature is checked on the raw
 * bytes before anything is parsed: missing or wrong is 401 and nothing is stored. A valid body
 * is put, exactly as received, on the durable whatsapp-inbound queue and only then answered 200,
 * so nothing acknowledged can be lost; parsing and storing happen in functions/consumers/whatsapp-inbound.ts.
 * If the queue refuses, the answer is 503 and Meta retries. Bodies over 900 KiB are split by
 * update into several records (Meta allows 3 MB, SQS 1 MiB). The queue is FIFO, grouped by number
 * and chat (`webhookGroupId`), deduplicated by the body's SHA-256.
 */
export const handler = observed(async (event: APIGatewayProxyEventV2): Promise<APIGatewayProxyResultV2> => {
  const raw = rawBodyOf(event);
  const header = event.headers?.['x-hub-signature-256'] ?? event.headers?.['X-Hub-Signature-256'];
  if (!verifySignature(raw, header, config().WHATSAPP_APP_SECRET)) {
    log('warn', 'webhook.bad_signature', { has_header: !!header, bytes: raw.length });
    return json(401, { error: { code: 'webhook.bad_signature', message: 'Invalid signature', details: [{ field: 'x-hub-signature-256', reason: header ? 'does not match the body' : 'is missing' }] } });
  }
  try {
    const received_at = Date.now();
    // FIFO per chat (issue 23): one chat's bodies are stored in order, one batch at a time
    if (raw.length <= MAX_RECORD_BODY) {
      const text = raw.toString('utf8');
      await enqueue('whatsapp-inbound', { raw_body: text, received_at }, fifoOf(text));
    }
    else {
      // Meta sends up to 3 MB; a queue record holds 1 MiB. Split by update (signature already checked).
      let parsed: unknown;
      try {
        parsed = JSON.parse(raw.toString('utf8'));
      } catch {
        await keepRejection(undefined, 'body is not valid JSON', raw.toString('utf8'));
        return { statusCode: 200, headers: { 'content-type': 'text/plain' }, body: 'EVENT_RECEIVED' };
      }
      for (const part of splitWebhookBody(parsed, MAX_RECORD_BODY)) await enqueue('whatsapp-inbound', { raw_body: part, received_at }, fifoOf(part));
    }
  } catch (e) {
    log('error', 'webhook.enqueue_failed', { error: String((e as Error).message) });
    return json(503, { error: { code: 'webhook.unavailable', message: 'Try again' } });
  }
  recordMetric(METRIC.webhooksReceived);
  return { statusCode: 200, headers: { 'content-type': 'text/plain' }, body: 'EVENT_RECEIVED' };
});
