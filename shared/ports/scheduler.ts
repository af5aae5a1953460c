import type { CommandQueue } from './commands.ts';

/**
 * Scheduler port (architecture §3 'scheduler'): one-time wake-ups that put a command on a
 * command queue at a given time. AWS: EventBridge Scheduler, one `at(...)` schedule per name
 * targeting the queue, deleted after it fires (shared/scheduler/eventbridge-scheduler.ts). Local:
 * timers kept in a file under `.data/` and re-armed at start, so a wake-up due while the runtime
 * was down fires right after it starts (scripts/local/scheduler.ts).
 * Delivery is at least once and may be late or early by a few seconds: consumers check the item
 * they wake up for (e.g. the task's remind_at still equals the scheduled time) and ignore stale ones.
 */
export interface ScheduledCommand {
  /** unique per wake-up target, e.g. `task-reminder-<org_id>-<task_id>`; scheduling the same name again replaces it. [A-Za-z0-9_.-], at most 64 characters */
  name: string;
  /** epoch ms; a time in the past fires as soon as possible */
  at: number;
  queue: CommandQueue;
  /** the message body put on the queue (JSON text, at most 8 KiB) */
  body: string;
}

export interface SchedulerPort {
  /** Create or replace the schedule `cmd.name`. */
  schedule(cmd: ScheduledCommand): Promise<void>;
  /** Remove a schedule; an unknown name is not an error. */
  cancel(name: string): Promise<void>;
}

let port: SchedulerPort | undefined;

/** Install the adapter (the local runtime: its file-backed timers; undefined: back to the default). */
export function setSchedulerPort(p: SchedulerPort | undefined): void {
  port = p;
}

/** The installed adapter, else EventBridge Scheduler (configured from env by the CDK stack). */
export async function schedulerPort(): Promise<SchedulerPort> {
  if (port) return port;
  const { eventBridgeScheduler } = await import('../scheduler/eventbridge-scheduler.ts');
  port = eventBridgeScheduler();
  return port;
}

/** A schedule name from parts: only the characters EventBridge Scheduler accepts, at most 64. */
export function scheduleName(...parts: string[]): string {
  const raw = parts.join('-').replace(/[^A-Za-z0-9_.-]/g, '_');
  if (raw.length <= 64) return raw;
  // keep it unique: a short hash of the whole name replaces the middle
  let h = 0;
  for (const c of raw) h = (Math.imul(31, h) + c.charCodeAt(0)) | 0;
  return `${raw.slice(0, 50)}-${(h >>> 0).toString(36)}`.slice(0, 64);
}
