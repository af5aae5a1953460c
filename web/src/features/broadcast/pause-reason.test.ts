import { describe, expect, it } from 'vitest';
import { pauseReasonText } from './pause-reason.ts';

describe('pauseReasonText (issue 42: a broadcast paused after an end says why)', () => {
  it('names the ended subscription or trial, not the credits; nothing for a broadcast a person paused', () => {
    expect(pauseReasonText('subscription_ended')).toMatch(/^Paused because your subscription has ended/);
    expect(pauseReasonText('subscription_ended')).not.toMatch(/credit/);
    expect(pauseReasonText('trial_ended')).toMatch(/^Paused because your free trial has ended/);
    expect(pauseReasonText('out_of_credits')).toMatch(/credits ran out/);
    expect(pauseReasonText(null)).toBeNull();
  });
});
