import { afterEach, describe, expect, it, vi } from 'vitest';

vi.mock('./auth.ts', () => ({ getIdToken: async () => 'token', SESSION_EXPIRED_MESSAGE: 'Session expired! Please login again' }));
vi.mock('./config.ts', () => ({ getConfig: () => ({ apiUrl: 'http://api.test' }) }));

const { ApiError, apiRequest, setEntitlementHandler } = await import('./api.ts');

const answer = (status: number, body: unknown) => vi.fn(async () => new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } }));

/** Issue 42: a refusal of the server's entitlement gate reaches the lifecycle layer (its screens and upgrade prompt). */
describe('entitlement refusals', () => {
  afterEach(() => {
    vi.unstubAllGlobals();
    setEntitlementHandler(() => undefined);
  });

  it('hands subscription_ended, trial_ended and plan_feature to the registered handler and still rejects', async () => {
    const seen: string[] = [];
    setEntitlementHandler((e) => void seen.push(`${e.status} ${e.code}`));
    for (const [status, code] of [
      [402, 'subscription_ended'],
      [402, 'trial_ended'],
      [403, 'plan_feature'],
    ] as const) {
      vi.stubGlobal('fetch', answer(status, { error: { code, message: 'refused', details: [{ field: 'plan', reason: code, plan_needed: 'pro' }] } }));
      await expect(apiRequest('POST', '/api/orgs/o1/chats/c1/messages', { body: 'hi' })).rejects.toBeInstanceOf(ApiError);
    }
    expect(seen).toEqual(['402 subscription_ended', '402 trial_ended', '403 plan_feature']);
  });

  it('leaves other errors alone', async () => {
    const handler = vi.fn();
    setEntitlementHandler(handler);
    vi.stubGlobal('fetch', answer(403, { error: { code: 'chat.forbidden', message: 'no' } }));
    await expect(apiRequest('GET', '/api/orgs/o1/chats/c1')).rejects.toMatchObject({ code: 'chat.forbidden' });
    expect(handler).not.toHaveBeenCalled();
  });
});
