import type { MiddlewareObj } from '@middy/core';
import { injectLambdaContext } from '@aws-lambda-powertools/logger/middleware';
import { logMetrics } from '@aws-lambda-powertools/metrics/middleware';
import { captureLambdaHandler } from '@aws-lambda-powertools/tracer/middleware';
import { logger } from '../../shared/log.ts';
import { inLambda, metrics } from '../../shared/metrics.ts';
import { tracer } from '../../shared/tracing.ts';

/**
 * Powertools for AWS Lambda around a handler, in Lambda only (`AWS_LAMBDA_FUNCTION_NAME` set):
 * X-Ray segment (`captureLambdaHandler`), Lambda context on the logger (`injectLambdaContext`:
 * function name, cold start, AWS request id), EMF metrics flushed at the end of the invocation
 * (`logMetrics`). Register first, so their error hooks run after the error handler. Locally there
 * is no Lambda context to inject, no X-Ray and nothing to flush (shared/metrics.ts).
 */
export const observability = (): Array<MiddlewareObj<any, any, Error, any>> => // eslint-disable-line @typescript-eslint/no-explicit-any -- the Powertools middlewares are generic over any event
  inLambda() ? [captureLambdaHandler(tracer), injectLambdaContext(logger, { resetKeys: true }), logMetrics(metrics)] : [];

