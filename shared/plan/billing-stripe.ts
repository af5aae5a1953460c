import Stripe from 'stripe';
import { PLANS, isPlanId } from './catalog.rules.ts';
import { BillingSignatureError, type BillingPort, type CheckoutInput, type Invoice, type VerifiedBillingEvent } from './billing-port.ts';
import { addonPhoneUnit } from './catalog.rules.ts';

/** Stripe recurring interval of a billing frequency. */
const INTERVAL = { yearly: 'year', monthly: 'month', weekly: 'week' } as const;

/** Checkout line items: the plan per licence, and extra phones (Pro), priced from the catalogue (price_data, no Stripe Price objects to keep in sync). */
export function checkoutLineItems(input: CheckoutInput): Stripe.Checkout.SessionCreateParams.LineItem[] {
  const plan = PLANS[input.plan_id];
  const amount = plan.prices[input.frequency]?.[input.currency];
  if (!amount) throw new Error(`no ${input.frequency} ${input.currency} price for ${input.plan_id}`);
  const interval = INTERVAL[input.frequency];
  const items: Stripe.Checkout.SessionCreateParams.LineItem[] = [
    { quantity: input.licences, price_data: { currency: input.currency.toLowerCase(), unit_amount: amount, recurring: { interval }, product_data: { name: `Chorus ${plan.name} (per user)` } } },
  ];
  if (input.addon_phones > 0 && plan.addons.phones) {
    const unit = addonPhoneUnit(input.currency, input.frequency);
    items.push({ quantity: input.addon_phones, price_data: { currency: input.currency.toLowerCase(), unit_amount: unit, recurring: { interval }, product_data: { name: 'Chorus extra phone' } } });
  }
  return items;
}

const metaOf = (o: { metadata?: Stripe.Metadata | null } | null | undefined): Record<string, string> => ({ ...(o?.metadata ?? {}) });

/**
 * Map a verified Stripe event (https://docs.stripe.com/billing/subscriptions/webhooks):
 * - `invoice.paid` → paid (plan, licences and extra phones from the subscription metadata we set at checkout,
 *   period end from the invoice line, epoch seconds);
 * - `invoice.payment_failed` → failed (past_due: the overdue banner);
 * - `customer.subscription.deleted` → canceled, `payment_failed` when Stripe says so (inactive screen).
 * Other types: null. The org id comes from metadata `org_id` (set on the subscription at checkout).
 */
export function mapStripeEvent(ev: Stripe.Event): VerifiedBillingEvent | null {
  switch (ev.type) {
    case 'invoice.paid': {
      const inv = ev.data.object;
      const meta = { ...metaOf(inv.parent?.subscription_details), ...metaOf(inv) };
      const org_id = meta.org_id;
      if (!org_id || !isPlanId(meta.plan_id)) return null;
      const line = inv.lines?.data?.[0];
      const current_period_end = line?.period?.end ?? inv.period_end;
      return {
        id: ev.id, created: ev.created,
        org_id,
        customer_id: typeof inv.customer === 'string' ? inv.customer : inv.customer?.id,
        event: {
          type: 'paid',
          plan_id: meta.plan_id,
          current_period_end,
          licences: Number(meta.licences) || undefined,
          ...(meta.addon_phones !== undefined ? { addon_phones: Number(meta.addon_phones) || 0 } : {}),
          frequency: meta.frequency,
          currency: inv.currency?.toUpperCase(),
        },
      };
    }
    case 'invoice.payment_failed': {
      const inv = ev.data.object;
      const org_id = { ...metaOf(inv.parent?.subscription_details), ...metaOf(inv) }.org_id;
      return org_id ? { id: ev.id, created: ev.created, org_id, event: { type: 'failed' } } : null;
    }
    case 'customer.subscription.deleted': {
      const sub = ev.data.object;
      const org_id = metaOf(sub).org_id;
      return org_id ? { id: ev.id, created: ev.created, org_id, event: { type: 'canceled', reason: sub.cancellation_details?.reason === 'payment_failed' ? 'payment_failed' : 'other' } } : null;
    }
    default:
      return null;
  }
}

/** Verify with `stripe.webhooks.constructEvent` (HMAC-SHA256 over `t.payload`, 300 s tolerance), then map. */
export function verifyStripeWebhook(stripe: Stripe, raw: string, signature: string | undefined, secret: string): VerifiedBillingEvent | null {
  if (!signature) throw new BillingSignatureError('missing Stripe-Signature');
  let ev: Stripe.Event;
  try {
    ev = stripe.webhooks.constructEvent(raw, signature, secret);
  } catch (e) {
    throw new BillingSignatureError(e instanceof Error ? e.message : String(e));
  }
  return mapStripeEvent(ev);
}

/** The Stripe adapter: Checkout Sessions in subscription mode, signed webhooks, invoices. */
export function stripeBillingPort(secretKey: string, webhookSecret: string): BillingPort {
  const stripe = new Stripe(secretKey);
  return {
    async createCheckout(input) {
      const metadata = { org_id: input.org_id, plan_id: input.plan_id, frequency: input.frequency, licences: String(input.licences), addon_phones: String(input.addon_phones) };
      const s = await stripe.checkout.sessions.create({
        mode: 'subscription',
        line_items: checkoutLineItems(input),
        client_reference_id: input.org_id,
        ...(input.customer_id ? { customer: input.customer_id } : { customer_email: input.customer_email }),
        metadata,
        subscription_data: { metadata },
        success_url: input.success_url,
        cancel_url: input.cancel_url,
      });
      if (!s.url) throw new Error('Stripe returned a checkout session without a url');
      return { id: s.id, url: s.url };
    },
    verifyWebhook: (raw, signature) => verifyStripeWebhook(stripe, raw, signature, webhookSecret),
    async listInvoices(customerId, limit): Promise<Invoice[]> {
      const list = await stripe.invoices.list({ customer: customerId, limit });
      return list.data.map((i) => ({ id: i.id ?? '', number: i.number ?? null, amount: i.amount_paid || i.amount_due, currency: i.currency.toUpperCase(), status: i.status ?? 'draft', created: i.created, url: i.hosted_invoice_url ?? null }));
    },
  };
}
