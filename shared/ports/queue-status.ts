import { config } from '../config.ts';

/**
 * Queue status port (issue 19; spec §2: a platform organization's /dashboard shows queue status):
 * how many messages wait in each queue and how many were dead-lettered. The local runtime installs
 * a source over its in-process queues (scripts/local/runtime.ts); in AWS, where the dashboard's
 * Lambda gets QUEUE_NAME_PREFIX (the events stack's name, infra/access.ts `queueStatus`), the
 * source is SQS itself (shared/ops/sqs-queue-status.ts: ListQueues + GetQueueAttributes).
 * Elsewhere there is no source and the dashboard says the status is unavailable.
 */
export interface QueueStatus {
  name: string;
  /** messages waiting or being handled */
  depth: number;
  /** messages in the queue's dead-letter queue */
  dead_letters: number;
}

type Source = () => QueueStatus[] | Promise<QueueStatus[]>;
let source: Source | undefined;

/** Install (or with `undefined` remove) the source of queue status. */
export function setQueueStatusSource(fn: Source | undefined): void {
  source = fn;
}

/** The queues' status, or null where no source is installed (nor QUEUE_NAME_PREFIX set). */
export async function queueStatus(): Promise<QueueStatus[] | null> {
  if (!source && config().QUEUE_NAME_PREFIX) {
    const { sqsQueueStatusSource } = await import('../ops/sqs-queue-status.ts');
    source = sqsQueueStatusSource(config().QUEUE_NAME_PREFIX);
  }
  return source ? source() : null;
}
