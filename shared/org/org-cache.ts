/**
 * A per-process cache of something read from an org's row (or any row keyed by one string: the member
 * rows of shared/auth/actor.ts), for `ttlMs` (default 5 s): hot paths
 * (event consumers, every media write) read it without a GetItem each time, and a change reaches
 * every Lambda within seconds. Used for the org's clock, plan state and library settings.
 * Concurrent misses of one org share one load; `forget` also drops a load in flight (its result is
 * then not cached).
 * @returns `get(orgId)` and `forget(orgId?)` (after a write in this process; tests)
 */
export function orgCache<T>(load: (orgId: string) => Promise<T>, ttlMs = 5_000): { get: (orgId: string) => Promise<T>; forget: (orgId?: string) => void } {
  const cache = new Map<string, { at: number; value: T }>();
  // one load per org at a time: concurrent misses (a batch of consumer records) share it
  const loading = new Map<string, Promise<T>>();
  return {
    async get(orgId) {
      const hit = cache.get(orgId);
      if (hit && Date.now() - hit.at < ttlMs) return hit.value;
      const pending = loading.get(orgId);
      if (pending) return pending;
      const p = load(orgId).then(
        (value) => {
          if (loading.get(orgId) === p) cache.set(orgId, { at: Date.now(), value });
          return value;
        },
      ).finally(() => {
        if (loading.get(orgId) === p) loading.delete(orgId);
      });
      loading.set(orgId, p);
      return p;
    },
    forget(orgId) {
      if (orgId) {
        cache.delete(orgId);
        loading.delete(orgId);
      } else {
        cache.clear();
        loading.clear();
      }
    },
  };
}
