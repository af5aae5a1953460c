import type { APIGatewayProxyEventV2, APIGatewayProxyResultV2 } from 'aws-lambda';
import { config } from '../../../shared/config.ts';
import { verifySignature } from '../../../shared/whatsapp/cloud/signature.ts';
import { enqueue } from '../../../shared/ports/commands.ts';
import { rawBodyOf } from '../../lib/http.ts';
import { log } from '../../../shared/log.ts';

/**
 * POST /webhooks/whatsapp (whatsapp-protocols.md A.3/A.4). The signature is checked on the raw
 * bytes before anything is parsed: missing or wrong is 401 and nothing is stored. A valid body
 * is put, exactly as received, on the durable whatsapp-inbound queue and only then answered 200,
 * so nothing acknowledged can be lost; parsing and storing happen in process-webhook.ts.
 * If the queue refuses, the answer is 503 and Meta retries.
 */
export const handler = async (event: APIGatewayProxyEventV2): Promise<APIGatewayProxyResultV2> => {
  const raw = rawBodyOf(event);
  const header = event.headers?.['x-hub-signature-256'] ?? event.headers?.['X-Hub-Signature-256'];
  if (!verifySignature(raw, header, config().WHATSAPP_APP_SECRET)) {
    log('warn', 'webhook.bad_signature', { has_header: !!header, bytes: raw.length });
    return { statusCode: 401, headers: { 'content-type': 'text/plain' }, body: 'Invalid signature' };
  }
  try {
    await enqueue('whatsapp-inbound', { raw_body: raw.toString('utf8'), received_at: Date.now() });
  } catch (e) {
    log('error', 'webhook.enqueue_failed', { error: String((e as Error).message) });
    return { statusCode: 503, headers: { 'content-type': 'text/plain' }, body: 'Try again' };
  }
  return { statusCode: 200, headers: { 'content-type': 'text/plain' }, body: 'EVENT_RECEIVED' };
};
