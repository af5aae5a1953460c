import type { APIGatewayProxyEventV2, APIGatewayProxyResultV2 } from 'aws-lambda';
import { timingSafeEqual } from 'node:crypto';
import { config } from '../../../shared/config.ts';
import { json } from '../../lib/http.ts';
import { observedLambda } from '../../lib/powertools.ts';

/**
 * GET /webhooks/whatsapp: Meta's verification handshake (whatsapp-protocols.md A.2). With
 * `hub.mode=subscribe` and the configured verify token, answer 200 with `hub.challenge` as plain
 * text; anything else 403 in the API's error shape.
 */
export const handler = observedLambda(async (event: APIGatewayProxyEventV2): Promise<APIGatewayProxyResultV2> => {
  const q = event.queryStringParameters ?? {};
  const expected = Buffer.from(config().WHATSAPP_VERIFY_TOKEN);
  const given = Buffer.from(q['hub.verify_token'] ?? '');
  const ok = q['hub.mode'] === 'subscribe' && expected.length > 0 && given.length === expected.length && timingSafeEqual(given, expected) && !!q['hub.challenge'];
  if (!ok) return json(403, { error: { code: 'webhook.verify_refused', message: 'Forbidden', details: [{ field: 'query.hub.verify_token', reason: 'does not match, or hub.mode/hub.challenge are missing' }] } });
  return { statusCode: 200, headers: { 'content-type': 'text/plain' }, body: q['hub.challenge'] };
});
