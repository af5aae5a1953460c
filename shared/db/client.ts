import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { config } from '../config.ts';
import { traced } from '../tracing.ts';
import { watchersOf } from './write-watch.ts';

let doc: DynamoDBDocumentClient | undefined;

/** Runs one DynamoDB request (after the SDK's retries, before its HTTP send); see setDynamoCallGate. */
export type DynamoCallGate = <T>(send: () => Promise<T>) => Promise<T>;
let callGate: DynamoCallGate | undefined;

/**
 * Install (or remove, with undefined) a gate every DynamoDB request of this process passes through,
 * each retry attempt on its own. The local runtime's priority gate (scripts/local/db-gate.ts) uses it;
 * none is installed in Lambda.
 */
export function setDynamoCallGate(gate: DynamoCallGate | undefined): void {
  callGate = gate;
}

/**
 * The DynamoDB document client, created once per process. Honours `AWS_ENDPOINT_URL`
 * (DynamoDB Local, LocalStack) and `AWS_REGION`; credentials come from the default chain
 * (the local runtime sets dummy ones). The SDK's logger middleware is removed (nothing logs SDK calls).
 */
export function documentClient(): DynamoDBDocumentClient {
  if (!doc) {
    const { AWS_REGION, AWS_ENDPOINT_URL } = config();
    const raw = traced(new DynamoDBClient({ region: AWS_REGION, endpoint: AWS_ENDPOINT_URL, maxAttempts: 5 }));
    // no SDK logger is configured, but its middleware still walks every input and output through the
    // sensitive-data filter before handing them to the no-op logger: ~5% of a list request's CPU
    raw.middlewareStack.remove('loggerMiddleware');
    raw.middlewareStack.add((next) => (args) => (callGate ? callGate(() => next(args)) : next(args)), { step: 'finalizeRequest', priority: 'low', name: 'chorusCallGate' });
    doc = DynamoDBDocumentClient.from(raw, { marshallOptions: { removeUndefinedValues: true } });
    // per-process read caches forget what this process writes (shared/db/write-watch.ts)
    doc.middlewareStack.add(
      (next, context) => async (args) => {
        const onWrite = watchersOf(context.commandName ?? '', args.input);
        if (!onWrite.length) return next(args);
        for (const f of onWrite) f();
        try {
          return await next(args);
        } finally {
          for (const f of onWrite) f();
        }
      },
      { step: 'initialize', name: 'chorusWriteWatch' },
    );
  }
  return doc;
}

/** Forget the client (tests that point at another table). */
export function resetDocumentClient(): void {
  doc = undefined;
}
