/**
 * Queue status port (issue 19; spec §2: a platform organization's /dashboard shows queue status):
 * how many messages wait in each queue and how many were dead-lettered. The local runtime installs
 * a source over its in-process queues (scripts/local/runtime.ts); in AWS no source is installed yet
 * (CloudWatch's ApproximateNumberOfMessages per queue would be the one: left for later), and the
 * dashboard says the status is unavailable.
 */
export interface QueueStatus {
  name: string;
  /** messages waiting or being handled */
  depth: number;
  /** messages in the queue's dead-letter queue */
  dead_letters: number;
}

let source: (() => QueueStatus[]) | undefined;

/** Install (or with `undefined` remove) the source of queue status. */
export function setQueueStatusSource(fn: (() => QueueStatus[]) | undefined): void {
  source = fn;
}

/** The queues' status, or null where no source is installed. */
export function queueStatus(): QueueStatus[] | null {
  return source ? source() : null;
}
