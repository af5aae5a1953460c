import { CreateScheduleCommand, DeleteScheduleCommand, SchedulerClient, UpdateScheduleCommand } from '@aws-sdk/client-scheduler';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { resetConfig } from '../config.ts';
import { atExpression, eventBridgeScheduler, LEAD_MS, RETRY_POLICY, type SchedulerSettings } from './eventbridge-scheduler.ts';

const settings: SchedulerSettings = {
  groupName: 'chorus-schedules',
  roleArn: 'arn:aws:iam::123456789012:role/scheduler',
  queueArns: { 'task-reminders': 'arn:aws:sqs:us-east-1:123456789012:task-reminders' },
};
const NOW = Date.UTC(2026, 2, 14, 9, 0, 0);
const awsError = (name: string) => Object.assign(new Error(name), { name });

/** A real SchedulerClient whose `send` answers from `reply` and records the commands sent. */
function fakeClient(reply: (cmd: object) => unknown = () => ({})) {
  const client = new SchedulerClient({ region: 'us-east-1', credentials: { accessKeyId: 'x', secretAccessKey: 'x' } });
  const sent: object[] = [];
  vi.spyOn(client, 'send').mockImplementation(async (cmd: object) => {
    sent.push(cmd);
    const r = reply(cmd);
    if (r instanceof Error) throw r;
    return r as never;
  });
  return { client, sent };
}

afterEach(() => vi.restoreAllMocks());

describe('atExpression', () => {
  it('writes the time in UTC to the second, milliseconds dropped', () => {
    expect(atExpression(Date.UTC(2026, 0, 5, 7, 3, 9, 999))).toBe('at(2026-01-05T07:03:09)');
    expect(atExpression(Date.parse('2026-10-25T01:30:00+05:30'))).toBe('at(2026-10-24T20:00:00)');
  });
  it('rejects a non-time', () => {
    expect(() => atExpression(Number.NaN)).toThrow();
  });
});

describe('EventBridge Scheduler adapter requests', () => {
  const cmd = { name: 'task-reminder-org_1-tsk_1', at: NOW + 3_600_000, queue: 'task-reminders' as const, body: '{"task_id":"tsk_1"}' };

  it('creates a one-time UTC schedule in the group, targeting the queue, deleted after it fires', async () => {
    const { client, sent } = fakeClient();
    await eventBridgeScheduler({ client, settings, now: () => NOW }).schedule(cmd);
    expect(sent).toHaveLength(1);
    expect(sent[0]).toBeInstanceOf(CreateScheduleCommand);
    expect((sent[0] as CreateScheduleCommand).input).toEqual({
      Name: cmd.name,
      GroupName: 'chorus-schedules',
      ScheduleExpression: 'at(2026-03-14T10:00:00)',
      ScheduleExpressionTimezone: 'UTC',
      FlexibleTimeWindow: { Mode: 'OFF' },
      ActionAfterCompletion: 'DELETE',
      State: 'ENABLED',
      Target: { Arn: settings.queueArns['task-reminders'], RoleArn: settings.roleArn, Input: cmd.body, RetryPolicy: RETRY_POLICY },
    });
  });

  it('updates the schedule when the name exists (ConflictException)', async () => {
    const { client, sent } = fakeClient((c) => (c instanceof CreateScheduleCommand ? awsError('ConflictException') : {}));
    await eventBridgeScheduler({ client, settings, now: () => NOW }).schedule(cmd);
    expect(sent.map((c) => c.constructor)).toEqual([CreateScheduleCommand, UpdateScheduleCommand]);
    expect((sent[1] as UpdateScheduleCommand).input).toEqual((sent[0] as CreateScheduleCommand).input);
  });

  it('creates it again when it fired between the conflict and the update', async () => {
    let creates = 0;
    const { client, sent } = fakeClient((c) => {
      if (c instanceof CreateScheduleCommand) return creates++ === 0 ? awsError('ConflictException') : {};
      return awsError('ResourceNotFoundException');
    });
    await eventBridgeScheduler({ client, settings, now: () => NOW }).schedule(cmd);
    expect(sent.map((c) => c.constructor)).toEqual([CreateScheduleCommand, UpdateScheduleCommand, CreateScheduleCommand]);
  });

  it('enqueues a wake-up due within a minute (or past) at once, deleting any schedule of that name', async () => {
    const { client, sent } = fakeClient(() => awsError('ResourceNotFoundException'));
    const enqueued: Array<[string, string]> = [];
    const port = eventBridgeScheduler({ client, settings, now: () => NOW, enqueueNow: async (q, b) => void enqueued.push([q, b]) });
    await port.schedule({ ...cmd, at: NOW - 5 * 60_000 });
    await port.schedule({ ...cmd, at: NOW + LEAD_MS - 1 });
    expect(enqueued).toEqual([['task-reminders', cmd.body], ['task-reminders', cmd.body]]);
    expect(sent.map((c) => c.constructor)).toEqual([DeleteScheduleCommand, DeleteScheduleCommand]);
    expect((sent[0] as DeleteScheduleCommand).input).toEqual({ Name: cmd.name, GroupName: 'chorus-schedules' });
  });

  it('cancels with DeleteSchedule and ignores an unknown name', async () => {
    const { client, sent } = fakeClient(() => awsError('ResourceNotFoundException'));
    await expect(eventBridgeScheduler({ client, settings }).cancel('gone')).resolves.toBeUndefined();
    expect((sent[0] as DeleteScheduleCommand).input).toEqual({ Name: 'gone', GroupName: 'chorus-schedules' });
  });

  it('passes other errors on', async () => {
    const { client } = fakeClient(() => awsError('ThrottlingException'));
    const port = eventBridgeScheduler({ client, settings, now: () => NOW });
    await expect(port.cancel('x')).rejects.toThrow('ThrottlingException');
    await expect(port.schedule(cmd)).rejects.toThrow('ThrottlingException');
  });

  it('refuses a queue with no target ARN', async () => {
    const { client, sent } = fakeClient();
    const port = eventBridgeScheduler({ client, settings: { ...settings, queueArns: {} }, now: () => NOW });
    await expect(port.schedule(cmd)).rejects.toThrow(/no scheduler target ARN for queue task-reminders/);
    expect(sent).toEqual([]);
  });
});

describe('EventBridge Scheduler adapter settings', () => {
  afterEach(() => {
    vi.unstubAllEnvs();
    resetConfig();
  });

  it('reads the group, role and target ARNs from the environment the stack sets', async () => {
    vi.stubEnv('SCHEDULER_GROUP_NAME', 'g');
    vi.stubEnv('SCHEDULER_ROLE_ARN', 'arn:aws:iam::1:role/r');
    vi.stubEnv('SCHEDULER_TARGET_QUEUE_ARNS', JSON.stringify({ 'task-reminders': 'arn:aws:sqs:us-east-1:1:q' }));
    resetConfig();
    const { client, sent } = fakeClient();
    await eventBridgeScheduler({ client, now: () => NOW }).schedule({ name: 'n', at: NOW + 3_600_000, queue: 'task-reminders', body: '{}' });
    expect((sent[0] as CreateScheduleCommand).input).toMatchObject({ GroupName: 'g', Target: { Arn: 'arn:aws:sqs:us-east-1:1:q', RoleArn: 'arn:aws:iam::1:role/r' } });
  });

  it('says which variable is missing', async () => {
    vi.stubEnv('SCHEDULER_GROUP_NAME', '');
    resetConfig();
    const { client } = fakeClient();
    await expect(eventBridgeScheduler({ client }).cancel('n')).rejects.toThrow('SCHEDULER_GROUP_NAME is not set');
  });
});
