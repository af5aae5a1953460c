/**
 * A per-process cache of something read from an org's row, for `ttlMs` (default 5 s): hot paths
 * (event consumers, every media write) read it without a GetItem each time, and a change reaches
 * every Lambda within seconds. Used for the org's clock, plan state and library settings.
 * @returns `get(orgId)` and `forget(orgId?)` (after a write in this process; tests)
 */
export function orgCache<T>(load: (orgId: string) => Promise<T>, ttlMs = 5_000): { get: (orgId: string) => Promise<T>; forget: (orgId?: string) => void } {
  const cache = new Map<string, { at: number; value: T }>();
  return {
    async get(orgId) {
      const hit = cache.get(orgId);
      if (hit && Date.now() - hit.at < ttlMs) return hit.value;
      const value = await load(orgId);
      cache.set(orgId, { at: Date.now(), value });
      return value;
    },
    forget(orgId) {
      if (orgId) cache.delete(orgId);
      else cache.clear();
    },
  };
}
