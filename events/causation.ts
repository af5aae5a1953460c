import { AsyncLocalStorage } from 'node:async_hooks';

/**
 * The causation chain of domain events (issue 17 §4 loop guard). Work done by an automation rule
 * runs inside `withCausation`, and every event published meanwhile (events/publish.ts entryOf)
 * carries `metadata.causation`: the rules that led to it (accumulated along the chain) and how
 * many rule hops deep it is. The rules consumer never evaluates a rule on an event that rule
 * caused, and stops every rule past MAX_CAUSATION_DEPTH hops (rule A → rule B → rule A…).
 */
export interface Causation {
  /** the event that started the chain's last hop */
  event_id: string;
  /** rules that acted along the chain, oldest first */
  rule_ids: string[];
  /** rule hops so far (1 = caused by a rule acting on a non-rule event) */
  depth: number;
}

export const MAX_CAUSATION_DEPTH = 3;

const store = new AsyncLocalStorage<Causation>();

/** Run `fn` with `c` as the causation of every event it publishes. */
export function withCausation<T>(c: Causation, fn: () => Promise<T>): Promise<T> {
  return store.run(c, fn);
}

/** The causation in effect (undefined outside a rule's work). */
export function currentCausation(): Causation | undefined {
  return store.getStore();
}
