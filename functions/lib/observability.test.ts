import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import middy from '@middy/core';
import type { APIGatewayProxyEventV2, SQSEvent, SQSRecord } from 'aws-lambda';
import { sqsBatchHandler, sqsHandler } from './sqs.ts';
import { bodyLimit, errorHandler, json, validateInput, withRequestLog } from './http.ts';
import { log } from '../../shared/log.ts';
import { resetConfig } from '../../shared/config.ts';
import { metrics, METRIC, recordMetric } from '../../shared/metrics.ts';

/**
 * The platform wrappers with Powertools (issue 13 item 6): partial batch failures from the queue
 * handler, correlation ids on log lines, metrics flushed as CloudWatch EMF. Output is captured
 * from stdout/stderr, where the Powertools Logger and Metrics write their JSON lines.
 */
let lines: Array<Record<string, unknown>>;
const capture = (chunk: unknown) => {
  for (const l of String(chunk).split('\n')) if (l.trim().startsWith('{')) lines.push(JSON.parse(l) as Record<string, unknown>);
  return true;
};

beforeEach(() => {
  lines = [];
  vi.spyOn(process.stdout, 'write').mockImplementation(capture);
  vi.spyOn(process.stderr, 'write').mockImplementation(capture);
  vi.stubEnv('LOG_LEVEL', 'info');
  resetConfig();
});

afterEach(() => {
  vi.restoreAllMocks();
  vi.unstubAllEnvs();
  resetConfig();
});

const record = (messageId: string, body: unknown): SQSRecord =>
  ({ messageId, body: JSON.stringify(body), receiptHandle: messageId, attributes: { ApproximateReceiveCount: '1', SentTimestamp: String(Date.now() - 1000) }, messageAttributes: {}, md5OfBody: '', eventSource: 'aws:sqs', eventSourceARN: 'arn:aws:sqs:eu-west-1:1:q', awsRegion: 'eu-west-1' }) as unknown as SQSRecord;
const bridgeEvent = (id: string, orgId: string, fail = false) => ({ id, source: 'chorus', 'detail-type': 'message.sent', detail: { properties: { org_id: orgId, fail }, metadata: {} } });

describe('queue handler (Powertools Batch processor)', () => {
  it('reports only the failing record in batchItemFailures, the others are done', async () => {
    const seen: string[] = [];
    const handler = sqsHandler('probe', async (r) => {
      const body = JSON.parse(r.body) as ReturnType<typeof bridgeEvent>;
      if (body.detail.properties.fail) throw new Error('boom');
      seen.push(r.messageId);
    });
    const event: SQSEvent = { Records: [record('m1', bridgeEvent('e1', 'org-a')), record('m2', bridgeEvent('e2', 'org-b', true)), record('m3', bridgeEvent('e3', 'org-a'))] };
    const res = await handler(event);
    expect(res.batchItemFailures).toEqual([{ itemIdentifier: 'm2' }]);
    expect(seen.sort()).toEqual(['m1', 'm3']);
    // the failure is logged with the record's correlation ids
    const failed = lines.find((l) => l.message === 'probe.record_failed');
    expect(failed).toMatchObject({ level: 'ERROR', queue: 'probe', message_id: 'm2', event_id: 'e2', org_id: 'org-b', error: 'boom' });
  });

  it('a batch whose records all fail lists them all (retried), instead of failing the invocation', async () => {
    const handler = sqsHandler('probe', async () => {
      throw new Error('down');
    });
    const res = await handler({ Records: [record('a', {}), record('b', {})] });
    expect(res.batchItemFailures.map((f) => f.itemIdentifier).sort()).toEqual(['a', 'b']);
  });

  it('whole-batch consumers report their rejected records the same way', async () => {
    const handler = sqsBatchHandler('probe-batch', async (records) => records.map((r): PromiseSettledResult<unknown> => (r.messageId === 'y' ? { status: 'rejected', reason: new Error('bad') } : { status: 'fulfilled', value: 1 })));
    const res = await handler({ Records: [record('x', {}), record('y', { org_id: 'org-c' }), record('z', {})] });
    expect(res.batchItemFailures).toEqual([{ itemIdentifier: 'y' }]);
    expect(lines.find((l) => l.message === 'probe-batch.record_failed')).toMatchObject({ message_id: 'y', org_id: 'org-c', queue: 'probe-batch' });
  });
});

