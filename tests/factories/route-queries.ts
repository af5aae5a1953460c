import { readFile } from 'node:fs/promises';
import { dirname, resolve } from 'node:path';
import type { ZodTypeAny } from 'zod';
import { HTTP_ROUTES, type HttpRoute } from '../../functions/routes.ts';
import { V1 } from '../../functions/http/v1/contract.ts';

/**
 * The query parameters each GET route of the registry reads, found from the zod schemas the
 * handlers validate with (so the fuzzer follows a new parameter or a new list route without a
 * table to keep): a handler's `httpHandler({ query: X })` (X imported from a schemas module or the
 * handler itself), and the `/v1` contract's `query` (functions/http/v1/contract.ts). A route whose
 * schema cannot be found is returned in `unresolved`, so the test can fail on it rather than skip it.
 */
export interface RouteQuery {
  route: HttpRoute;
  /** the query keys of the route's schema (empty: it takes none) */
  keys: string[];
}

const REPO = resolve(import.meta.dirname, '../..');

/** Keys of the object inside effects, defaults, optionals and pipelines; undefined when there is none. */
export function objectKeys(schema: ZodTypeAny | undefined): string[] | undefined {
  let t = schema as { _def?: Record<string, unknown>; shape?: Record<string, unknown> } | undefined;
  for (let i = 0; i < 10 && t; i++) {
    const def = t._def as { typeName?: string; schema?: unknown; innerType?: unknown; in?: unknown } | undefined;
    if (def?.typeName === 'ZodObject') return Object.keys(t.shape ?? {});
    t = (def?.schema ?? def?.innerType ?? def?.in) as typeof t;
  }
  return undefined;
}

/** The query schema a handler file names, or null when it has none. */
async function handlerQuery(file: string): Promise<ZodTypeAny | null | undefined> {
  const path = resolve(REPO, file);
  const src = await readFile(path, 'utf8');
  const m = /\bquery:\s*([A-Za-z_$][\w$]*)/.exec(src);
  if (!m) return null;
  const name = m[1]!;
  const imported = new RegExp(`import\\s*\\{[^}]*\\b${name}\\b[^}]*\\}\\s*from\\s*'([^']+)'`).exec(src);
  const mod = (await import(imported ? resolve(dirname(path), imported[1]!) : path)) as Record<string, unknown>;
  return mod[name] as ZodTypeAny | undefined;
}

/** Every GET route of the registry with the query keys it reads. */
export async function routeQueries(): Promise<{ routes: RouteQuery[]; unresolved: string[] }> {
  const v1 = new Map(Object.values(V1).map((op) => [`${op.method} ${op.path}`, (op as { query?: ZodTypeAny }).query]));
  const routes: RouteQuery[] = [];
  const unresolved: string[] = [];
  for (const route of HTTP_ROUTES.filter((r) => r.method === 'GET')) {
    const key = `${route.method} ${route.path}`;
    let schema: ZodTypeAny | null | undefined;
    if (v1.has(key)) schema = v1.get(key) ?? null;
    else if (route.handler.startsWith('functions/http/v1/')) schema = null; // /v1/openapi.json and other non-contract reads
    else schema = await handlerQuery(route.handler.split('#')[0]!).catch(() => undefined);
    if (schema === undefined) {
      unresolved.push(key);
      continue;
    }
    const keys = schema === null ? [] : objectKeys(schema);
    if (!keys) unresolved.push(key);
    else routes.push({ route, keys });
  }
  return { routes, unresolved };
}
