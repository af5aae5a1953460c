/**
 * Optimistic concurrency, one way: read, compute, write with a condition (a `version` check, an
 * attribute_not_exists), and on a lost race read again and retry. `retryOnConflict` runs the
 * rounds; `isConflictError` is the one test of "another writer got there first".
 *
 * DynamoDB reports a lost race as (DynamoDB API reference, Errors):
 *   ConditionalCheckFailedException   a single-item write's condition was false
 *   TransactionCanceledException      a transaction was cancelled; a race when every cancellation
 *                                     reason is None, ConditionalCheckFailed or TransactionConflict
 *   TransactionConflictException      another transaction held one of the items
 * ElectroDB wraps the SDK error (`ElectroError`, the SDK error as `cause`), so the cause chain is
 * walked. Errors are recognised by `name`, never by message text. ElectroDB's transaction writes
 * report cancellation as `{ canceled: true }` instead of throwing: return `RETRY` for those.
 */

/** Returned by an attempt to ask for another round (e.g. `commitTransaction` returned false). */
export const RETRY: unique symbol = Symbol('retryOnConflict.retry');

const CONFLICT_NAMES = new Set(['ConditionalCheckFailedException', 'TransactionConflictException']);
const RACE_REASONS = new Set(['None', 'ConditionalCheckFailed', 'TransactionConflict']);

/** True when `e` (or an error in its `cause` chain) is DynamoDB reporting a lost race, by error name. */
export function isConflictError(e: unknown): boolean {
  for (let err = e, depth = 0; err && typeof err === 'object' && depth < 5; err = (err as { cause?: unknown }).cause, depth++) {
    const name = (err as { name?: unknown }).name;
    if (typeof name === 'string' && CONFLICT_NAMES.has(name)) return true;
    if (name === 'TransactionCanceledException') {
      const reasons = (err as { CancellationReasons?: Array<{ Code?: string }> }).CancellationReasons;
      // without reasons we cannot tell a race from a bad request: not a conflict
      return Array.isArray(reasons) && reasons.length > 0 && reasons.every((r) => RACE_REASONS.has(r?.Code ?? 'None')) && reasons.some((r) => r?.Code && r.Code !== 'None');
    }
  }
  return false;
}

/** Thrown by `retryOnConflict` when every attempt lost its race. */
export class ConflictRetriesExhausted extends Error {
  override readonly name = 'ConflictRetriesExhausted';
  constructor(what: string, readonly attempts: number) {
    super(`${what} kept changing (${attempts} attempts); retry`);
  }
}

export interface RetryOptions<T> {
  /** rounds before giving up @default 8 */
  readonly attempts?: number;
  /** the result when every round lost its race; without it ConflictRetriesExhausted is thrown */
  readonly onExhausted?: () => T;
}

/**
 * Run `attempt(n)` (n = 0, 1, ...) until it returns a value other than RETRY. A round that throws a
 * conflict (`isConflictError`) or returns RETRY is run again, from its read; any other error is
 * thrown at once. No delay between rounds: the next read already sees the winner's write.
 * @param what names the contended item in the error, e.g. `chat 123`
 * @throws ConflictRetriesExhausted after `attempts` lost rounds (unless `onExhausted` is given)
 */
export async function retryOnConflict<T>(what: string, attempt: (n: number) => Promise<T | typeof RETRY>, options: RetryOptions<T> = {}): Promise<T> {
  const attempts = options.attempts ?? 8;
  for (let n = 0; n < attempts; n++) {
    try {
      const result = await attempt(n);
      if (result !== RETRY) return result;
    } catch (e) {
      if (!isConflictError(e)) throw e;
    }
  }
  if (options.onExhausted) return options.onExhausted();
  throw new ConflictRetriesExhausted(what, attempts);
}
