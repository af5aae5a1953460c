import middy, { type MiddlewareObj } from '@middy/core';
import type { APIGatewayProxyEventV2, APIGatewayProxyResultV2, APIGatewayProxyStructuredResultV2, Context } from 'aws-lambda';
import type { z, ZodTypeAny } from 'zod';
import { AppError } from '../../shared/errors.ts';
import { addLogContext } from '../../shared/log.ts';
import { chatGuard, type ChatGuard } from '../../shared/access/guard.ts';
import type { Actor } from '../../shared/auth/actor.ts';
import { apiActor, logApiRequest, resolveApiKey, takeToken, type ApiKeyPrincipal } from '../../shared/apikey/api-key.ts';
import { hasScope, type ApiScope } from '../../shared/apikey/api-key.rules.ts';
import { bodyLimit, chatAccess, decodeSafe, errorHandler, json, MAX_BODY_BYTES, observability, useOfEvent, validateInput, withRequestLog } from './http.ts';
import { requireUse } from '../../shared/plan/gate.ts';

/**
 * API-key authentication of the public API (`/v1/…`) and the MCP server (`/mcp`), issue 20.
 *
 * Where the key is checked: in the handler (this middleware), not by an API Gateway authorizer.
 * Routes with `auth: 'apikey'` in functions/routes.ts get no API Gateway authorizer (like 'none';
 * infra/stacks/api-routes-stack.ts) and the local gateway passes them through; every handler of
 * such a route is built with `apiHandler` (or runs `authenticateApiKey` itself), so the check is
 * the same in AWS and locally and needs no extra Lambda or authorizer cache (a revoked key stops
 * working at once).
 *
 * Order: error handler -> body limit (413) -> apiKeyAuth (401 bad key, 429 + Retry-After, then 404
 * for another org's `{org_id}`, then 403 missing scope) -> the entitlement gate of the route's `use`
 * (issue 42: `/v1` is Custom API and webhooks, spec §9; 402 subscription_ended / trial_ended, 403
 * plan_feature; apiEntitlement) -> zod (400) -> the
 * access guard (shared/access/guard.ts; the API actor is org-level and sees every chat of its org)
 * -> the use case. Every request that named a valid key is logged (route, status, latency, key).
 */

type Event = APIGatewayProxyEventV2;
type Result = APIGatewayProxyResultV2;
type Infer<T> = T extends ZodTypeAny ? z.infer<T> : undefined;

type Parsed = { raw: Buffer; params?: unknown; query?: unknown; body?: unknown; actor?: Actor; orgId?: string; guard?: ChatGuard; apiKey?: ApiKeyPrincipal };
type ApiContext = Context & { chorus: Parsed };
type Mw = MiddlewareObj<Event, Result, Error, ApiContext>;

/** The bearer token of a request (case-insensitive header). */
export const bearerOf = (event: Pick<Event, 'headers'>): string | undefined => /^Bearer\s+(\S+)\s*$/i.exec(event.headers?.authorization ?? event.headers?.Authorization ?? '')?.[1];

/**
 * Resolve the key, check the scope and take a rate-limit token.
 * @throws AppError 401 auth.invalid_api_key; 403 api_key.scope_missing; 429 api_key.rate_limited
 */
export async function authenticateApiKey(
  token: string | undefined,
  scope: ApiScope | null,
  onResolved?: (principal: ApiKeyPrincipal) => void,
): Promise<{ principal: ApiKeyPrincipal; actor: Actor }> {
  const k = await resolveApiKey(token);
  const principal: ApiKeyPrincipal = { key_id: k.key_id, org_id: k.org_id, scopes: k.scopes, rate_limit: k.rate_limit, name: k.name };
  // from here on the request is the key's: logged whatever the answer (429 and 403 included)
  onResolved?.(principal);
  await takeToken(k);
  if (scope && !hasScope(k.scopes, scope)) throw scopeMissing(scope);
  return { principal, actor: apiActor(principal) };
}

export const scopeMissing = (scope: string) => new AppError('api_key.scope_missing', `This API key lacks the scope ${scope}.`, { status: 403, details: { scope } });

/**
 * Middy middleware: `Authorization: Bearer chk_…` -> the org-level API actor with its scopes.
 * A path `{org_id}` other than the key's org is a 404 (the same answer as a missing org).
 */
