/**
 * The alarm on kept webhook rejections: signed WhatsApp Cloud API bodies (or updates inside them)
 * that no schema accepted. Chorus answers them 200, so Meta does not retry them, and keeps them 90
 * days with their reason; each one is something a customer sent, or a status, that the inbox does
 * not show, so any of them is worth a look (a burst usually means Meta changed a payload shape).
 *
 * The metric is written by shared/inbox/ingest.ts keepRejection through Powertools Metrics (EMF) in
 * the whatsapp-inbound consumer and the webhook receiver: namespace `Chorus`, dimension
 * `service=chorus`, name METRIC.webhookRejections of shared/metrics.ts (infra imports no runtime
 * code, so the names are repeated here; infra/alarms.test.ts checks they match).
 */
import { Duration } from 'aws-cdk-lib';
import * as cloudwatch from 'aws-cdk-lib/aws-cloudwatch';
import { Construct } from 'constructs';

/** shared/metrics.ts: `new Metrics({ namespace: 'Chorus', serviceName: 'chorus' })` and METRIC.webhookRejections. */
export const WEBHOOK_REJECTIONS_METRIC = { namespace: 'Chorus', metricName: 'WebhookRejections', dimensionsMap: { service: 'chorus' } } as const;

/** Fires when any webhook rejection was kept in a 5-minute period; missing data (none kept) is fine. */
export class WebhookRejectionsAlarm extends Construct {
  readonly alarm: cloudwatch.Alarm;

  constructor(scope: Construct, id: string) {
    super(scope, id);
    this.alarm = new cloudwatch.Alarm(this, 'Alarm', {
      alarmDescription:
        'Signed WhatsApp webhooks that no schema accepted were kept as webhook rejections (answered 200, so Meta will not send them again). ' +
        'See each one with its reason and raw body: npm run dlq -- rejections --aws (then: npm run dlq -- rejection <id> --aws), or /logs -> Rejected webhooks for an org\'s own. ' +
        'Logs: webhook.rejected. A burst usually means Meta changed a payload shape (shared/whatsapp/cloud/webhook.schemas.ts).',
      metric: new cloudwatch.Metric({ ...WEBHOOK_REJECTIONS_METRIC, dimensionsMap: { ...WEBHOOK_REJECTIONS_METRIC.dimensionsMap }, statistic: cloudwatch.Stats.SUM, period: Duration.minutes(5) }),
      threshold: 0,
      comparisonOperator: cloudwatch.ComparisonOperator.GREATER_THAN_THRESHOLD,
      evaluationPeriods: 1,
      treatMissingData: cloudwatch.TreatMissingData.NOT_BREACHING,
    });
  }
}
