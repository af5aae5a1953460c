import { db } from '../db/service.ts';
import { AppError } from '../errors.ts';
import type { Claims } from './jwt.ts';

/**
 * Users are keyed on the Cognito `sub`, not on the token's email claim. On a user's first signed-in
 * request the pair is bound in two conditional writes:
 *   1. the User row of the email (keyed by email) gets `sub`, only if it has none or this one: an
 *      email belongs to one account;
 *   2. a UserIdentity row keyed by `sub` records the email (create-only): a sub stays that email.
 * Every later request resolves the email through the sub's row, so memberships (keyed by email)
 * follow the account even if the email claim changes, and a token whose email claim names another
 * account's address is refused (401) instead of acting as that account. In AWS the pool also keeps
 * the old email until a new one is verified (infra/stacks/auth-stack.ts `keepOriginal`), and the API
 * refuses unverified emails (shared/auth/jwt.ts), so the claim can only change to an address its
 * owner proved.
 *
 * Bindings are cached per process (they never change once written), so a warm Lambda reads the table
 * once per user.
 */

const cache = new Map<string, string>();
const CACHE_MAX = 10_000;

const isConditionFailure = (e: unknown) =>
  (e as { cause?: { name?: string } }).cause?.name === 'ConditionalCheckFailedException' || /conditional/i.test(String((e as Error)?.message));

const conflict = () =>
  new AppError('auth.identity_conflict', 'This email address belongs to another account. Sign in with that account, or ask support to move it.', { status: 401 });

/**
 * The claims with the email of the account (`sub`) that signed in: the bound email, binding the
 * claim's email on the first request.
 * @throws AppError 401 auth.identity_conflict when the claim's email is already another sub's and
 *   this sub has no binding yet
 */
export async function resolveIdentity(claims: Claims): Promise<Claims> {
  const email = cache.get(claims.sub) ?? (await boundEmail(claims.sub)) ?? (await bindIdentity(claims.sub, claims.email));
  if (cache.size >= CACHE_MAX) cache.clear();
  cache.set(claims.sub, email);
  return email === claims.email ? claims : { ...claims, email };
}

/** The email `sub` is bound to, or null before its first sign-in. */
export async function boundEmail(sub: string): Promise<string | null> {
  return (await db().entities.userIdentity.get({ sub }).go({ consistent: true })).data?.email ?? null;
}

/**
 * Bind `sub` to `email` (first sign-in), or, with `replace`, move the email to a new sub (the local
 * runtime's demo users after their Cognito store was re-created). @returns the email `sub` is bound to
 * @throws AppError 401 auth.identity_conflict when the email is another sub's
 */
export async function bindIdentity(sub: string, email: string, opts: { replace?: boolean } = {}): Promise<string> {
  const lower = email.toLowerCase();
  // UpdateItem (creates the row when missing) sets `sub` only: the row's other fields (flags, preferences) stay
  const user = db().entities.user.update({ email: lower }).set({ sub });
  try {
    await (opts.replace ? user : user.where((a, op) => `${op.notExists(a.sub)} OR ${op.eq(a.sub, sub)}`)).go();
  } catch (e) {
    if (isConditionFailure(e)) throw conflict();
    throw e;
  }
  try {
    await db().entities.userIdentity.create({ sub, email: lower }).go();
  } catch (e) {
    if (!isConditionFailure(e)) throw e;
    // a parallel first request of the same account bound it a moment ago
    const bound = await boundEmail(sub);
    if (bound) return bound;
    throw e;
  }
  cache.delete(sub);
  return lower;
}
