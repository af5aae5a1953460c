import { describe, expect, it } from 'vitest';
import { DbCallGate, classOf } from '../../scripts/local/db-gate.ts';

/**
 * The local runtime's DynamoDB call gate (scripts/local/db-gate.ts, issues 17 and 23): at most
 * `maxInFlight` calls at once; a free slot goes to the most urgent waiting class, oldest first; a
 * waiting call moves up a class per `agingMs`. An injected clock and hand-resolved calls: no sleeps.
 */
const deferred = () => {
  let resolve!: () => void;
  const promise = new Promise<void>((r) => (resolve = r));
  return { promise, resolve };
};
const flush = () => new Promise<void>((r) => setImmediate(r));

/** A gate whose calls start in `started` and finish when the test resolves `calls.get(name)`. */
const harness = (gate: DbCallGate) => {
  const started: string[] = [];
  const calls = new Map<string, ReturnType<typeof deferred>>();
  const call = (name: string, cls: 0 | 1 | 2) => {
    const d = deferred();
    calls.set(name, d);
    return gate.run(cls, async () => {
      started.push(name);
      await d.promise;
      return name;
    });
  };
  return { started, calls, call };
};

describe('DbCallGate', () => {
  it('classes calls by the consumer queue they run in', () => {
    expect(classOf(undefined)).toBe(0);
    expect(classOf('realtime-fanout')).toBe(0);
    expect(classOf('rules-engine')).toBe(0);
    expect(classOf('whatsapp-inbound')).toBe(1);
    expect(classOf('wa-web-inbound')).toBe(1);
    expect(classOf('search-index')).toBe(2);
  });

  it('keeps at most maxInFlight calls running and serves the most urgent class first', async () => {
    const gate = new DbCallGate(2, 100, () => 0);
    const { started, calls, call } = harness(gate);
    const done = [call('bg1', 2), call('bg2', 2), call('bg3', 2), call('inbound', 1), call('fanout', 0)];
    await flush();
    expect(started).toEqual(['bg1', 'bg2']);
    expect(gate.queued).toEqual([1, 1, 1]);
    calls.get('bg1')!.resolve();
    await flush();
    expect(started).toEqual(['bg1', 'bg2', 'fanout']);
    calls.get('bg2')!.resolve();
    await flush();
    expect(started).toEqual(['bg1', 'bg2', 'fanout', 'inbound']);
    calls.get('fanout')!.resolve();
    calls.get('inbound')!.resolve();
    await flush();
    expect(started.at(-1)).toBe('bg3');
    calls.get('bg3')!.resolve();
    expect(await Promise.all(done)).toEqual(['bg1', 'bg2', 'bg3', 'inbound', 'fanout']);
  });

  it('ages a waiting background call ahead of newer urgent ones, so it is never starved', async () => {
    let t = 0;
    const gate = new DbCallGate(1, 100, () => t);
    const { started, calls, call } = harness(gate);
    void call('first', 0);
    void call('bg', 2);
    await flush();
    t = 250; // bg has waited 250 ms: class 2 - 2 = 0, older than the next urgent call
    void call('late-urgent', 0);
    calls.get('first')!.resolve();
    await flush();
    expect(started).toEqual(['first', 'bg']);
    calls.get('bg')!.resolve();
    await flush();
    expect(started).toEqual(['first', 'bg', 'late-urgent']);
    calls.get('late-urgent')!.resolve();
  });

  it('frees the slot when a call throws', async () => {
    const gate = new DbCallGate(1, 100, () => 0);
    await expect(gate.run(1, async () => Promise.reject(new Error('ValidationException')))).rejects.toThrow('ValidationException');
    expect(await gate.run(2, async () => 'ok')).toBe('ok');
  });
});
