import { extendZodWithOpenApi, OpenAPIRegistry, OpenApiGeneratorV31 } from '@asteasolutions/zod-to-openapi';
import { z, type ZodTypeAny } from 'zod';
import { HTTP_ROUTES } from '../../routes.ts';
import { V1, type PublicRoute } from './contract.ts';

/**
 * The OpenAPI 3.1 document of the public API (issue 20), generated with
 * @asteasolutions/zod-to-openapi (v7, the zod 3 line) from the zod schemas of contract.ts, for the
 * `/v1` routes of the route registry (functions/routes.ts, `auth: 'apikey'`). A registry route
 * without a contract entry fails here, so nothing public goes undocumented.
 * Served at GET /v1/openapi.json; rendered by the web app's API reference page (Redoc, bundled).
 */

// adds `.openapi()` to zod's prototype (the generator calls it on every schema, the shared ones too)
extendZodWithOpenApi(z);

const ErrorBody = z.object({
  error: z.object({ code: z.string(), message: z.string(), details: z.unknown().optional() }),
});

const ERRORS: Record<number, string> = {
  400: 'Invalid input: `details` lists `{ field, reason }`',
  401: 'Missing, unknown or revoked API key',
  402: 'The workspace\'s subscription or free trial has ended (`subscription_ended`, `trial_ended`): renew on Settings > Plans and Usage',
  403: 'The key lacks the scope this route needs (`api_key.scope_missing`), or the plan lacks the API (`plan_feature`: Starter)',
  404: 'Not found (also another organization)',
  429: 'Rate limited: retry after the `Retry-After` seconds',
};

/** Only path/query schemas that are objects can become parameters; ZodEffects (refine) are unwrapped. */
const objectOf = (s: ZodTypeAny | undefined): z.AnyZodObject | undefined => {
  let cur: ZodTypeAny | undefined = s;
  while (cur && cur instanceof z.ZodEffects) cur = cur.innerType();
  return cur instanceof z.ZodObject ? cur : undefined;
};

/** The document (a plain JSON object). @param serverUrl the API's base URL for `servers` */
export function buildOpenApiDocument(serverUrl = '/'): ReturnType<OpenApiGeneratorV31['generateDocument']> {
  const registry = new OpenAPIRegistry();
  registry.registerComponent('securitySchemes', 'apiKey', {
    type: 'http',
    scheme: 'bearer',
    bearerFormat: 'chk_<key_id>_<secret>',
    description: 'An API key from Settings > Integrations > API (shown once at creation).',
  });
  const byRoute = new Map<string, PublicRoute>(Object.values(V1).map((r) => [`${r.method} ${r.path}`, r as PublicRoute]));
  for (const route of HTTP_ROUTES) {
    if (route.auth !== 'apikey' || !route.path.startsWith('/v1/')) continue;
    const c = byRoute.get(`${route.method} ${route.path}`);
    if (!c) throw new Error(`${route.method} ${route.path} has no entry in functions/http/v1/contract.ts`);
    const params = objectOf(c.params);
    const query = objectOf(c.query);
    registry.registerPath({
      method: c.method.toLowerCase() as 'get',
      path: c.path,
      summary: c.summary,
      ...(c.description ? { description: c.description } : {}),
      tags: [c.tag],
      operationId: Object.entries(V1).find(([, v]) => v === (c as unknown))?.[0],
      security: [{ apiKey: [] }],
      'x-required-scope': c.scope,
      request: {
        ...(params ? { params } : {}),
        ...(query ? { query } : {}),
        ...(c.body ? { body: { required: true, content: { 'application/json': { schema: c.body } } } } : {}),
      },
      responses: {
        [c.status ?? 200]: { description: 'OK', content: { 'application/json': { schema: c.response } } },
        ...Object.fromEntries(Object.entries(ERRORS).map(([s, d]) => [s, { description: d, content: { 'application/json': { schema: ErrorBody } } }])),
      },
    } as Parameters<OpenAPIRegistry['registerPath']>[0]);
  }
  return new OpenApiGeneratorV31(registry.definitions).generateDocument({
    openapi: '3.1.0',
    info: {
      title: 'Chorus public API',
      version: '1.0.0',
      description:
        'The REST API of a Chorus workspace. Authenticate with `Authorization: Bearer <API key>`; each key has read or write scopes per area and a rate limit (429 with `Retry-After`). Every request is logged for 90 days.',
    },
    servers: [{ url: serverUrl }],
  });
}
