/**
 * Template assertions for Chorus's CloudWatch alarms: one per dead-letter queue (events stack,
 * infra/constructs/queue-consumer.ts) and the one on kept webhook rejections (workers stack,
 * infra/constructs/webhook-rejections-alarm.ts), whose metric must be the one shared/metrics.ts
 * records.
 *
 *   npx vitest run infra/alarms.test.ts
 */
import { App } from 'aws-cdk-lib';
import { Match, Template } from 'aws-cdk-lib/assertions';
import { beforeAll, describe, expect, it } from 'vitest';
import { COMMAND_QUEUES, SUBSCRIPTIONS, WORKER_QUEUES } from '../events/catalog.ts';
import { METRIC } from '../shared/metrics.ts';
import { buildApp } from './build.ts';
import { WEBHOOK_REJECTIONS_METRIC } from './constructs/webhook-rejections-alarm.ts';
import { cdkContext, tempDirs } from './test-support.ts';

const mkTmp = tempDirs();
let events: Template;
let workers: Template;

beforeAll(() => {
  const app = new App({ outdir: mkTmp('chorus-cdk-alarms-'), context: cdkContext });
  const stacks = buildApp(app, { bundle: false, webDist: '/nonexistent', nag: false });
  events = Template.fromStack(stacks.events);
  workers = Template.fromStack(stacks.workers);
}, 60_000);

describe('alarms', () => {
  it('names the metric shared/metrics.ts records for a kept webhook rejection', () => {
    expect(WEBHOOK_REJECTIONS_METRIC.metricName).toBe(METRIC.webhookRejections);
  });

  it('alarms on any kept webhook rejection: Chorus/WebhookRejections (service=chorus), sum over 5 minutes > 0, none kept is fine', () => {
    workers.resourceCountIs('AWS::CloudWatch::Alarm', 1);
    workers.hasResourceProperties('AWS::CloudWatch::Alarm', {
      Namespace: 'Chorus',
      MetricName: METRIC.webhookRejections,
      Dimensions: [{ Name: 'service', Value: 'chorus' }],
      Statistic: 'Sum',
      Period: 300,
      Threshold: 0,
      ComparisonOperator: 'GreaterThanThreshold',
      EvaluationPeriods: 1,
      TreatMissingData: 'notBreaching',
      // the description tells the on-call where the kept bodies are
      AlarmDescription: Match.stringLikeRegexp('npm run dlq -- rejections --aws'),
    });
  });

  it('alarms on every dead-letter queue holding anything', () => {
    const queues = SUBSCRIPTIONS.length + COMMAND_QUEUES.length + WORKER_QUEUES.length;
    events.resourceCountIs('AWS::CloudWatch::Alarm', queues);
    const alarms = Object.values(events.findResources('AWS::CloudWatch::Alarm')) as Array<{ Properties: Record<string, unknown> }>;
    for (const a of alarms) {
      expect(a.Properties).toMatchObject({ MetricName: 'ApproximateNumberOfMessagesVisible', Namespace: 'AWS/SQS', Threshold: 0, ComparisonOperator: 'GreaterThanThreshold', TreatMissingData: 'notBreaching' });
      expect(JSON.stringify(a.Properties.AlarmDescription)).toContain('npm run dlq -- list --aws'); // a Fn::Join: the region and queue name are tokens
    }
  });
});
