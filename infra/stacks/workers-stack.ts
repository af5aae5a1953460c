/**
 * Workers stack: the queue consumers of events/catalog.ts. One Lambda per subscription (reading the
 * queue its EventBridge rule fills) and one per command queue, each with the catalogue's batch size
 * and partial batch failures. Depends on Data (table), Search (domain), Events (bus, queues) and Api
 * (the realtime fan-out posts to WebSocket connections); nothing depends on it, so it adds no cycle.
 */
import { Duration, Stack, type StackProps } from 'aws-cdk-lib';
import type { WebSocketStage } from 'aws-cdk-lib/aws-apigatewayv2';
import type * as dynamodb from 'aws-cdk-lib/aws-dynamodb';
import type * as events from 'aws-cdk-lib/aws-events';
import type * as cloudwatch from 'aws-cdk-lib/aws-cloudwatch';
import type * as lambda from 'aws-cdk-lib/aws-lambda';
import type * as opensearch from 'aws-cdk-lib/aws-opensearchservice';
import type * as s3 from 'aws-cdk-lib/aws-s3';
import type * as secretsmanager from 'aws-cdk-lib/aws-secretsmanager';
import type * as sqs from 'aws-cdk-lib/aws-sqs';
import type { Construct } from 'constructs';
import { COMMAND_QUEUES, STREAM_CONSUMERS, SUBSCRIPTIONS } from '../../events/catalog.ts';
import { TABLE_DEFINITION } from '../../shared/db/table-definition.ts';
import * as lambdaNs from 'aws-cdk-lib/aws-lambda';
import { DynamoEventSource, SqsDlq } from 'aws-cdk-lib/aws-lambda-event-sources';
import * as sqsNs from 'aws-cdk-lib/aws-sqs';
import { createHandlerFunction } from '../constructs/handler-function.ts';
import { CONSUMER_TIMEOUT } from '../constructs/queue-consumer.ts';
import { accessFor, type MailSettings, type SchedulerResources, type WhatsAppSettings, wireFunction } from '../access.ts';
import { QueueConsumer } from '../constructs/queue-consumer.ts';
import { WebhookRejectionsAlarm } from '../constructs/webhook-rejections-alarm.ts';
import { pascalCase } from '../names.ts';

/**
 * Consumers that need more than the defaults (30 s, 512 MB). media-download holds up to a batch
 * of 5 files in memory (documents up to 100 MB each), downloads them from Meta, and runs sharp
 * (a native module, installed for Lambda rather than bundled) for thumbnails. whatsapp-outbound
 * uploads members' files to Meta.
 */
export const CONSUMER_SIZING: Record<string, { timeout?: Duration; memorySize?: number; nodeModules?: string[] }> = {
  'media-download': { timeout: Duration.seconds(150), memorySize: 1536, nodeModules: ['sharp'] },
  // members' files: reads one (documents up to 100 MB) from the bucket and uploads it to Meta before sending
  'whatsapp-outbound': { timeout: Duration.seconds(150), memorySize: 1024 },
  // issue 16: a broadcast step sends for up to 60 s (BROADCAST_STEP_BUDGET_MS), paced, then hands over
  broadcasts: { timeout: Duration.seconds(150) },
};

export interface WorkersStackProps extends StackProps {
  /** the table; its stream (NEW_IMAGE) feeds the outbox relay */
  readonly table: dynamodb.ITable;
  readonly mediaBucket: s3.IBucket;
  /** web push VAPID key secret (issue 21) */
  readonly vapidSecret?: secretsmanager.ISecret;
  /** issue 42 §4: the key of masked ids (infra/access.ts) */
  readonly maskedIdKeySecret?: secretsmanager.ISecret;
  readonly searchDomain: opensearch.IDomain;
  readonly bus: events.IEventBus;
  readonly subscriptionQueues: ReadonlyMap<string, { readonly queue: sqs.IQueue }>;
  readonly commandQueues: ReadonlyMap<string, { readonly queue: sqs.IQueue; readonly env: string }>;
  readonly scheduler: SchedulerResources;
  readonly webSocketStage: WebSocketStage;
  readonly whatsapp: WhatsAppSettings;
  readonly bundle: boolean;
  /** issue 20: the product's sender, for the email of a disabled webhook endpoint (webhook-deliveries) */
  readonly mail?: MailSettings;
}

