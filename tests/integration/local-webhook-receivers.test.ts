import { afterEach, describe, expect, it } from 'vitest';
import { loopbackWebhooksSetting } from '../../scripts/local/runtime.ts';
import { LOOPBACK_SWITCH, urlPolicy } from '../../shared/webhooks/policy.ts';
import { endpointUrlProblem } from '../../shared/webhooks/url.rules.ts';

/**
 * Issue 49 item 8: a local webhook receiver (http://127.0.0.1) was refused with only "must start
 * with https://". Now the refusal names the switch off AWS, and `npm start` allows loopback
 * receivers by itself while it listens on this machine only; AWS stays https-only.
 */
const saved = { lambda: process.env.AWS_LAMBDA_FUNCTION_NAME, loopback: process.env.CHORUS_WEBHOOKS_ALLOW_LOOPBACK };
afterEach(() => {
  for (const [k, v] of [['AWS_LAMBDA_FUNCTION_NAME', saved.lambda], ['CHORUS_WEBHOOKS_ALLOW_LOOPBACK', saved.loopback]] as const) {
    if (v === undefined) delete process.env[k];
    else process.env[k] = v;
  }
});

describe('local webhook receivers', () => {
  it('npm start allows them while listening on loopback only; an explicit setting wins', () => {
    expect(loopbackWebhooksSetting(undefined, true, '127.0.0.1')).toBe('1');
    expect(loopbackWebhooksSetting(undefined, true, '::1')).toBe('1');
    expect(loopbackWebhooksSetting(undefined, true, 'localhost')).toBe('1');
    // HOST=0.0.0.0: others can sign in, and must not reach this machine's loopback through webhooks
    expect(loopbackWebhooksSetting(undefined, true, '0.0.0.0')).toBeUndefined();
    expect(loopbackWebhooksSetting(undefined, true, '192.168.1.20')).toBeUndefined();
    // the test runtime does not ask for it
    expect(loopbackWebhooksSetting(undefined, false, '127.0.0.1')).toBeUndefined();
    expect(loopbackWebhooksSetting('0', true, '127.0.0.1')).toBe('0');
    expect(loopbackWebhooksSetting('1', false, '0.0.0.0')).toBe('1');
  });

  it('off AWS the refusal of http://127.0.0.1 names the switch; in Lambda nothing allows it or is suggested', () => {
    delete process.env.AWS_LAMBDA_FUNCTION_NAME;
    delete process.env.CHORUS_WEBHOOKS_ALLOW_LOOPBACK;
    expect(endpointUrlProblem('http://127.0.0.1:8080/hook', urlPolicy())).toContain(LOOPBACK_SWITCH);
    process.env.CHORUS_WEBHOOKS_ALLOW_LOOPBACK = '1';
    expect(endpointUrlProblem('http://127.0.0.1:8080/hook', urlPolicy())).toBeNull();
    process.env.AWS_LAMBDA_FUNCTION_NAME = 'chorus-api';
    expect(urlPolicy()).toEqual({ allowLoopback: false });
    expect(endpointUrlProblem('http://127.0.0.1:8080/hook', urlPolicy())).toBe('must start with https://');
  });
});
