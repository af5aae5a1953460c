/**
 * Events stack: the EventBridge bus, one rule -> SQS queue (+DLQ) per subscription and one queue
 * (+DLQ) per command queue, all from events/catalog.ts (the same catalogue the local bus reads).
 *
 * Queues only, no Lambdas: producers in the Api stack need the command queue URLs, and the
 * realtime fan-out consumer needs the WebSocket API, so putting consumers here would make
 * Events <-> Api a cycle. Consumers live in the Workers stack, which depends on both.
 * Events that EventBridge cannot deliver to a queue go to that subscription's DLQ as well.
 *
 * Also the EventBridge Scheduler side of the scheduler port (shared/scheduler/): one schedule group
 * for Chorus's one-time wake-ups (task reminders) and the role the service assumes to put a fired
 * schedule's body on its command queue (sqs:SendMessage on SCHEDULER_TARGET_QUEUES only). Functions
 * that create schedules get the group, the role and the target ARNs through their access profile
 * (infra/access.ts, field `scheduler`).
 */
import { Duration, RemovalPolicy, Stack, type StackProps } from 'aws-cdk-lib';
import * as events from 'aws-cdk-lib/aws-events';
import * as targets from 'aws-cdk-lib/aws-events-targets';
import * as iam from 'aws-cdk-lib/aws-iam';
import * as scheduler from 'aws-cdk-lib/aws-scheduler';
import type { Construct } from 'constructs';
import { COMMAND_QUEUES, type CommandQueueName, EVENT_SOURCE, SUBSCRIPTIONS, WORKER_QUEUES } from '../../events/catalog.ts';
import type { SchedulerResources } from '../access.ts';
import { CatalogQueue } from '../constructs/queue-consumer.ts';
import { pascalCase } from '../names.ts';

/** Command queues EventBridge Scheduler may put wake-ups on (the scheduler role can send to these only). */
export const SCHEDULER_TARGET_QUEUES: readonly CommandQueueName[] = ['task-reminders', 'chat-snooze', /* issue 20: webhook retries */ 'webhook-deliveries', /* issue 17: delayed rule actions, follow-ups, no-reply timers */ 'rule-actions', /* issue 16: scheduled messages */ 'scheduled-messages', /* issue 16: scheduled broadcasts, quiet-hours ends */ 'broadcasts'];

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
  /** the schedule group, the role schedules run as and their target queues */
  readonly scheduler: SchedulerResources;

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
        eventPattern: { source: [...sub.pattern.source], detailType: [...sub.pattern['detail-type']], ...('detail' in sub.pattern && sub.pattern.detail ? { detail: sub.pattern.detail as Record<string, unknown> } : {}) },
        targets: [new targets.SqsQueue(q.queue, { deadLetterQueue: q.deadLetterQueue })],
      });
      this.subscriptionQueues.set(sub.name, q);
    }

    for (const cmd of COMMAND_QUEUES) {
      const q = new CatalogQueue(this, `${pascalCase(cmd.name)}Commands`, { name: cmd.name, maxReceiveCount: cmd.maxReceiveCount, ...('fifo' in cmd && cmd.fifo ? { fifo: true } : {}) });
      this.commandQueues.set(cmd.name, { queue: q.queue, env: cmd.env });
    }
    // queues of long-lived workers (FIFO): producers reach them like any command queue
    for (const w of WORKER_QUEUES) {
      const q = new CatalogQueue(this, `${pascalCase(w.name)}Commands`, { name: w.name, maxReceiveCount: w.maxReceiveCount, fifo: w.fifo });
      this.commandQueues.set(w.name, { queue: q.queue, env: w.env });
    }

    // Schedules point at this stack's queues and role: they go with the stack (deleting a group
    // deletes its schedules), so RETAIN would only leave wake-ups that can no longer be delivered.
    const group = new scheduler.ScheduleGroup(this, 'Schedules', { removalPolicy: RemovalPolicy.DESTROY });
    const role = new iam.Role(this, 'SchedulerRole', {
      description: 'Assumed by EventBridge Scheduler to put fired Chorus schedules on their command queue',
      // confused-deputy guard: only schedules of this account's group may use it
      assumedBy: new iam.ServicePrincipal('scheduler.amazonaws.com', {
        conditions: {
          StringEquals: { 'aws:SourceAccount': this.account },
          ArnLike: { 'aws:SourceArn': group.scheduleGroupArn },
        },
      }),
    });
    const targetQueues = new Map<string, CatalogQueue['queue']>();
    for (const name of SCHEDULER_TARGET_QUEUES) {
      const entry = this.commandQueues.get(name);
      if (!entry) throw new Error(`Scheduler target ${name} is not a command queue`);
      role.addToPolicy(new iam.PolicyStatement({ actions: ['sqs:SendMessage'], resources: [entry.queue.queueArn] }));
      targetQueues.set(name, entry.queue);
    }
    this.scheduler = { group, role, targetQueues };
  }
}
