import { isMainThread, parentPort, Worker, workerData } from 'node:worker_threads';
import type { SearchDoc, SearchIndexName } from '../../shared/ports/search.ts';
import { startLocalSearch, type LocalSearch } from './search.ts';

/**
 * The embedded search engine (scripts/local/search.ts) on its own worker thread, behind the same
 * `LocalSearch` port. The index of 1,000,000 messages is ~1.4 GiB of small objects; on the
 * runtime's main thread every major garbage collection marked it, which stretched the request
 * path's tail (bench:search, chat list Mine + Unread at 10 clients: p50 91 ms but p95 218 ms), and
 * building or replaying it held the event loop (~20 s at 1M). In a worker the index has its own
 * heap and thread: the main thread's collections never see it, and the main thread stays free
 * while it loads (the runtime still waits for it before it starts answering). A call costs one
 * structured clone each way (a page of hits).
 *
 * `rebuild` (an index's documents from the table, when its snapshot is missing) runs on the main
 * thread, which has the table client; its documents are sent to the worker.
 */
type Op = 'upsert' | 'remove' | 'search' | 'stop';
type Request = { id: number; op: Op; args: unknown[] } | { id: number; docs: SearchDoc[] } | { id: number; rebuildError: string };
type Reply = { id: number; result?: unknown; error?: string } | { rebuild: SearchIndexName; id: number } | { ready: true } | { failed: string };

/**
 * Start the embedded search engine on a worker thread; same arguments and port as startLocalSearch.
 * @throws Error when the worker fails to start (its message)
 */
export async function startLocalSearchWorker(dataDir: string, rebuild: (index: SearchIndexName) => Promise<SearchDoc[]>, opts: { persist?: boolean; compactBytes?: number } = {}): Promise<LocalSearch> {
  const worker = new Worker(new URL('./ts-worker.mjs', import.meta.url), { workerData: { entry: import.meta.url, chorusSearch: { dataDir, opts } } });
  const pending = new Map<number, { ok: (v: unknown) => void; fail: (e: Error) => void }>();
  let next = 0;
  // the worker keeps the process alive only while a call waits on it
  const settle = () => (pending.size ? worker.ref() : worker.unref());
  let started!: { ok: () => void; fail: (e: Error) => void };
  const ready = new Promise<void>((ok, fail) => (started = { ok, fail }));
  worker.on('message', (m: Reply) => {
    if ('ready' in m) return started.ok();
    if ('failed' in m) return started.fail(new Error(m.failed));
    if ('rebuild' in m) {
      void rebuild(m.rebuild).then(
        (docs) => worker.postMessage({ id: m.id, docs } satisfies Request),
        (e) => worker.postMessage({ id: m.id, rebuildError: String((e as Error)?.message ?? e) } satisfies Request),
      );
      return;
    }
    const p = pending.get(m.id);
    pending.delete(m.id);
    settle();
    if (m.error !== undefined) p?.fail(new Error(m.error));
    else p?.ok(m.result);
  });
  // a worker that died (an error, or an exit before `stop`) fails what waits on it and every later call
  let dead: Error | undefined;
  const die = (e: Error) => {
    dead ??= e;
    started.fail(e);
    for (const p of pending.values()) p.fail(e);
    pending.clear();
  };
  worker.on('error', die);
  worker.on('exit', (code) => die(new Error(`The search worker stopped (exit code ${code}).`)));
  await ready;
  settle();
  let stopped: Promise<void> | undefined;
  const call = <T>(op: Op, ...args: unknown[]) =>
    new Promise<T>((ok, fail) => {
      if (dead) return fail(dead);
      const id = ++next;
      pending.set(id, { ok: ok as (v: unknown) => void, fail });
      settle();
      worker.postMessage({ id, op, args } satisfies Request);
    });
  return {
    upsert: (index, docs) => call('upsert', index, docs),
    // the org travels with the ids: the engine removes by (org, id) (issue 41 §6)
    remove: (index, orgId, ids, version) => call('remove', index, orgId, ids, version),
    search: (index, orgId, text, limit, o) => call('search', index, orgId, text, limit, o),
    // once: the worker ends after its snapshots are written
    stop: () => (stopped ??= call('stop').then(() => void worker.terminate())),
  };
}

/** The worker's side: the engine, answering the main thread's calls in order of arrival. */
async function serve(): Promise<void> {
  const port = parentPort!;
  const { dataDir, opts } = (workerData as { chorusSearch: { dataDir: string; opts: { persist?: boolean; compactBytes?: number } } }).chorusSearch;
  const rebuilds = new Map<number, { ok: (docs: SearchDoc[]) => void; fail: (e: Error) => void }>();
  let next = 0;
  let engine: LocalSearch | undefined;
  port.on('message', async (m: Request) => {
    if ('docs' in m || 'rebuildError' in m) {
      const r = rebuilds.get(m.id);
      rebuilds.delete(m.id);
      if ('docs' in m) r?.ok(m.docs);
      else r?.fail(new Error(m.rebuildError));
      return;
    }
    try {
      const result = await (engine![m.op] as (...a: unknown[]) => Promise<unknown>)(...m.args);
      port.postMessage({ id: m.id, result } satisfies Reply);
    } catch (e) {
      port.postMessage({ id: m.id, error: String((e as Error)?.message ?? e) } satisfies Reply);
    }
  });
  try {
    engine = await startLocalSearch(
      dataDir,
      (index) =>
        new Promise((ok, fail) => {
          const id = ++next;
          rebuilds.set(id, { ok, fail });
          port.postMessage({ rebuild: index, id } satisfies Reply);
        }),
      opts,
    );
    port.postMessage({ ready: true } satisfies Reply);
  } catch (e) {
    port.postMessage({ failed: String((e as Error)?.stack ?? e) } satisfies Reply);
  }
}

if (!isMainThread && (workerData as { chorusSearch?: unknown } | null)?.chorusSearch) await serve();
