import { randomUUID } from 'node:crypto';
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import Stripe from 'stripe';
import { checkoutLineItems, verifyStripeWebhook } from './billing-stripe.ts';
import type { BillingPort, CheckoutInput, Invoice } from './billing-port.ts';

/**
 * Stripe-shaped events signed with the Stripe webhook scheme (`stripe.webhooks.generateTestHeaderString`),
 * so the local stand-in, the `npm run billing` script and the tests go through the same
 * `constructEvent` verification as production.
 */
export function stripeShapedEvent(kind: 'paid' | 'failed' | 'canceled', o: { org_id: string; plan_id?: string; frequency?: string; licences?: number; addon_phones?: number; currency?: string; amount?: number; period_end?: number; customer?: string; reason?: string; id?: string; created?: number }): { id: string; payload: string } {
  const id = o.id ?? `evt_local_${randomUUID().replace(/-/g, '')}`;
  const meta = { org_id: o.org_id, plan_id: o.plan_id ?? 'pro', frequency: o.frequency ?? 'monthly', licences: String(o.licences ?? 1), ...(o.addon_phones !== undefined ? { addon_phones: String(o.addon_phones) } : {}) };
  const now = o.created ?? Math.floor(Date.now() / 1000);
  const end = o.period_end ?? now + (o.frequency === 'yearly' ? 365 : o.frequency === 'weekly' ? 7 : 30) * 86_400;
  const invoice = {
    id: `in_local_${randomUUID().slice(0, 8)}`,
    object: 'invoice',
    customer: o.customer ?? `cus_local_${o.org_id}`,
    currency: (o.currency ?? 'usd').toLowerCase(),
    amount_paid: kind === 'paid' ? (o.amount ?? 0) : 0,
    amount_due: o.amount ?? 0,
    status: kind === 'paid' ? 'paid' : 'open',
    created: now,
    period_end: end,
    metadata: {},
    parent: { type: 'subscription_details', subscription_details: { metadata: meta, subscription: `sub_local_${o.org_id}` } },
    lines: { object: 'list', data: [{ period: { start: now, end } }] },
  };
  const data =
    kind === 'canceled'
      ? { object: { id: `sub_local_${o.org_id}`, object: 'subscription', metadata: meta, status: 'canceled', cancellation_details: { reason: o.reason ?? 'payment_failed' } } }
      : { object: invoice };
  const type = kind === 'paid' ? 'invoice.paid' : kind === 'failed' ? 'invoice.payment_failed' : 'customer.subscription.deleted';
  return { id, payload: JSON.stringify({ id, object: 'event', type, api_version: '2025-10-29', created: now, data, livemode: false }) };
}

/** The `Stripe-Signature` header of a payload for a webhook secret (the library's own test signer). */
export function signStripePayload(payload: string, secret: string): string {
  return new Stripe('sk_test_local').webhooks.generateTestHeaderString({ payload, secret });
}

/**
 * The local stand-in of the payment port (`npm start`, tests): checkout completes at once — it signs
 * an `invoice.paid` event with the data dir's webhook secret and hands it to `deliver` (the same
 * handler as POST /webhooks/billing), then sends the browser back to the success URL's path. Invoices are
 * kept in `<dataDir>/billing-invoices.json`.
 */
export function localBillingPort(opts: { dataDir: string; webhookSecret: string; deliver: (raw: string, signature: string) => Promise<void> }): BillingPort {
  const stripe = new Stripe('sk_test_local');
  const file = join(opts.dataDir, 'billing-invoices.json');
  const load = async (): Promise<Record<string, Invoice[]>> => {
    try {
      return JSON.parse(await readFile(file, 'utf8')) as Record<string, Invoice[]>;
    } catch {
      return {};
    }
  };
  return {
    async createCheckout(input: CheckoutInput) {
      const items = checkoutLineItems(input);
      const amount = items.reduce((s, i) => s + (i.price_data?.unit_amount ?? 0) * (i.quantity ?? 1), 0);
      const customer = input.customer_id ?? `cus_local_${input.org_id}`;
      const ev = stripeShapedEvent('paid', { org_id: input.org_id, plan_id: input.plan_id, frequency: input.frequency, licences: input.licences, addon_phones: input.addon_phones, currency: input.currency, amount, customer });
      const all = await load();
      const inv = (JSON.parse(ev.payload) as { data: { object: { id: string; created: number } } }).data.object;
      all[customer] = [{ id: inv.id, number: `LOCAL-${String((all[customer]?.length ?? 0) + 1).padStart(4, '0')}`, amount, currency: input.currency, status: 'paid', created: inv.created, url: null }, ...(all[customer] ?? [])];
      await writeFile(file, JSON.stringify(all));
      await opts.deliver(ev.payload, signStripePayload(ev.payload, opts.webhookSecret));
      // a path of the app itself (its host may be localhost or 127.0.0.1): the web app navigates there
      const back = new URL(input.success_url);
      return { id: `cs_local_${ev.id.slice(10)}`, url: back.pathname + back.search };
    },
    verifyWebhook: (raw, signature) => verifyStripeWebhook(stripe, raw, signature, opts.webhookSecret),
    async listInvoices(customerId, limit) {
      return ((await load())[customerId] ?? []).slice(0, limit);
    },
  };
}
