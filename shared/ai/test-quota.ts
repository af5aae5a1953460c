import { db } from '../db/service.ts';
import { AppError } from '../errors.ts';

/**
 * The test panel's rate limit (issue 42: `POST /ai/test` costs Bedrock calls and any member may
 * call it): a fixed window per org. One counter row per org and window (the AuthThrottle entity,
 * key `ai-test#<org_id>#<window index>`), counted by one atomic UpdateItem (ADD 1, conditional on
 * the count being under the limit), so concurrent requests never pass the limit together and no
 * read is needed. DynamoDB TTL removes a window's row a minute after it ends.
 */

/** Test questions one org may ask per window. */
export const AI_TEST_LIMIT = { max: 30, windowMs: 60_000 } as const;

const isConditionFailure = (e: unknown) =>
  (e as { cause?: { name?: string } }).cause?.name === 'ConditionalCheckFailedException' || /conditional/i.test(String((e as Error)?.message));

/**
 * Count one test question of the org at `now` (epoch ms).
 * @throws AppError 429 ai.test_rate_limited with `details.retry_after_s` (whole seconds until the window ends) and the wait in words
 */
export async function takeAiTestToken(orgId: string, now = Date.now(), limit: { max: number; windowMs: number } = AI_TEST_LIMIT): Promise<void> {
  const window = Math.floor(now / limit.windowMs);
  const ends = (window + 1) * limit.windowMs;
  try {
    await db()
      .entities.authThrottle.update({ key: `ai-test#${orgId}#${window}` })
      .add({ count: 1 })
      .set({ window_start: window * limit.windowMs, expires_at: Math.ceil(ends / 1000) + 60 })
      .where((a, op) => `${op.notExists(a.count)} OR ${op.lt(a.count, limit.max)}`)
      .go({ response: 'none' });
  } catch (e) {
    if (!isConditionFailure(e)) throw e;
    const s = Math.max(1, Math.ceil((ends - now) / 1000));
    throw new AppError('ai.test_rate_limited', `Too many test questions for this workspace (at most ${limit.max} a minute). Try again in ${s} second${s === 1 ? '' : 's'}.`, {
      status: 429,
      details: { retry_after_s: s, limit: limit.max, window_s: limit.windowMs / 1000 },
    });
  }
}
