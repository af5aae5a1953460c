/**
 * Group commit: what callers add while a commit is in flight goes into the next one (at most `max`
 * items a commit, one commit at a time), so under load N writers share one write instead of N
 * competing ones, and alone a caller waits for nothing more than its own commit. Each `add`
 * resolves with its item's result (the commit returns one per item, in order), or rejects with its
 * commit's error. Users: the broadcast engine's claims and finishes (one transaction on the job's hot
 * rows, issue 16), the local queues' files and the local search index's change log (issue 23: one
 * file write for many messages).
 */
export class GroupCommit<T, R> {
  private waiting: Array<{ item: T; resolve: (r: R) => void; reject: (e: unknown) => void }> = [];
  private running = false;
  /**
   * @param commit writes a batch of items; @returns one result per item, in order
   * @param max items a commit takes at most @default Infinity
   */
  constructor(
    private readonly commit: (items: T[]) => Promise<R[]>,
    private readonly max = Infinity,
  ) {}

  add(item: T): Promise<R> {
    return new Promise<R>((resolve, reject) => {
      this.waiting.push({ item, resolve, reject });
      if (!this.running) void this.run();
    });
  }

  private async run(): Promise<void> {
    this.running = true;
    try {
      while (this.waiting.length) {
        const batch = this.waiting.splice(0, this.max);
        try {
          const out = await this.commit(batch.map((b) => b.item));
          batch.forEach((b, i) => b.resolve(out[i]!));
        } catch (e) {
          for (const b of batch) b.reject(e);
        }
      }
    } finally {
      this.running = false;
    }
  }
}
