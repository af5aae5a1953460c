import { describe, expect, it, vi } from 'vitest';
import { watchersOf, watchWrites, writtenKeys } from './write-watch.ts';

const k = (sk: string) => ({ pk: 'p', sk });

describe('writtenKeys', () => {
  it('names the keys of puts, updates, deletes, transactions and batch writes, and none of reads', () => {
    expect(writtenKeys('PutItemCommand', { Item: { ...k('a'), x: 1 } })).toEqual([k('a')]);
    expect(writtenKeys('UpdateItemCommand', { Key: k('b') })).toEqual([k('b')]);
    expect(writtenKeys('DeleteItemCommand', { Key: k('c') })).toEqual([k('c')]);
    expect(writtenKeys('TransactWriteItemsCommand', { TransactItems: [{ Put: { Item: k('d') } }, { Update: { Key: k('e') } }, { Delete: { Key: k('f') } }, { ConditionCheck: { Key: k('g') } }] })).toEqual([k('d'), k('e'), k('f')]);
    expect(writtenKeys('BatchWriteItemCommand', { RequestItems: { t: [{ PutRequest: { Item: k('h') } }, { DeleteRequest: { Key: k('i') } }] } })).toEqual([k('h'), k('i')]);
    expect(writtenKeys('GetItemCommand', { Key: k('j') })).toEqual([]);
    expect(writtenKeys('QueryCommand', {})).toEqual([]);
    expect(writtenKeys('PutItemCommand', {})).toEqual([]);
  });
});

describe('watchWrites', () => {
  it('calls a watcher only for writes of the items it matches', () => {
    const onWrite = vi.fn();
    watchWrites((key) => key.sk.startsWith('$watched_1#'), onWrite);
    expect(watchersOf('PutItemCommand', { Item: k('$other_1#x') })).toEqual([]);
    expect(watchersOf('GetItemCommand', { Key: k('$watched_1#x') })).toEqual([]);
    const fired = watchersOf('TransactWriteItemsCommand', { TransactItems: [{ Put: { Item: k('$other_1#x') } }, { Update: { Key: k('$watched_1#y') } }] });
    expect(fired).toHaveLength(1);
    fired[0]!();
    expect(onWrite).toHaveBeenCalledWith([k('$watched_1#y')]);
  });
});
