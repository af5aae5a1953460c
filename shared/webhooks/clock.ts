/**
 * The webhook engine's clock (epoch ms): retry times, `failing_since`, the 5-day disabling rule,
 * delivery rows' times. Tests inject one (`setWebhookClock`) to run ~24 h of retries and 5 days of
 * failure without sleeping. Signatures' `webhook-timestamp` always use the real time (receivers
 * compare it to their own clock).
 */
let clock: () => number = () => Date.now();

export const webhookNow = (): number => clock();

/** Install a clock (undefined: back to Date.now). */
export function setWebhookClock(fn: (() => number) | undefined): void {
  clock = fn ?? (() => Date.now());
}
