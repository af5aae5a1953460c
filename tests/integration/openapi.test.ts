import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Validator } from '@seriousme/openapi-schema-validator';
import { startTestRuntime, type TestRuntime } from '../factories/runtime.ts';
import { HTTP_ROUTES } from '../../functions/routes.ts';

/**
 * The OpenAPI 3.1 document of the public API (issue 20): served at GET /v1/openapi.json without a
 * key, accepted by a standard validator (@seriousme/openapi-schema-validator, OpenAPI 3.1 schema),
 * and every `/v1` route of the route registry is in it with its method, the bearer security and
 * its scope.
 */
let rt: TestRuntime;
type Doc = { openapi: string; paths: Record<string, Record<string, { security?: unknown; 'x-required-scope'?: string; responses: Record<string, unknown> }>>; components: { securitySchemes: Record<string, unknown> } };
let doc: Doc;

beforeAll(async () => {
  rt = await startTestRuntime();
  const r = await fetch(`${rt.url}/v1/openapi.json`);
  expect(r.status).toBe(200);
  doc = (await r.json()) as Doc;
});
afterAll(async () => rt?.cleanup());

describe('GET /v1/openapi.json', () => {
  it('is valid OpenAPI 3.1 for a standard validator', async () => {
    expect(doc.openapi).toBe('3.1.0');
    const validator = new Validator();
    const res = await validator.validate(doc as unknown as Parameters<Validator['validate']>[0]);
    expect(res.errors ?? [], JSON.stringify(res.errors)).toEqual([]);
    expect(res.valid).toBe(true);
    expect(validator.version).toBe('3.1');
  });

  it('documents every /v1 route of the registry, with bearer security and its scope', () => {
    const publicRoutes = HTTP_ROUTES.filter((r) => r.auth === 'apikey' && r.path.startsWith('/v1/'));
    expect(publicRoutes.length).toBeGreaterThanOrEqual(16);
    for (const r of publicRoutes) {
      const op = doc.paths[r.path]?.[r.method.toLowerCase()];
      expect(op, `${r.method} ${r.path}`).toBeDefined();
      expect(op!.security).toEqual([{ apiKey: [] }]);
      expect(op!['x-required-scope']).toMatch(/^[a-z]+:(read|write)$/);
      expect(Object.keys(op!.responses)).toEqual(expect.arrayContaining(['401', '403', '429']));
    }
    expect(doc.components.securitySchemes.apiKey).toMatchObject({ type: 'http', scheme: 'bearer' });
    const documented = Object.entries(doc.paths).flatMap(([p, ops]) => Object.keys(ops).map((m) => `${m.toUpperCase()} ${p}`));
    expect(documented.sort()).toEqual(publicRoutes.map((r) => `${r.method} ${r.path}`).sort());
  });
});
