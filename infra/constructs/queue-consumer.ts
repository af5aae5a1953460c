/**
 * Queue consumer building blocks, driven by events/catalog.ts:
 *
 * - `CatalogQueue`: an SQS queue plus its dead-letter queue; a message goes to the DLQ after the
 *   catalogue's `maxReceiveCount` receives. An alarm fires while the DLQ holds anything.
 * - `QueueConsumer`: the consumer Lambda (function defaults) reading that queue through an
 *   `SqsEventSource` with the catalogue's `batchSize` and `reportBatchItemFailures: true`, so a
 *   handler that returns `{ batchItemFailures }` only retries the records that failed.
 *
 * The two are separate because the queues live in the Events stack (producers in the Api stack
 * need their URLs) while consumers live in the Workers stack (the realtime fan-out needs the
 * WebSocket API); see infra/build.ts.
 */
import { Duration, Stack, Tags } from 'aws-cdk-lib';
import * as cloudwatch from 'aws-cdk-lib/aws-cloudwatch';
import type * as lambda from 'aws-cdk-lib/aws-lambda';
import { SqsEventSource } from 'aws-cdk-lib/aws-lambda-event-sources';
import { batchingWindowMs } from '../../events/catalog.ts';
import * as sqs from 'aws-cdk-lib/aws-sqs';
import { Construct } from 'constructs';
import { createHandlerFunction } from './handler-function.ts';

/** Consumer Lambda timeout. */
export const CONSUMER_TIMEOUT = Duration.seconds(30);
/** AWS guidance for Lambda event sources: visibility timeout at least 6x the function timeout. */
export const QUEUE_VISIBILITY_TIMEOUT = Duration.seconds(CONSUMER_TIMEOUT.toSeconds() * 6);

export interface CatalogQueueProps {
  /** the catalogue entry's name (used in descriptions and alarm names only) */
  readonly name: string;
  /** receives before a message is moved to the DLQ */
  readonly maxReceiveCount: number;
  /** an SQS FIFO queue (and FIFO DLQ): ordered per MessageGroupId, deduplicated by MessageDeduplicationId */
  readonly fifo?: boolean;
}

/** An SQS queue with a dead-letter queue, SQS-managed encryption and TLS-only access. */
export class CatalogQueue extends Construct {
  readonly queue: sqs.Queue;
  readonly deadLetterQueue: sqs.Queue;
  readonly dlqAlarm: cloudwatch.Alarm;

  constructor(scope: Construct, id: string, props: CatalogQueueProps) {
    super(scope, id);
    if (!Number.isInteger(props.maxReceiveCount) || props.maxReceiveCount < 1) {
      throw new Error(`${props.name}: maxReceiveCount must be a positive integer`);
    }
    this.deadLetterQueue = new sqs.Queue(this, 'Dlq', {
      ...(props.fifo ? { fifo: true } : {}),
      encryption: sqs.QueueEncryption.SQS_MANAGED,
      enforceSSL: true,
      retentionPeriod: Duration.days(14),
    });
    this.queue = new sqs.Queue(this, 'Queue', {
      ...(props.fifo ? { fifo: true } : {}),
      encryption: sqs.QueueEncryption.SQS_MANAGED,
      enforceSSL: true,
      visibilityTimeout: QUEUE_VISIBILITY_TIMEOUT,
      retentionPeriod: Duration.days(4),
      deadLetterQueue: { queue: this.deadLetterQueue, maxReceiveCount: props.maxReceiveCount },
    });
    // `npm run dlq -- --aws` finds the queues by these tags
    Tags.of(this.queue).add('chorus:queue', props.name);
    Tags.of(this.deadLetterQueue).add('chorus:dead-letter-of', props.name);
    const region = Stack.of(this).region;
    this.dlqAlarm = new cloudwatch.Alarm(this, 'DlqNotEmpty', {
      // the console page of the DLQ has "Start DLQ redrive"; the CLI does the same through the SQS API
      alarmDescription: `Messages of ${props.name} landed in its dead-letter queue. See why: npm run dlq -- list --aws. Redrive: npm run dlq -- redrive ${props.name} --aws, or the SQS console (https://${region}.console.aws.amazon.com/sqs/v3/home?region=${region}#/queues, queue ${this.deadLetterQueue.queueName}, Start DLQ redrive)`,
      metric: this.deadLetterQueue.metricApproximateNumberOfMessagesVisible({ period: Duration.minutes(5) }),
      threshold: 0,
      comparisonOperator: cloudwatch.ComparisonOperator.GREATER_THAN_THRESHOLD,
      evaluationPeriods: 1,
      treatMissingData: cloudwatch.TreatMissingData.NOT_BREACHING,
    });
  }
}

export interface QueueConsumerProps {
  readonly queue: sqs.IQueue;
  /** `file#export`, relative to the repo root */
  readonly handler: string;
  readonly batchSize: number;
  readonly bundle: boolean;
  readonly description?: string;
  readonly environment?: Record<string, string>;
  /** @default CONSUMER_TIMEOUT; at most the queue's visibility timeout (QUEUE_VISIBILITY_TIMEOUT) */
  readonly timeout?: Duration;
  /** MB @default the function default (512) */
  readonly memorySize?: number;
  /** see HandlerFunctionProps.nodeModules */
  readonly nodeModules?: string[];
}

/** The consumer Lambda of one queue; grants it receive/delete on the queue (nothing else). */
export class QueueConsumer extends Construct {
  readonly fn: lambda.Function;

  constructor(scope: Construct, id: string, props: QueueConsumerProps) {
    super(scope, id);
    this.fn = createHandlerFunction(this, 'Function', {
      handler: props.handler,
      bundle: props.bundle,
      description: props.description ?? props.handler,
      environment: props.environment,
      timeout: props.timeout ?? CONSUMER_TIMEOUT,
      memorySize: props.memorySize,
      nodeModules: props.nodeModules,
    });
    if ((props.timeout ?? CONSUMER_TIMEOUT).toSeconds() > QUEUE_VISIBILITY_TIMEOUT.toSeconds()) {
      throw new Error(`${props.handler}: timeout must not exceed the queue visibility timeout (${QUEUE_VISIBILITY_TIMEOUT.toSeconds()} s)`);
    }
    // a FIFO queue's event source takes at most 10 records a batch and no batching window
    const fifo = props.queue.fifo;
    const batchSize = fifo ? Math.min(10, props.batchSize) : props.batchSize;
    this.fn.addEventSource(
      new SqsEventSource(props.queue, {
        batchSize,
        reportBatchItemFailures: true,
        // SQS requires a batching window for batches above 10 records; the local queue waits the same
        maxBatchingWindow: batchingWindowMs(batchSize, fifo) ? Duration.millis(batchingWindowMs(batchSize, fifo)) : undefined,
      }),
    );
  }
}