export class WorkersStack extends Stack {
  /** subscription or command queue name -> consumer Lambda */
  readonly consumers = new Map<string, lambda.Function>();
  /** fires when a signed WhatsApp webhook was kept as a rejection (infra/constructs/webhook-rejections-alarm.ts) */
  readonly webhookRejectionsAlarm: cloudwatch.Alarm;

  constructor(scope: Construct, id: string, props: WorkersStackProps) {
    super(scope, id, props);

    const resources = {
      table: props.table,
      mediaBucket: props.mediaBucket,
      vapidSecret: props.vapidSecret,
      maskedIdKeySecret: props.maskedIdKeySecret,
      searchDomain: props.searchDomain,
      bus: props.bus,
      commandQueues: props.commandQueues,
      scheduler: props.scheduler,
      wsStage: props.webSocketStage,
      whatsapp: props.whatsapp,
      mail: props.mail,
    };
    const consume = (name: string, handler: string, queue: sqs.IQueue, batchSize: number) => {
      const consumer = new QueueConsumer(this, `${pascalCase(name)}Consumer`, {
        queue,
        handler,
        batchSize,
        bundle: props.bundle,
        description: `${name} consumer: ${handler}`,
        ...CONSUMER_SIZING[name],
      });
      wireFunction(consumer.fn, accessFor(handler, 'consumer'), resources);
      this.consumers.set(name, consumer.fn);
    };

    for (const sub of SUBSCRIPTIONS) {
      const entry = props.subscriptionQueues.get(sub.name);
      if (!entry) throw new Error(`No queue for subscription ${sub.name}`);
      consume(sub.name, sub.handler, entry.queue, sub.batchSize);
    }
    for (const cmd of COMMAND_QUEUES) {
      const entry = props.commandQueues.get(cmd.name);
      if (!entry) throw new Error(`No queue for command queue ${cmd.name}`);
      consume(cmd.name, cmd.handler, entry.queue, cmd.batchSize);
    }

    // the outbox relay: the table's stream, only INSERTs of outbox rows (a filter on the entity name
    // ElectroDB writes), so the function is not invoked for the other writes
    for (const sc of STREAM_CONSUMERS) {
      const fn = createHandlerFunction(this, `${pascalCase(sc.name)}StreamConsumer`, {
        handler: sc.handler,
        bundle: props.bundle,
        description: `${sc.name} stream consumer: ${sc.handler}`,
        timeout: CONSUMER_TIMEOUT,
      });
      wireFunction(fn, accessFor(sc.handler, 'consumer'), resources);
      // batches that kept failing are described here (not the events: they stay in the table as outbox rows)
      const failures = new sqsNs.Queue(this, `${pascalCase(sc.name)}Failures`, {
        encryption: sqsNs.QueueEncryption.SQS_MANAGED,
        enforceSSL: true,
        retentionPeriod: Duration.days(14),
      });
      fn.addEventSource(
        new DynamoEventSource(props.table, {
          startingPosition: lambdaNs.StartingPosition.TRIM_HORIZON,
          batchSize: sc.batchSize,
          retryAttempts: sc.retryAttempts,
          bisectBatchOnError: true,
          onFailure: new SqsDlq(failures),
          filters: [lambdaNs.FilterCriteria.filter({ eventName: lambdaNs.FilterRule.isEqual('INSERT'), dynamodb: { NewImage: { __edb_e__: { S: lambdaNs.FilterRule.isEqual(TABLE_DEFINITION.outboxEntity) } } } })],
        }),
      );
      this.consumers.set(sc.name, fn);
    }

    // signed WhatsApp webhooks no schema accepted (kept, answered 200): mostly written by the whatsapp-inbound consumer above
    this.webhookRejectionsAlarm = new WebhookRejectionsAlarm(this, 'WebhookRejections').alarm;
  }
}
