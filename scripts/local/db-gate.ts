/**
 * A priority gate on the local runtime's DynamoDB calls (issues 17 and 23).
 *
 * DynamoDB Local runs every SQLite statement on one thread, so the calls in flight are served one
 * after the other, in arrival order: a live call (a message stored, pushed to the socket, a rule's
 * action) waited behind every background call (search, analytics, contact sightings…) that reached
 * it first. This gate keeps at most `maxInFlight` calls at DynamoDB Local and hands each free slot to
 * the waiting call of the most urgent class; within a class, first come first served. A call gains
 * one class per `agingMs` waited, so background calls are slowed under a burst, never starved.
 *
 * Classes (`classOf(queue)`, the consumer's queue from the log context; none = an HTTP request, a
 * poller or the scheduler): 0 a person or a downstream live consumer (the socket fan-out, the rules
 * engine and its actions, API requests), 1 storing and sending (the inbound and outbound queues),
 * 2 everything else. Locally only: in AWS every consumer has its own Lambda and DynamoDB scales.
 */
export type DbCallClass = 0 | 1 | 2;

const DOWNSTREAM = new Set(['realtime-fanout', 'rules-engine', 'rule-actions']);
const STORE = new Set(['whatsapp-inbound', 'wa-web-inbound', 'whatsapp-outbound']);

/** The class of a call made while consuming `queue` (undefined: outside any consumer). */
export function classOf(queue: string | undefined): DbCallClass {
  if (queue === undefined || DOWNSTREAM.has(queue)) return 0;
  return STORE.has(queue) ? 1 : 2;
}

interface Waiter {
  /** when it started waiting, ms (performance.now()) */
  at: number;
  go: () => void;
}

export class DbCallGate {
  private inFlight = 0;
  private readonly waiting: Waiter[][] = [[], [], []];

  /**
   * @param maxInFlight calls at DynamoDB Local at once (env CHORUS_DB_INFLIGHT)
   * @param agingMs a waiting call moves up one class per this many ms waited (env CHORUS_DB_AGING_MS)
   * @param now clock in ms (injected by tests)
   */
  constructor(
    readonly maxInFlight = 4,
    readonly agingMs = 100,
    private readonly now: () => number = () => performance.now(),
  ) {}

  /** Calls waiting for a slot, by class (tests, traces). */
  get queued(): number[] {
    return this.waiting.map((w) => w.length);
  }

  /** Run `fn` (one DynamoDB call) when a slot is free and no more urgent call waits. */
  async run<T>(cls: DbCallClass, fn: () => Promise<T>): Promise<T> {
    if (this.inFlight < this.maxInFlight && this.waiting.every((w) => !w.length)) this.inFlight++;
    else await new Promise<void>((go) => this.waiting[cls].push({ at: this.now(), go }));
    try {
      return await fn();
    } finally {
      this.inFlight--;
      this.next();
    }
  }

  /** Hand free slots to the most urgent waiting calls (class lowered by age; ties: the oldest). */
  private next(): void {
    while (this.inFlight < this.maxInFlight) {
      const t = this.now();
      let best = -1;
      let bestRank = Infinity;
      let bestAt = Infinity;
      for (let c = 0; c < this.waiting.length; c++) {
        const head = this.waiting[c][0];
        if (!head) continue;
        const rank = Math.max(0, c - Math.floor((t - head.at) / this.agingMs));
        if (rank < bestRank || (rank === bestRank && head.at < bestAt)) {
          best = c;
          bestRank = rank;
          bestAt = head.at;
        }
      }
      if (best < 0) return;
      this.inFlight++;
      this.waiting[best].shift()!.go();
    }
  }
}
