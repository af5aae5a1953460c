import {
  CreateScheduleCommand,
  type CreateScheduleCommandInput,
  DeleteScheduleCommand,
  SchedulerClient,
  UpdateScheduleCommand,
} from '@aws-sdk/client-scheduler';
import { config } from '../config.ts';
import { enqueue, type CommandQueue } from '../ports/commands.ts';
import type { ScheduledCommand, SchedulerPort } from '../ports/scheduler.ts';
import { traced } from '../tracing.ts';

/**
 * Scheduler adapter for Amazon EventBridge Scheduler: one one-time `at(...)` schedule per name in
 * the Chorus schedule group (SCHEDULER_GROUP_NAME), targeting the command queue's ARN
 * (SCHEDULER_TARGET_QUEUE_ARNS) through the scheduler role (SCHEDULER_ROLE_ARN), deleted by the
 * service once it has fired (ActionAfterCompletion DELETE). All three variables come from the CDK
 * stack (infra/access.ts, field `scheduler`).
 *
 * EventBridge Scheduler works to the minute: a one-time schedule fires somewhere inside the minute
 * of its `at()` time (schedule-types.html, "60 second precision"), and a time whose minute has
 * already begun is not guaranteed to fire at all. So a wake-up due within LEAD_MS is not scheduled:
 * any schedule of that name is deleted and the body goes straight onto the queue, at most a minute
 * early, which is the precision the scheduler itself gives.
 */

/** Wake-ups due sooner than this (ms) are enqueued now instead of scheduled. */
export const LEAD_MS = 60_000;

/** Target retries: a few quick attempts, then give up after an hour (SendMessage to our own queue rarely fails). */
export const RETRY_POLICY = { MaximumRetryAttempts: 5, MaximumEventAgeInSeconds: 3600 } as const;

/** `at(yyyy-mm-ddThh:mm:ss)` in UTC for an epoch-ms time; milliseconds are dropped (pure; tested). */
export function atExpression(ms: number): string {
  if (!Number.isFinite(ms)) throw new Error(`not a time: ${ms}`);
  return `at(${new Date(ms).toISOString().slice(0, 19)})`;
}

export interface SchedulerSettings {
  groupName: string;
  roleArn: string;
  queueArns: Partial<Record<CommandQueue, string>>;
}

function settingsFromConfig(): SchedulerSettings {
  const c = config();
  let queueArns: SchedulerSettings['queueArns'];
  try {
    queueArns = JSON.parse(c.SCHEDULER_TARGET_QUEUE_ARNS);
  } catch {
    throw new Error('SCHEDULER_TARGET_QUEUE_ARNS is not a JSON object');
  }
  if (!c.SCHEDULER_GROUP_NAME) throw new Error('SCHEDULER_GROUP_NAME is not set');
  if (!c.SCHEDULER_ROLE_ARN) throw new Error('SCHEDULER_ROLE_ARN is not set');
  return { groupName: c.SCHEDULER_GROUP_NAME, roleArn: c.SCHEDULER_ROLE_ARN, queueArns };
}

/** The CreateSchedule (and UpdateSchedule: same fields) request for a command (pure; tested). */
export function scheduleRequest(cmd: ScheduledCommand, s: SchedulerSettings): CreateScheduleCommandInput {
  const arn = s.queueArns[cmd.queue];
  if (!arn) throw new Error(`no scheduler target ARN for queue ${cmd.queue} (SCHEDULER_TARGET_QUEUE_ARNS)`);
  return {
    Name: cmd.name,
    GroupName: s.groupName,
    ScheduleExpression: atExpression(cmd.at),
    ScheduleExpressionTimezone: 'UTC',
    FlexibleTimeWindow: { Mode: 'OFF' },
    ActionAfterCompletion: 'DELETE',
    State: 'ENABLED',
    Target: { Arn: arn, RoleArn: s.roleArn, Input: cmd.body, RetryPolicy: { ...RETRY_POLICY } },
  };
}

const isError = (e: unknown, name: string) => (e as { name?: string } | null)?.name === name;

export interface EventBridgeSchedulerOptions {
  /** default: one client honouring AWS_REGION and AWS_ENDPOINT_URL */
  client?: SchedulerClient;
  /** default: from shared/config.ts (read on first use) */
  settings?: SchedulerSettings;
  /** default Date.now */
  now?: () => number;
  /** default enqueue of shared/ports/commands.ts */
  enqueueNow?: (queue: CommandQueue, body: string) => Promise<void>;
}

export function eventBridgeScheduler(opts: EventBridgeSchedulerOptions = {}): SchedulerPort {
  let client = opts.client;
  let settings = opts.settings;
  const now = opts.now ?? Date.now;
  const enqueueNow = opts.enqueueNow ?? enqueue;
  const sdk = () => (client ??= traced(new SchedulerClient({ region: config().AWS_REGION, endpoint: config().AWS_ENDPOINT_URL })));
  const group = () => (settings ??= settingsFromConfig());

  const cancel = async (name: string) => {
    try {
      await sdk().send(new DeleteScheduleCommand({ Name: name, GroupName: group().groupName }));
    } catch (e) {
      if (!isError(e, 'ResourceNotFoundException')) throw e;
    }
  };

  return {
    async schedule(cmd) {
      if (cmd.at - now() < LEAD_MS) {
        // replace, don't add: an earlier schedule of this name must not fire later as well
        await cancel(cmd.name);
        await enqueueNow(cmd.queue, cmd.body);
        return;
      }
      const input = scheduleRequest(cmd, group());
      try {
        await sdk().send(new CreateScheduleCommand(input));
        return;
      } catch (e) {
        if (!isError(e, 'ConflictException')) throw e;
      }
      try {
        await sdk().send(new UpdateScheduleCommand(input));
      } catch (e) {
        // it fired (and was deleted) between our two calls: create it afresh
        if (!isError(e, 'ResourceNotFoundException')) throw e;
        await sdk().send(new CreateScheduleCommand(input));
      }
    },
    cancel,
  };
}
