import type { UrlPolicy } from './url.rules.ts';

/**
 * Process-level settings of the webhook engine, from the environment (documented in the README):
 *  - `CHORUS_WEBHOOKS_ALLOW_LOOPBACK=1`: http:// and loopback addresses allowed for local test
 *    receivers (url.rules.ts). Ignored in Lambda (`AWS_LAMBDA_FUNCTION_NAME` set): AWS is always
 *    https-only and public-only. Off Lambda a refused loopback URL names this switch; `npm start`
 *    turns it on by itself while Chorus listens on this machine only (scripts/local/runtime.ts).
 *  - `CHORUS_WEBHOOK_BACKOFF_SCALE` (0 < x ≤ 1, default 1): multiplies the retry delays; the
 *    bench compresses ~27 h into seconds with it. Ignored in Lambda.
 * Read on every call (tests flip them); both are off by default.
 */
const inLambda = () => !!process.env.AWS_LAMBDA_FUNCTION_NAME;

/** The environment variable that allows local test receivers, as a refusal names it. */
export const LOOPBACK_SWITCH = 'CHORUS_WEBHOOKS_ALLOW_LOOPBACK=1';

export function urlPolicy(): UrlPolicy {
  if (inLambda()) return { allowLoopback: false };
  return { allowLoopback: process.env.CHORUS_WEBHOOKS_ALLOW_LOOPBACK === '1', loopbackSwitch: LOOPBACK_SWITCH };
}

export function backoffScale(): number {
  if (inLambda()) return 1;
  const v = Number(process.env.CHORUS_WEBHOOK_BACKOFF_SCALE);
  return Number.isFinite(v) && v > 0 && v <= 1 ? v : 1;
}
