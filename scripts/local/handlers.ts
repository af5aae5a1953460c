import { pathToFileURL } from 'node:url';
import { resolve } from 'node:path';

/**
 * Load a handler from a registry reference `file#export` (relative to the repo root), the same
 * string CDK uses as the NodejsFunction entry and handler.
 */
const ROOT = resolve(import.meta.dirname, '../..');
const cache = new Map<string, unknown>();

export async function loadHandler<T = (event: unknown) => Promise<unknown>>(ref: string): Promise<T> {
  const hit = cache.get(ref);
  if (hit) return hit as T;
  const [file, name = 'handler'] = ref.split('#');
  const mod = (await import(pathToFileURL(resolve(ROOT, file)).href)) as Record<string, unknown>;
  const fn = mod[name];
  if (typeof fn !== 'function') throw new Error(`${ref}: export ${name} is not a function`);
  cache.set(ref, fn);
  return fn as T;
}

export const REPO_ROOT = ROOT;
