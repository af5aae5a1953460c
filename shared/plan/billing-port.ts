import { AppError } from '../errors.ts';
import { config } from '../config.ts';
import type { Currency, Frequency, PlanId } from './catalog.rules.ts';
import type { BillingEvent } from './entitlements.rules.ts';

/**
 * Payment port (issue 22): plan selection through a hosted checkout, the provider's signed webhooks
 * turned into {@link BillingEvent}s, and the invoices. Adapters: Stripe (shared/plan/billing-stripe.ts,
 * the official `stripe` library) in AWS; the local runtime installs the stand-in
 * (shared/plan/billing-local.ts), which signs its events with the same Stripe webhook scheme so the
 * one verification path runs everywhere.
 */
export interface CheckoutInput {
  org_id: string;
  plan_id: Exclude<PlanId, 'enterprise'>;
  frequency: Exclude<Frequency, 'custom'>;
  currency: Currency;
  licences: number;
  /** extra phones (Pro) */
  addon_phones: number;
  customer_email: string;
  customer_id?: string;
  /** absolute URLs the provider returns the browser to */
  success_url: string;
  cancel_url: string;
}

/** A verified provider event: its id (idempotency), the org it is about and what happened. */
export interface VerifiedBillingEvent {
  /** the provider's event id (Stripe `evt_…`): processed ids are kept 30 days so a replay is ignored */
  id: string;
  /** when the provider created the event, epoch SECONDS (Stripe `event.created`): an event older than the last applied one is ignored */
  created?: number;
  org_id: string;
  event: BillingEvent;
  customer_id?: string;
}

/** An invoice row of /settings/plans. Amounts in minor units; `created` epoch SECONDS (the provider's). */
export interface Invoice {
  id: string;
  number: string | null;
  amount: number;
  currency: string;
  status: string;
  created: number;
  url: string | null;
}

export interface BillingPort {
  /** A hosted checkout for the plan; the browser goes to `url`. */
  createCheckout(input: CheckoutInput): Promise<{ id: string; url: string }>;
  /**
   * Verify the webhook signature on the raw body and map the event.
   * @returns null for a verified event type we do not act on
   * @throws BillingSignatureError when the signature is missing or wrong
   */
  verifyWebhook(rawBody: string, signature: string | undefined): VerifiedBillingEvent | null;
  /** The customer's invoices, newest first (at most `limit`). */
  listInvoices(customerId: string, limit: number): Promise<Invoice[]>;
}

export class BillingSignatureError extends Error {}

let port: BillingPort | undefined;

/** Install an adapter (the local runtime: its stand-in; undefined: back to the default). */
export function setBillingPort(p: BillingPort | undefined): void {
  port = p;
}

/**
 * The installed adapter, else Stripe with STRIPE_SECRET_KEY and STRIPE_WEBHOOK_SECRET.
 * @throws AppError 503 billing.unavailable when neither is configured
 */
export async function billingPort(): Promise<BillingPort> {
  if (port) return port;
  const { STRIPE_SECRET_KEY, STRIPE_WEBHOOK_SECRET } = config();
  if (!STRIPE_SECRET_KEY || !STRIPE_WEBHOOK_SECRET) throw new AppError('billing.unavailable', 'Billing is not configured on this server.', { status: 503 });
  const { stripeBillingPort } = await import('./billing-stripe.ts');
  port = stripeBillingPort(STRIPE_SECRET_KEY, STRIPE_WEBHOOK_SECRET);
  return port;
}
