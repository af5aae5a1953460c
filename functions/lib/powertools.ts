import middy, { type MiddlewareObj } from '@middy/core';
import type { Context } from 'aws-lambda';
import { injectLambdaContext } from '@aws-lambda-powertools/logger/middleware';
import { logMetrics } from '@aws-lambda-powertools/metrics/middleware';
import { captureLambdaHandler } from '@aws-lambda-powertools/tracer/middleware';
import { logger, withLogContext } from '../../shared/log.ts';
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
  inLambda() ? [...(tracer ? [captureLambdaHandler(tracer)] : []), injectLambdaContext(logger, { resetKeys: true }), logMetrics(metrics)] : [];


/**
 * Any other Lambda handler (WebSocket routes, the webhook verification) with the same
 * observability: its log lines carry the API Gateway `request_id` (and the WebSocket
 * `connection_id`), and in Lambda it runs with the Powertools middlewares above.
 */
export function observedLambda<E extends { requestContext?: { requestId?: string; connectionId?: string } }, R>(fn: (event: E) => Promise<R>): (event: E, context?: Context) => Promise<R> {
  const wrapped = middy<E, R, Error, Context>(fn).use(observability());
  return (event, context) =>
    withLogContext({ request_id: event.requestContext?.requestId, connection_id: event.requestContext?.connectionId }, () => wrapped(event, context as Context));
}
