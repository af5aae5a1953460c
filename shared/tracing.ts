import { Tracer } from '@aws-lambda-powertools/tracer';
import { inLambda } from './metrics.ts';

/**
 * AWS X-Ray tracing through Powertools for AWS Lambda's Tracer. Enabled only in Lambda
 * (`AWS_LAMBDA_FUNCTION_NAME` set; the functions run with active tracing), so the local runtime
 * and tests need no X-Ray daemon. `POWERTOOLS_TRACE_ENABLED=false` turns it off in Lambda.
 */
export const tracer = new Tracer({ serviceName: 'chorus', enabled: inLambda() && process.env.POWERTOOLS_TRACE_ENABLED !== 'false' });

/**
 * An AWS SDK v3 client whose calls appear as X-Ray subsegments (in Lambda); the client itself
 * elsewhere. Call where clients are created (shared/db/client.ts, the ports).
 */
export function traced<T>(client: T): T {
  return tracer.isTracingEnabled() ? (tracer.captureAWSv3Client(client) ?? client) : client;
}
