import { db } from './service.ts';

/**
 * One DynamoDB transaction through the Service (up to 100 items, all or nothing).
 * `TxEntities` is what the build callback receives; `TxItem` is one `.commit()` of an entity
 * operation inside it.
 */
export type TxEntities = Parameters<Parameters<ReturnType<typeof db>['transaction']['write']>[0]>[0];
export type TxItem = ReturnType<TxEntities['organization']['put']>['commit'] extends () => infer R ? R : never;

/**
 * Run one transaction. @returns false when DynamoDB cancelled it (a condition failed: a lost
 * optimistic-lock race, a duplicate); ElectroDB reports that as `canceled` instead of throwing.
 * Other errors are thrown.
 */
export async function commitTransaction(build: (e: TxEntities) => TxItem[]): Promise<boolean> {
  const res = await db().transaction.write(build as never).go();
  return !res.canceled;
}
