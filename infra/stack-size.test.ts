/**
 * Room to grow: CloudFormation refuses a stack of more than 500 resources. This synthesizes the
 * app with a route registry twice today's size (every route cloned under `/api/v2`, each clone with
 * a handler of its own in the same area folder, so every area grows as it does today) and requires
 * every stack to stay under 400 resources, leaving margin for the consumers and roles new routes
 * bring along.
 *
 *   npx vitest run infra/stack-size.test.ts
 */
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { App, Stack } from 'aws-cdk-lib';
import { afterAll, describe, expect, it } from 'vitest';
import { HTTP_ROUTES, type HttpRoute } from '../functions/routes.ts';
import { buildApp } from './build.ts';
import { cdkContext } from './test-support.ts';

const MAX_RESOURCES = 400;
const outdir = fs.mkdtempSync(path.join(os.tmpdir(), 'chorus-cdk-size-'));
afterAll(() => fs.rmSync(outdir, { recursive: true, force: true }));

/** `functions/http/chats/list-chats.ts#handler` -> `functions/http/chats/list-chats-v2.ts#handler` */
const cloneHandler = (handler: string) => handler.replace(/\.ts#/, '-v2.ts#');

/** Resource count per stack of a synthesized app. */
function resourceCounts(routes: readonly HttpRoute[]): Record<string, number> {
  const app = new App({ outdir, context: cdkContext });
  // nag off: the cloned public routes (webhooks) are not in its accepted list; infra/nag.test.ts checks the real registry
  buildApp(app, { bundle: false, webDist: '/nonexistent', routes, nag: false });
  const assembly = app.synth();
  const counts: Record<string, number> = {};
  for (const stack of app.node.children.filter((c): c is Stack => c instanceof Stack)) {
    const template = assembly.getStackByName(stack.stackName).template as { Resources?: Record<string, unknown> };
    counts[stack.stackName] = Object.keys(template.Resources ?? {}).length;
  }
  return counts;
}

describe('stack size', () => {
  it(`keeps every stack under ${MAX_RESOURCES} resources with twice today's routes`, () => {
    const doubled: HttpRoute[] = [
      ...HTTP_ROUTES,
      ...HTTP_ROUTES.map((r) => ({ ...r, path: `/api/v2${r.path}`, handler: cloneHandler(r.handler) })),
    ];
    expect(new Set(doubled.map((r) => `${r.method} ${r.path}`)).size).toBe(2 * HTTP_ROUTES.length);
    expect(new Set(doubled.map((r) => r.handler)).size).toBe(2 * new Set(HTTP_ROUTES.map((r) => r.handler)).size);

    const today = resourceCounts(HTTP_ROUTES);
    const twice = resourceCounts(doubled);
    console.info('resources per stack (today -> twice the routes):', Object.fromEntries(Object.keys(twice).map((s) => [s, `${today[s]} -> ${twice[s]}`])));

    for (const [stack, count] of Object.entries(twice)) expect(count, stack).toBeLessThan(MAX_RESOURCES);
    // the doubled routes really landed somewhere: the route stacks grew by 3+ resources per route
    const grown = Object.keys(twice).reduce((n, s) => n + twice[s]! - today[s]!, 0);
    expect(grown).toBeGreaterThanOrEqual(3 * HTTP_ROUTES.length);
  }, 120_000);
});
