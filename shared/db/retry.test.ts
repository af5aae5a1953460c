import { ConditionalCheckFailedException, TransactionCanceledException, TransactionConflictException } from '@aws-sdk/client-dynamodb';
import { describe, expect, it } from 'vitest';
import { ConflictRetriesExhausted, isConflictError, RETRY, retryOnConflict } from './retry.ts';

const meta = { $metadata: {} };
const conditional = () => new ConditionalCheckFailedException({ message: 'The conditional request failed', ...meta });
const canceled = (...codes: string[]) =>
  new TransactionCanceledException({ message: 'Transaction cancelled', CancellationReasons: codes.map((Code) => ({ Code })), ...meta });
/** how ElectroDB rethrows an SDK error */
const electro = (cause: unknown) => Object.assign(new Error('Error thrown by DynamoDB client: "The Conditional request failed"'), { name: 'ElectroError', cause });

describe('isConflictError', () => {
  it('recognises the SDK conflict errors by name, directly or as an ElectroDB cause', () => {
    expect(isConflictError(conditional())).toBe(true);
    expect(isConflictError(new TransactionConflictException({ message: 'x', ...meta }))).toBe(true);
    expect(isConflictError(electro(conditional()))).toBe(true);
    expect(isConflictError(electro(electro(conditional())))).toBe(true);
  });

  it('treats a cancelled transaction as a conflict only when every reason is a race', () => {
    expect(isConflictError(canceled('None', 'ConditionalCheckFailed'))).toBe(true);
    expect(isConflictError(canceled('TransactionConflict', 'None'))).toBe(true);
    expect(isConflictError(canceled('ConditionalCheckFailed', 'ValidationError'))).toBe(false);
    expect(isConflictError(canceled('None'))).toBe(false);
    expect(isConflictError(new TransactionCanceledException({ message: 'x', ...meta }))).toBe(false);
  });

  it('never matches on message text', () => {
    expect(isConflictError(new Error('The conditional request failed'))).toBe(false);
    expect(isConflictError(new Error('ConditionalCheckFailedException'))).toBe(false);
    expect(isConflictError(undefined)).toBe(false);
    expect(isConflictError('ConditionalCheckFailedException')).toBe(false);
  });
});

describe('retryOnConflict', () => {
  it('returns the first result that is not RETRY', async () => {
    const seen: number[] = [];
    const result = await retryOnConflict('chat 1', async (n) => {
      seen.push(n);
      return n < 2 ? RETRY : 'done';
    });
    expect(result).toBe('done');
    expect(seen).toEqual([0, 1, 2]);
  });

  it('runs the attempt again after a conflict error', async () => {
    let calls = 0;
    const result = await retryOnConflict('message m1', async () => {
      calls++;
      if (calls === 1) throw electro(conditional());
      if (calls === 2) throw canceled('ConditionalCheckFailed');
      return calls;
    });
    expect(result).toBe(3);
  });

  it('throws other errors at once', async () => {
    let calls = 0;
    const boom = new Error('ValidationException');
    await expect(
      retryOnConflict('chat 1', async () => {
        calls++;
        throw boom;
      }),
    ).rejects.toBe(boom);
    expect(calls).toBe(1);
  });

  it('gives up after the attempts with ConflictRetriesExhausted naming the item', async () => {
    let calls = 0;
    const err = await retryOnConflict('chat 42', async () => {
      calls++;
      throw conditional();
    }, { attempts: 3 }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ConflictRetriesExhausted);
    expect((err as Error).message).toBe('chat 42 kept changing (3 attempts); retry');
    expect(calls).toBe(3);
  });

  it('returns onExhausted() instead when given', async () => {
    expect(await retryOnConflict('x', async () => RETRY, { attempts: 2, onExhausted: () => 'gave up' })).toBe('gave up');
  });
});
