import type { Tracer } from '@aws-lambda-powertools/tracer';
import { inLambda } from './metrics.ts';

/**
 * AWS X-Ray tracing through Powertools for AWS Lambda's Tracer. Enabled only in Lambda
 * (`AWS_LAMBDA_FUNCTION_NAME` set; the functions run with active tracing), so the local runtime
 * and tests need no X-Ray daemon. `POWERTOOLS_TRACE_ENABLED=false` turns it off in Lambda.
 *
 * The Tracer is imported only when tracing is on: importing it loads aws-xray-sdk-core, whose
 * cls-hooked context turns on async_hooks destroy tracking for every promise of the process. In
 * the local runtime that made each `await` about 4× slower (2M awaits: 0.98 s → 3.85 s on this
 * machine) and cost ~10% of every HTTP request's CPU. `null` when tracing is off.
 */
export const tracer: Tracer | null =
  inLambda() && process.env.POWERTOOLS_TRACE_ENABLED !== 'false' ? new (await import('@aws-lambda-powertools/tracer')).Tracer({ serviceName: 'chorus', enabled: true }) : null;

/**
 * An AWS SDK v3 client whose calls appear as X-Ray subsegments (in Lambda); the client itself
 * elsewhere. Call where clients are created (shared/db/client.ts, the ports).
 */
export function traced<T>(client: T): T {
  return tracer?.isTracingEnabled() ? (tracer.captureAWSv3Client(client) ?? client) : client;
}
