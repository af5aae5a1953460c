import { Metrics, MetricUnit } from '@aws-lambda-powertools/metrics';
import { log } from './log.ts';

/**
 * Business and pipeline metrics, one small module, through Powertools for AWS Lambda's Metrics
 * in CloudWatch Embedded Metric Format (EMF: JSON lines on stdout that CloudWatch turns into
 * metrics; no API calls). Namespace `Chorus`, dimension `service=chorus`.
 *
 * Emitted in Lambda (`AWS_LAMBDA_FUNCTION_NAME` set; the handler wrappers flush the buffer at the
 * end of each invocation with `logMetrics`) and wherever `POWERTOOLS_METRICS_DISABLED=false` is
 * set explicitly; elsewhere (local runtime, tests) recording is a no-op, so nothing buffers or
 * prints. `POWERTOOLS_METRICS_DISABLED=true` turns them off in Lambda too.
 */
export const metrics = new Metrics({
  namespace: 'Chorus',
  serviceName: 'chorus',
  // Powertools' own notices go through our log; an invocation that recorded nothing (most HTTP
  // requests) is normal here, not worth a warning line per request
  logger: {
    debug: (msg: unknown) => log('debug', 'metrics.notice', { detail: String(msg) }),
    info: (msg: unknown) => log('info', 'metrics.notice', { detail: String(msg) }),
    warn: (msg: unknown) => {
      if (!String(msg).startsWith('No application metrics to publish')) log('warn', 'metrics.warning', { detail: String(msg) });
    },
    error: (msg: unknown) => log('error', 'metrics.error', { detail: String(msg) }),
  },
});

export const inLambda = (): boolean => Boolean(process.env.AWS_LAMBDA_FUNCTION_NAME);
const enabled = (): boolean => (inLambda() && process.env.POWERTOOLS_METRICS_DISABLED !== 'true') || process.env.POWERTOOLS_METRICS_DISABLED === 'false';

/** The metrics Chorus records (names as they appear in CloudWatch). */
export const METRIC = {
  /** signed WhatsApp Cloud API webhook bodies acknowledged (Count) */
  webhooksReceived: 'WebhooksReceived',
  /** inbound messages newly stored (Count; duplicates not counted) */
  messagesStored: 'MessagesStored',
  /** outbound messages marked failed (Count, dimension `code`: the Graph API error code or `none` for Chorus' own refusals) */
  sendFailures: 'SendFailures',
  /** age of the oldest record of a queue batch when its consumer started (Milliseconds, dimension `queue`) */
  queueAge: 'QueueAge',
  /** records a queue consumer failed, retried by SQS and dead-lettered after maxReceiveCount (Count, dimension `queue`) */
  consumerErrors: 'ConsumerErrors',
  /**
   * signed WhatsApp Cloud API webhook bodies, or updates inside them, that no schema accepted: answered 200 and kept
   * as webhook rejections with their reason (Count; shared/inbox/ingest.ts keepRejection). Alarmed on any
   * (infra/constructs/webhook-rejections-alarm.ts): each one is something a customer sent that the inbox does not show.
   */
  webhookRejections: 'WebhookRejections',
} as const;
export type MetricName = (typeof METRIC)[keyof typeof METRIC];

/**
 * Records one value. Without `dimensions` it is buffered and flushed with the invocation's
 * other metrics; with `dimensions` it is written at once as its own EMF line (Powertools
 * single metric), so its dimensions never leak onto the other metrics.
 * @param unit 'Count' (default) or 'Milliseconds'
 */
export function recordMetric(name: MetricName, value = 1, opts: { unit?: 'Count' | 'Milliseconds'; dimensions?: Record<string, string> } = {}): void {
  if (!enabled() || !Number.isFinite(value)) return;
  const unit = opts.unit === 'Milliseconds' ? MetricUnit.Milliseconds : MetricUnit.Count;
  if (!opts.dimensions) {
    metrics.addMetric(name, unit, value);
    return;
  }
  const single = metrics.singleMetric();
  for (const [k, v] of Object.entries(opts.dimensions)) single.addDimension(k, v);
  single.addMetric(name, unit, value);
}