export const apiKeyAuth = (opts: { scope: ApiScope | null }): Mw => ({
  name: 'api-key-auth',
  before: async (request) => {
    const c = request.context.chorus;
    const { principal, actor } = await authenticateApiKey(bearerOf(request.event), null, (p) => (c.apiKey = p));
    addLogContext({ org_id: principal.org_id, api_key_id: principal.key_id });
    // another org first (404, whatever the scopes), then the scope (403)
    const pathOrg = request.event.pathParameters?.org_id;
    if (pathOrg !== undefined && decodeSafe(pathOrg) !== principal.org_id) {
      throw new AppError('organization.not_found', 'That workspace does not exist or you are not a member of it.', { status: 404 });
    }
    if (opts.scope && !hasScope(principal.scopes, opts.scope)) throw scopeMissing(opts.scope);
    c.actor = actor;
    c.orgId = principal.org_id;
  },
});

/**
 * The one entitlement gate (shared/plan/entitlements.rules.ts `entitlement`) for the key's org and
 * the route's use (functions/routes.ts; every `/v1` route is `custom_api_webhooks`).
 * @throws AppError 402 subscription_ended | trial_ended; 403 plan_feature
 */
export const apiEntitlement = (): Mw => ({
  name: 'api-entitlement',
  before: async (request) => {
    const use = useOfEvent(request.event);
    if (use === 'open' || use === 'read') return;
    await requireUse(request.context.chorus.apiKey!.org_id, use);
  },
});

/** Sets the org actor again after validateInput (which reads `org_id` from the path). */
const keepActor = (): Mw => ({
  name: 'api-actor',
  before: async (request) => {
    const c = request.context.chorus;
    c.orgId = c.apiKey!.org_id;
    c.guard = await chatGuard(c.actor!);
  },
});

export interface ApiHandlerContext<P, Q, B> {
  event: Event;
  params: P;
  query: Q;
  body: B;
  actor: Actor;
  guard: ChatGuard;
  apiKey: ApiKeyPrincipal;
}

/** Adds Retry-After to 429 answers and logs the request of a valid key (route, status, latency). */
function withRetryAfter(res: Result): Result {
  const r = (typeof res === 'string' ? { statusCode: 200, body: res } : res) as APIGatewayProxyStructuredResultV2;
  if (r.statusCode === 429 && typeof r.body === 'string') {
    try {
      const s = (JSON.parse(r.body) as { error?: { details?: { retry_after_s?: number } } }).error?.details?.retry_after_s;
      if (s) r.headers = { ...r.headers, 'retry-after': String(s) };
    } catch {
      // not our body
    }
  }
  return r;
}

/**
 * Wrap a middy chain so that every request of a valid key is logged after the answer is known.
 * Used by apiHandler and the MCP handler.
 */
export function loggedApi(inner: (event: Event, context: ApiContext) => Promise<Result>) {
  return withRequestLog(async (event: Event, context: ApiContext): Promise<Result> => {
    const started = Date.now();
    const res = withRetryAfter(await inner(event, context));
    const key = context.chorus?.apiKey;
    if (key) {
      await logApiRequest({
        org_id: key.org_id,
        key_id: key.key_id,
        route: event.routeKey,
        method: event.requestContext?.http?.method ?? event.routeKey.split(' ')[0]!,
        path: event.rawPath ?? event.requestContext?.http?.path ?? '',
        status: (res as APIGatewayProxyStructuredResultV2).statusCode ?? 200,
        latency_ms: Date.now() - started,
        at: started,
      });
    }
    return res;
  });
}

/**
 * Build a public API handler (`/v1/…`): API-key auth with `scope`, zod validation, the access
 * guard, JSON answer. Errors render like the web API's (`{ error: { code, message, details } }`).
 */
export function apiHandler<PS extends ZodTypeAny | undefined = undefined, QS extends ZodTypeAny | undefined = undefined, BS extends ZodTypeAny | undefined = undefined>(
  spec: { scope: ApiScope; params?: PS; query?: QS; body?: BS; perChat?: readonly string[] },
  fn: (ctx: ApiHandlerContext<Infer<PS>, Infer<QS>, Infer<BS>>) => Promise<{ status?: number; body: unknown }>,
) {
  const chain = middy<Event, Result, Error, ApiContext>()
    .use(observability())
    .use(errorHandler() as unknown as Mw)
    .use(bodyLimit(MAX_BODY_BYTES) as unknown as Mw)
    .use(apiKeyAuth({ scope: spec.scope }))
    .use(apiEntitlement())
    .use(validateInput(spec) as unknown as Mw)
    .use(keepActor())
    .use(chatAccess(spec.perChat) as unknown as Mw)
    .handler(async (event, context) => {
      const c = context.chorus;
      const out = await fn({ event, params: c.params, query: c.query, body: c.body, actor: c.actor!, guard: c.guard!, apiKey: c.apiKey! } as ApiHandlerContext<Infer<PS>, Infer<QS>, Infer<BS>>);
      return json(out.status ?? 200, out.body);
    });
  return loggedApi(chain as unknown as (event: Event, context: ApiContext) => Promise<Result>);
}
