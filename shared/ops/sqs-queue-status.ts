import { GetQueueAttributesCommand, ListQueuesCommand, SQSClient } from '@aws-sdk/client-sqs';
import type { QueueStatus } from '../ports/queue-status.ts';

/**
 * The queue status of one deployment read from SQS (issue 19 /dashboard, platform orgs): every
 * queue whose name starts with `prefix` (the events stack's name: CloudFormation names its queues
 * `<stack>-<logical id>-<suffix>`), ListQueues paged, then GetQueueAttributes per queue. A queue with
 * a redrive policy is a work queue; the queue it points at is its dead-letter queue. Answers are
 * kept for 15 s per Lambda so a dashboard refresh costs no SQS calls.
 * IAM: sqs:ListQueues and sqs:GetQueueAttributes on `<prefix>*` (infra/access.ts `queueStatus`).
 */
export interface QueueAttributesRow {
  url: string;
  arn: string;
  /** ApproximateNumberOfMessages */
  visible: number;
  /** ApproximateNumberOfMessagesNotVisible (being handled) */
  inFlight: number;
  /** deadLetterTargetArn of the RedrivePolicy, when the queue has one */
  dlqArn: string | null;
}

/** The readable name of a queue: its name without the stack prefix and CloudFormation's suffix. */
export function queueDisplayName(arn: string, prefix: string): string {
  const name = arn.split(':').pop() ?? arn;
  let rest = name.startsWith(`${prefix}-`) ? name.slice(prefix.length + 1) : name;
  rest = rest.replace(/\.fifo$/, '');
  // CloudFormation appends -<random alphanumerics>
  rest = rest.replace(/-[A-Za-z0-9]{8,}$/, '');
  return rest;
}

/**
 * Work queues with their depth and dead-letter count (pure; unit-tested).
 * @param rows every queue of the prefix, work queues and DLQs alike
 */
export function pairQueues(rows: QueueAttributesRow[], prefix: string): QueueStatus[] {
  const byArn = new Map(rows.map((r) => [r.arn, r]));
  return rows
    .filter((r) => r.dlqArn)
    .map((r) => {
      const dlq = byArn.get(r.dlqArn!);
      return { name: queueDisplayName(r.arn, prefix), depth: r.visible + r.inFlight, dead_letters: dlq ? dlq.visible + dlq.inFlight : 0 };
    })
    .sort((a, b) => a.name.localeCompare(b.name));
}

const num = (v: string | undefined) => (v ? Number(v) || 0 : 0);
const CACHE_MS = 15_000;

/** A queue status source over SQS for `prefix`, cached 15 s. @throws the SDK's errors (the dashboard answers 500 then: an IAM or network fault) */
export function sqsQueueStatusSource(prefix: string, client: SQSClient = new SQSClient({})): () => Promise<QueueStatus[]> {
  let cached: { at: number; value: QueueStatus[] } | null = null;
  return async () => {
    if (cached && Date.now() - cached.at < CACHE_MS) return cached.value;
    const urls: string[] = [];
    let next: string | undefined;
    do {
      const page = await client.send(new ListQueuesCommand({ QueueNamePrefix: prefix, MaxResults: 1000, NextToken: next }));
      urls.push(...(page.QueueUrls ?? []));
      next = page.NextToken;
    } while (next);
    const rows = await Promise.all(
      urls.map(async (url): Promise<QueueAttributesRow> => {
        const a = (await client.send(new GetQueueAttributesCommand({ QueueUrl: url, AttributeNames: ['QueueArn', 'ApproximateNumberOfMessages', 'ApproximateNumberOfMessagesNotVisible', 'RedrivePolicy'] }))).Attributes ?? {};
        const redrive = a.RedrivePolicy ? (JSON.parse(a.RedrivePolicy) as { deadLetterTargetArn?: string }) : null;
        return { url, arn: a.QueueArn ?? url, visible: num(a.ApproximateNumberOfMessages), inFlight: num(a.ApproximateNumberOfMessagesNotVisible), dlqArn: redrive?.deadLetterTargetArn ?? null };
      }),
    );
    cached = { at: Date.now(), value: pairQueues(rows, prefix) };
    return cached.value;
  };
}
