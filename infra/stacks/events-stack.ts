/**
 * Events stack: the EventBridge bus, one rule -> SQS queue (+DLQ) per subscription and one queue
 * (+DLQ) per command queue, all from events/catalog.ts (the same catalogue the local bus reads).
 *
 * Queues only, no Lambdas: producers in the Api stack need the command queue URLs, and the
 * realtime fan-out consumer needs the WebSocket API, so putting consumers here would make
 * Events <-> Api a cycle. Consumers live in the Workers stack, which depends on both.
 * Events that EventBridge cannot deliver to a queue go to that subscription's DLQ as well.
 */
import { Duration, Stack, type StackProps } from 'aws-cdk-lib';
import * as events from 'aws-cdk-lib/aws-events';
import * as targets from 'aws-cdk-lib/aws-events-targets';
import type { Construct } from 'constructs';
import { COMMAND_QUEUES, EVENT_SOURCE, SUBSCRIPTIONS } from '../../events/catalog.ts';
import { CatalogQueue } from '../constructs/queue-consumer.ts';
import { pascalCase } from '../names.ts';

export interface EventsStackProps extends StackProps {
  /** @default 'chorus' */
  readonly eventBusName?: string;
}

export class EventsStack extends Stack {
  readonly bus: events.EventBus;
  /** subscription name -> its queue */
  readonly subscriptionQueues = new Map<string, CatalogQueue>();
  /** command queue name -> its queue and the env var that carries its URL to producers */
  readonly commandQueues = new Map<string, { readonly queue: CatalogQueue['queue']; readonly env: string }>();

  constructor(scope: Construct, id: string, props: EventsStackProps = {}) {
    super(scope, id, props);

    this.bus = new events.EventBus(this, 'Bus', { eventBusName: props.eventBusName ?? 'chorus' });
    // Replay window for incidents (e.g. a consumer bug): everything Chorus publishes, kept 14 days.
    this.bus.archive('Archive', {
      description: 'All Chorus domain events',
      eventPattern: { source: [EVENT_SOURCE] },
      retention: Duration.days(14),
    });

    for (const sub of SUBSCRIPTIONS) {
      const name = pascalCase(sub.name);
      const q = new CatalogQueue(this, `${name}Subscription`, { name: sub.name, maxReceiveCount: sub.maxReceiveCount });
      new events.Rule(this, `${name}Rule`, {
        eventBus: this.bus,
        description: sub.description,
        eventPattern: { source: [...sub.pattern.source], detailType: [...sub.pattern['detail-type']] },
        targets: [new targets.SqsQueue(q.queue, { deadLetterQueue: q.deadLetterQueue })],
      });
      this.subscriptionQueues.set(sub.name, q);
    }

    for (const cmd of COMMAND_QUEUES) {
      const q = new CatalogQueue(this, `${pascalCase(cmd.name)}Commands`, { name: cmd.name, maxReceiveCount: cmd.maxReceiveCount });
      this.commandQueues.set(cmd.name, { queue: q.queue, env: cmd.env });
    }
  }
}
