import type { APIGatewayProxyEventV2, APIGatewayProxyResultV2 } from 'aws-lambda';
import { json, observed, rawBodyOf } from '../../lib/http.ts';
import { handleBillingWebhook } from '../../../shared/plan/plan.ts';
import { isAppError } from '../../../shared/errors.ts';

/**
 * POST /webhooks/billing: the payment provider's events (Stripe: invoice.paid, invoice.payment_failed,
 * customer.subscription.deleted). The `Stripe-Signature` header is verified on the raw bytes before
 * anything is parsed (400 when missing or wrong, nothing changes); a verified event is applied
 * through the one subscription state machine and answered 200.
 */
export const handler = observed(async (event: APIGatewayProxyEventV2): Promise<APIGatewayProxyResultV2> => {
  const raw = rawBodyOf(event).toString('utf8');
  const sig = event.headers?.['stripe-signature'] ?? event.headers?.['Stripe-Signature'];
  try {
    const outcome = await handleBillingWebhook(raw, sig);
    return json(200, { received: true, outcome });
  } catch (e) {
    if (isAppError(e)) return json(e.status, { error: { code: e.code, message: e.message, details: [{ field: 'stripe-signature', reason: sig ? 'does not match the body' : 'is missing' }] } });
    throw e;
  }
});
