import { readFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { signStripePayload, stripeShapedEvent } from '../shared/plan/billing-local.ts';

/**
 * `npm run billing -- <paid|failed|canceled> [--plan pro] [--licences 3] [--org <org_id>]` (issue 22):
 * send the running local Chorus a billing event signed like Stripe's (the data dir's webhook
 * secret), to watch the overdue banner (failed), the inactive screen (canceled) or reactivate
 * (paid). The org defaults to the demo workspace (`<data dir>/runtime.json`).
 */
const args = process.argv.slice(2);
const kind = args[0];
const opt = (name: string) => {
  const i = args.indexOf(`--${name}`);
  return i >= 0 ? args[i + 1] : undefined;
};
if (kind !== 'paid' && kind !== 'failed' && kind !== 'canceled') {
  console.error('usage: npm run billing -- <paid|failed|canceled> [--plan starter|pro|enterprise] [--licences N] [--org org_id]');
  process.exit(2);
}
const dataDir = resolve(process.env.CHORUS_DATA_DIR || '.data');
const secret = process.env.STRIPE_WEBHOOK_SECRET || (await readFile(join(dataDir, 'billing-webhook-secret'), 'utf8')).trim();
let orgId = opt('org');
if (!orgId) {
  for (const f of ['runtime.json']) {
    try {
      orgId = (JSON.parse(await readFile(join(dataDir, f), 'utf8')) as { orgId?: string }).orgId;
      if (orgId) break;
    } catch {
      /* next */
    }
  }
}
if (!orgId) throw new Error('no org id: pass --org <org_id>');
const ev = stripeShapedEvent(kind, { org_id: orgId, plan_id: opt('plan') ?? 'pro', licences: Number(opt('licences') ?? 3), reason: 'payment_failed' });
const url = `http://127.0.0.1:${process.env.PORT || 3000}/webhooks/billing`;
const res = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json', 'stripe-signature': signStripePayload(ev.payload, secret) }, body: ev.payload });
console.log(`${kind} for ${orgId}: HTTP ${res.status} ${await res.text()}`);
