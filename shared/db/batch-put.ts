import { AppError } from '../errors.ts';

/** An ElectroDB entity's batch put (BatchWriteItem, 25 items a call, `concurrency` calls at once). */
interface BatchPut<R> {
  put: (rows: R[]) => { go: (o: { concurrency: number }) => Promise<{ unprocessed?: unknown[] }> };
}

/**
 * Put `rows` in chunks of 500, retrying (up to 8 times, backing off 100 ms…6.4 s) the items
 * DynamoDB left unprocessed (throttling). `idOf` names a row by the attribute that tells rows apart
 * within the batch (it must also be in the unprocessed item's key).
 * @throws AppError 503 db.unprocessed when items are still unprocessed after the retries
 */
export async function putAllRetrying<R>(entity: BatchPut<R>, rows: R[], idOf: (row: R | Record<string, unknown>) => string, what: string): Promise<void> {
  for (let i = 0; i < rows.length; i += 500) {
    let todo = rows.slice(i, i + 500);
    for (let attempt = 0; todo.length && attempt < 8; attempt++) {
      if (attempt) await new Promise((r) => setTimeout(r, 50 * 2 ** attempt));
      const res = await entity.put(todo).go({ concurrency: 4 });
      const left = new Set((res.unprocessed ?? []).map((k) => idOf(k as Record<string, unknown>)));
      todo = todo.filter((r) => left.has(idOf(r)));
    }
    if (todo.length) throw new AppError('db.unprocessed', `Could not store ${todo.length} ${what} (the database is busy); try again.`, { status: 503 });
  }
}