describe('log lines (Powertools Logger behind shared/log.ts)', () => {
  it('carry the request id and the org_id of the path, and stay separate for concurrent requests', async () => {
    const handler = withRequestLog(
      middy<APIGatewayProxyEventV2>()
        .use(errorHandler())
        .use(bodyLimit(1024))
        .use(validateInput({}))
        .handler(async () => {
          await new Promise((r) => setImmediate(r));
          log('info', 'probe.done', { n: 1 });
          return json(200, {});
        }),
    );
    const ev = (requestId: string, orgId: string) => ({ requestContext: { requestId }, routeKey: 'GET /api/orgs/{org_id}/probe', pathParameters: { org_id: orgId }, headers: {} }) as unknown as APIGatewayProxyEventV2;
    await Promise.all([handler(ev('req-1', 'org-1'), {} as never), handler(ev('req-2', 'org-2'), {} as never)]);
    const done = lines.filter((l) => l.message === 'probe.done');
    expect(done).toHaveLength(2);
    expect(done.map((l) => [l.request_id, l.org_id]).sort()).toEqual([['req-1', 'org-1'], ['req-2', 'org-2']]);
    expect(done[0]).toMatchObject({ level: 'INFO', service: 'chorus', n: 1 });
  });

  it('respect LOG_LEVEL (silent prints nothing, warn drops info)', () => {
    vi.stubEnv('LOG_LEVEL', 'silent');
    resetConfig();
    log('error', 'probe.silent');
    vi.stubEnv('LOG_LEVEL', 'warn');
    resetConfig();
    log('info', 'probe.info');
    log('warn', 'probe.warn');
    expect(lines.map((l) => l.message)).toEqual(['probe.warn']);
  });
});

describe('in Lambda (AWS_LAMBDA_FUNCTION_NAME set)', () => {
  it('the queue handler runs with the Powertools middlewares: Lambda context on log lines, metrics flushed at the end, partial failures kept', async () => {
    vi.stubEnv('AWS_LAMBDA_FUNCTION_NAME', 'chorus-probe');
    const handler = sqsHandler('probe', async (r) => {
      if (r.messageId === 'bad') throw new Error('nope');
    });
    const context = { functionName: 'chorus-probe', functionVersion: '$LATEST', awsRequestId: 'aws-req-1', invokedFunctionArn: 'arn:aws:lambda:eu-west-1:1:function:chorus-probe', memoryLimitInMB: '256', getRemainingTimeInMillis: () => 10_000 };
    const res = await handler({ Records: [record('ok', {}), record('bad', {})] }, context as never);
    expect(res.batchItemFailures).toEqual([{ itemIdentifier: 'bad' }]);
    expect(lines.find((l) => l.message === 'probe.record_failed')).toMatchObject({ function_request_id: 'aws-req-1', function_name: 'chorus-probe', message_id: 'bad', queue: 'probe' });
    const emf = lines.filter((l) => l._aws);
    expect(emf.find((l) => 'QueueAge' in l)).toMatchObject({ queue: 'probe' });
    expect(emf.find((l) => 'ConsumerErrors' in l)).toMatchObject({ ConsumerErrors: 1, queue: 'probe' });
    expect(lines.some((l) => String(l.message ?? '').includes('No application metrics'))).toBe(false);
  });
});

describe('metrics (Powertools Metrics, EMF)', () => {
  it('are a no-op outside Lambda unless enabled', () => {
    vi.stubEnv('AWS_LAMBDA_FUNCTION_NAME', '');
    recordMetric(METRIC.webhooksReceived);
    expect(metrics.hasStoredMetrics()).toBe(false);
  });

  it('flush as CloudWatch EMF JSON: buffered counts, and single metrics with their dimension', () => {
    vi.stubEnv('POWERTOOLS_METRICS_DISABLED', 'false');
    recordMetric(METRIC.sendFailures, 1, { dimensions: { code: '131047' } });
    recordMetric(METRIC.webhooksReceived);
    recordMetric(METRIC.webhooksReceived);
    metrics.publishStoredMetrics();
    const emf = lines.filter((l) => l._aws);
    expect(emf).toHaveLength(2);
    const single = emf.find((l) => 'SendFailures' in l)!;
    expect(single).toMatchObject({ SendFailures: 1, code: '131047', service: 'chorus' });
    const cw = (single._aws as { CloudWatchMetrics: Array<{ Namespace: string; Dimensions: string[][]; Metrics: Array<{ Name: string; Unit: string }> }> }).CloudWatchMetrics[0]!;
    expect(cw.Namespace).toBe('Chorus');
    expect(cw.Dimensions[0]).toEqual(expect.arrayContaining(['service', 'code']));
    expect(cw.Metrics).toEqual([{ Name: 'SendFailures', Unit: 'Count' }]);
    const buffered = emf.find((l) => 'WebhooksReceived' in l)!;
    expect(buffered.WebhooksReceived).toEqual([1, 1]);
  });
});
