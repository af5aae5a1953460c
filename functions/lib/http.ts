import { gzipSync } from 'node:zlib';
import middy, { type MiddlewareObj } from '@middy/core';
import type { APIGatewayProxyEventV2, APIGatewayProxyResultV2, Context } from 'aws-lambda';
import { z, type ZodTypeAny } from 'zod';
import { AppError, isAppError } from '../../shared/errors.ts';
import { claimsFrom, type Claims } from '../../shared/auth/jwt.ts';
import { resolveActor, type Actor } from '../../shared/auth/actor.ts';
import { resolveIdentity } from '../../shared/auth/identity.ts';
import { addLogContext, log, withLogContext } from '../../shared/log.ts';
import { observability } from './powertools.ts';
import { chatGuard, type ChatGuard } from '../../shared/access/guard.ts';
import { openChatIdsIn, sealChatIdsIn } from '../../shared/chat/chat-id-seal.ts';
import { entitlementError, orgEntitlement } from '../../shared/plan/gate.ts';
import type { Use } from '../../shared/plan/entitlements.rules.ts';
import { ROUTE_AUDITS, ROUTE_USES, routeUse } from '../routes.ts';
import { recordAdminAction } from '../../shared/audit/audit.ts';
import { areaOfKind, auditBodyOf } from '../../shared/audit/audit.rules.ts';

export { observability };

/**
 * The one HTTP handler wrapper, composed from small middy middlewares (house style):
 *   error handler (registered first, so its onError runs last)
 *   -> body size limit (413) -> JWT claims from API Gateway's authorizer (401)
 *   -> the entitlement gate of the route's `use` (functions/routes.ts; 402 subscription_ended /
 *      trial_ended, 403 plan_feature; a refusal is told to members of the org only, others get 404)
 *   -> zod validation of path, query and body (400 with `[{ field, reason }]`)
 *   -> org membership of `{org_id}` (404, the same as a missing org)
 *   -> per-chat access of every chat the request names, wherever it names it (403; the guard,
 *      shared/access/guard.ts) -> the use case -> the audit row of the route's `audit` kind
 *      (issue 49, best effort) -> JSON response.
 * Errors render as `{ error: { code, message, details } }`; unknown errors are logged and become
 * a 500 without internals.
 */
export const MAX_BODY_BYTES = 1024 * 1024;

type Infer<T> = T extends ZodTypeAny ? z.infer<T> : undefined;
type Event = APIGatewayProxyEventV2;
type Result = APIGatewayProxyResultV2;

export interface HttpContext<P, Q, B> {
  event: Event;
  params: P;
  query: Q;
  body: B;
  claims: Claims;
  /** present when the route has an `{org_id}` path parameter */
  actor: Actor;
  /** the actor's access and masking guard (present with `actor`); responses are shaped through its view* functions */
  guard: ChatGuard;
}

export interface HttpResult {
  status?: number;
  body: unknown;
  /**
   * What the route's audit row (functions/routes.ts `audit`) says beyond the defaults: the target
   * (default: the last path parameter, else the first `*_id` of the answer, else the body's
   * `email`) and details such as a
   * name or the value before the change, when the use case already has them (no extra reads).
   */
  audit?: { target?: string; details?: Record<string, unknown> };
}

/** The first `*_id` (not org_id) of an answer, at its top level or one level down (`{ rule: { rule_id } }`). */
function idIn(body: unknown, depth = 0): string | undefined {
  if (!body || typeof body !== 'object' || Array.isArray(body) || depth > 1) return undefined;
  for (const [k, v] of Object.entries(body)) if (k !== 'org_id' && k.endsWith('_id') && typeof v === 'string') return v;
  for (const v of Object.values(body)) {
    const id = idIn(v, depth + 1);
    if (id) return id;
  }
  return undefined;
}

/** A display name of what an answer describes (`name`, `subject`, `question`, top level or one down). */
function nameIn(body: unknown, depth = 0): string | undefined {
  if (!body || typeof body !== 'object' || Array.isArray(body) || depth > 1) return undefined;
  const o = body as Record<string, unknown>;
  for (const k of ['name', 'subject', 'question']) if (typeof o[k] === 'string') return o[k] as string;
  for (const v of Object.values(o)) {
    const n = nameIn(v, depth + 1);
    if (n) return n;
  }
  return undefined;
}

/**
 * The one audit trail of admin actions (issue 49): after a route declaring `audit: '<kind>'`
 * (functions/routes.ts) succeeded, one row: who (the actor), what (the kind), its target and the
 * request's fields (secrets left out), with the name of what changed as the answer gives it, and
 * anything the handler adds (`HttpResult.audit`, e.g. the value before). A write only, no read;
 * best effort: a failure is logged and the user's action stands.
 */
async function auditTrail(event: Event, c: Parsed, out: HttpResult): Promise<void> {
  try {
    const kind = event.routeKey ? ROUTE_AUDITS.get(event.routeKey) : undefined;
    if (!kind || !c.actor || (out.status ?? 200) >= 400) return;
    const params = Object.entries((c.params ?? {}) as Record<string, unknown>).filter(([k, v]) => k !== 'org_id' && typeof v === 'string');
    const email = (c.body as { email?: unknown } | undefined)?.email;
    const target = out.audit?.target ?? (params.length ? String(params[params.length - 1]![1]) : (idIn(out.body) ?? (typeof email === 'string' ? email.toLowerCase() : undefined))) ?? kind.split('.')[0]!;
    const name = nameIn(out.body);
    const details = { ...auditBodyOf(c.body), ...(name !== undefined ? { name } : {}), ...out.audit?.details };
    await recordAdminAction(c.actor, areaOfKind(kind) ?? 'settings', kind, target, Object.keys(details).length ? details : undefined);
  } catch (e) {
    log('warn', 'audit.trail_failed', { route: event.routeKey, error: String((e as Error)?.message ?? e) });
  }
}

/** What the middlewares hand to the use case, carried on the Lambda context. */
type Parsed = { raw: Buffer; claims?: Claims; params?: unknown; query?: unknown; body?: unknown; actor?: Actor; orgId?: string; guard?: ChatGuard };
type ChorusContext = Context & { chorus: Parsed };
type Mw = MiddlewareObj<Event, Result, Error, ChorusContext>;

/** Raw body bytes of an API Gateway v2 event (base64-decoded when flagged). */
export function rawBodyOf(event: Event): Buffer {
  if (event.body == null) return Buffer.alloc(0);
  return event.isBase64Encoded ? Buffer.from(event.body, 'base64') : Buffer.from(event.body, 'utf8');
}

export function json(status: number, body: unknown): Result {
  return { statusCode: status, headers: { 'content-type': 'application/json; charset=utf-8', 'cache-control': 'no-store' }, body: JSON.stringify(body) };
}

/** middy's early timeout (the Lambda's / local gateway's time is almost up): its TimeoutError. */
const isHandlerTimeout = (e: unknown): boolean => e instanceof Error && e.name === 'TimeoutError' && (e.cause as { package?: string } | undefined)?.package === '@middy/core';

export function errorResponse(e: unknown): Result {
  if (isAppError(e)) return json(e.status, { error: { code: e.code, message: e.message, details: e.details } });
  if (isHandlerTimeout(e)) {
    // a request that ran out of time is the server's temporary trouble, not an unknown error (issue 16:
    // a 10,000-chat broadcast create answered 500); it may still have been done, so the client looks first
    log('error', 'http.timeout', { error: String((e as Error).message) });
    return json(503, { error: { code: 'request.timeout', message: 'This took too long and was stopped. It may still have been done: look before you try again.' } });
  }
  log('error', 'http.unhandled', { error: String((e as Error)?.stack ?? e) });
  return json(500, { error: { code: 'internal', message: 'Something went wrong on our side. Please try again.' } });
}

const validationError = (details: Array<{ field: string; reason: string }>) =>
  new AppError('validation.failed', details.map((d) => `${d.field}: ${d.reason}`).join('; '), { status: 400, details });

/** Renders any error as the API's error body (number chat ids in it sealed for a masked viewer). */
export const errorHandler = (): Mw => ({
  name: 'error-handler',
  onError: async (request) => {
    const res = errorResponse(request.error);
    const c = request.context.chorus as Parsed | undefined;
    request.response = c?.guard?.masks && c.actor && typeof res === 'object' && typeof res.body === 'string' ? { ...res, body: sealChatIdsIn(c.actor.org_id, res.body) } : res;
  },
});

/**
 * The answer's body as the caller may see it: a member of an org that masks numbers gets every
 * number chat id (`<digits>@c.us`) sealed (issue 41 §5, shared/chat/chat-id-seal.ts), at the one
 * place every JSON and file answer passes.
 */
const sealedFor = <T>(c: Parsed, body: T): T => (c.guard?.masks && c.actor ? sealChatIdsIn(c.actor.org_id, body) : body);

/** Refuses bodies over `maxBytes` with 413 before anything is parsed. */
export const bodyLimit = (maxBytes: number): Mw => ({
  name: 'body-limit',
  before: async (request) => {
    const raw = rawBodyOf(request.event);
    if (raw.length > maxBytes) throw new AppError('request.too_large', `The request body is larger than ${maxBytes} bytes (1 MiB).`, { status: 413 });
    request.context.chorus = { raw };
  },
});

/**
 * Reads the claims API Gateway's JWT authorizer verified (the local gateway does the same), with the
 * email bound to the token's `sub` (shared/auth/identity.ts); 401 for an unverified email.
 */
export const jwtClaims = (): Mw => ({
  name: 'jwt-claims',
  before: async (request) => {
    const claims = (request.event.requestContext as { authorizer?: { jwt?: { claims?: Record<string, unknown> } } }).authorizer?.jwt?.claims;
    if (!claims) throw new AppError('auth.missing_token', 'Sign in to continue.', { status: 401 });
    // the account's own email (bound to its Cognito sub), not whatever the email claim says now
    request.context.chorus.claims = await resolveIdentity(claimsFrom(claims));
  },
});

/** The use of the request's route (functions/routes.ts `use`; by routeKey, else by method). */
export function useOfEvent(event: Pick<Event, 'routeKey' | 'requestContext'>): Use {
  const declared = event.routeKey ? ROUTE_USES.get(event.routeKey) : undefined;
  if (declared) return declared;
  const method = (event.routeKey?.split(' ')[0] ?? event.requestContext?.http?.method ?? 'GET').toUpperCase();
  return routeUse({ method: method as 'GET' });
}

/** decodeURIComponent, or the input as is when it is not valid percent-encoding (a path parameter). */
export const decodeSafe = (v: string): string => {
  try {
    return decodeURIComponent(v);
  } catch {
    return v;
  }
};

/**
 * The one entitlement gate of the web API (issue 42): the org's plan and subscription must allow the
 * route's use (shared/plan/entitlements.rules.ts `entitlement`, the org's plan state cached 5 s and
 * forgotten by a billing event in this process). Runs before validation, so a blocked org is told
 * why whatever it sent; a refusal is given only to members of the org (membership is checked first:
 * anyone else gets the 404 of a missing org). Routes without an `{org_id}` are not gated.
 * @throws AppError 402 subscription_ended | trial_ended; 403 plan_feature; 404 organization.not_found
 */
export const entitlementGate = (): Mw => ({
  name: 'entitlement-gate',
  before: async (request) => {
    const raw = request.event.pathParameters?.org_id;
    if (!raw) return;
    const use = useOfEvent(request.event);
    if (use === 'open' || use === 'read') return;
    const orgId = decodeSafe(raw);
    const d = await orgEntitlement(orgId, use);
    if (d.allowed) return;
    await resolveActor(request.context.chorus.claims!, orgId);
    throw entitlementError(d);
  },
});

/** Validates path parameters, query and JSON body with zod; all problems in one 400. */
export const validateInput = (spec: { params?: ZodTypeAny; query?: ZodTypeAny; body?: ZodTypeAny }): Mw => ({
  name: 'validate-input',
  before: async (request) => {
    const c = request.context.chorus;
    const details: Array<{ field: string; reason: string }> = [];
    const check = (where: 'params' | 'query' | 'body', schema: ZodTypeAny | undefined, value: unknown) => {
      if (!schema) return undefined;
      const r = schema.safeParse(value);
      if (r.success) return r.data;
      details.push(...r.error.issues.map((i) => ({ field: [where === 'body' ? '' : where, ...i.path].filter((x) => x !== '').join('.') || where, reason: i.message })));
      return undefined;
    };
    const params: Record<string, string | undefined> = {};
    for (const [k, v] of Object.entries(request.event.pathParameters ?? {})) {
      try {
        params[k] = v == null ? v : decodeURIComponent(v);
      } catch {
        details.push({ field: `params.${k}`, reason: 'is not valid percent-encoding' });
      }
    }
    if (details.length) throw validationError(details);
    c.orgId = params.org_id;
    // chat ids a masked member was given sealed (issue 41 §5) name the stored chat again, wherever the request names them
    const open = <T>(v: T): T => (c.orgId ? openChatIdsIn(c.orgId, v) : v);
    Object.assign(params, open(params));
    addLogContext({ org_id: c.orgId });
    c.params = check('params', spec.params, params);
    c.query = check('query', spec.query, open(request.event.queryStringParameters ?? {}));
    if (spec.body) {
      let value: unknown;
      try {
        value = c.raw.length ? JSON.parse(c.raw.toString('utf8')) : undefined;
      } catch {
        throw validationError([{ field: 'body', reason: 'must be valid JSON' }]);
      }
      if (value === null || typeof value !== 'object' || Array.isArray(value)) throw validationError([{ field: 'body', reason: 'must be a JSON object' }]);
      c.body = check('body', spec.body, open(value));
    }
    if (details.length) throw validationError(details);
  },
});

/** Resolves the caller's membership and role in `{org_id}` (spec §6); another org is a 404. */
export const orgActor = (): Mw => ({
  name: 'org-actor',
  before: async (request) => {
    const c = request.context.chorus;
    if (c.orgId) c.actor = await resolveActor(c.claims!, c.orgId);
  },
});

/**
 * Where a request names chats, described once: these keys, at any depth of the parsed path
 * parameters, query and body (up to 4 levels), hold chat ids. A task's link (`associated_object_metadata`
 * of type 'chat') names its chat by `id`. Every id found is checked by the guard exactly as a path
 * `{chat_id}`, so no handler checks by hand and a new route cannot forget it.
 */
export const CHAT_REF_KEYS = z.enum(['chat_id', 'chat_ids', 'quoted_chat_id']);
const ChatRefValue = z.union([z.string().min(1), z.array(z.string().min(1))]);
const ChatLink = z.object({ type: z.literal('chat'), id: z.string().min(1) });

/** Every chat id named in `value` (see CHAT_REF_KEYS); `skip` leaves out keys of the top level. */
export function chatRefsOf(value: unknown, skip: ReadonlySet<string> = new Set(), depth = 0, out: Set<string> = new Set()): Set<string> {
  if (!value || typeof value !== 'object' || depth > 4) return out;
  if (Array.isArray(value)) {
    for (const v of value) chatRefsOf(v, new Set(), depth + 1, out);
    return out;
  }
  const link = ChatLink.safeParse(value);
  if (link.success) out.add(link.data.id);
  for (const [k, v] of Object.entries(value)) {
    if (depth === 0 && skip.has(k)) continue;
    if (CHAT_REF_KEYS.safeParse(k).success) {
      const ids = ChatRefValue.safeParse(v);
      if (ids.success) for (const id of [ids.data].flat()) out.add(id);
    } else chatRefsOf(v, new Set(), depth + 1, out);
  }
  return out;
}

/**
 * Per-chat access (spec §6) of every chat the request names: a member the chat's chat_access does
 * not list gets 403 'You do not have access to this chat' before the handler runs, for a path
 * `{chat_id}` and for chat ids in the query or body alike (CHAT_REF_KEYS). A missing chat is left
 * to the use case (its own 404). Admins see every chat, so no read is made for them.
 * @param perChat body keys whose chat ids the use case refuses one by one instead (batch routes
 *   answering `failed: [{ chat_id, reason }]` through the same guard)
 */
export const chatAccess = (perChat: readonly string[] = []): Mw => ({
  name: 'chat-access',
  before: async (request) => {
    const c = request.context.chorus;
    if (!c.actor) return;
    c.guard = await chatGuard(c.actor);
    if (c.guard.seesAll) return;
    const ids = chatRefsOf(c.params);
    chatRefsOf(c.query, new Set(), 0, ids);
    chatRefsOf(c.body, new Set(perChat), 0, ids);
    if (ids.size) await c.guard.assertChats(ids);
  },
});

/**
 * Runs an HTTP handler inside a log context carrying the API Gateway request id (and, once the
 * path is parsed, the org_id), so every log line of the request can be found together; works the
 * same in Lambda and in the local runtime (concurrent requests keep their own ids).
 */
export function withRequestLog<C>(h: (event: Event, context: C) => Promise<Result>) {
  return (event: Event, context: C): Promise<Result> =>
    withLogContext({ request_id: event.requestContext?.requestId, route: event.routeKey }, () => h(event, context));
}

/** A plain (unauthenticated) HTTP handler with the same observability: request log context, and Powertools in Lambda. */
export function observed(fn: (event: Event, context: Context) => Promise<Result>) {
  return withRequestLog(middy<Event, Result, Error, Context>(fn).use(observability()));
}

/** The middlewares every authenticated handler runs, in order (JSON and file answers alike). */
type Spec = { params?: ZodTypeAny; query?: ZodTypeAny; body?: ZodTypeAny; perChat?: readonly string[] };
const authenticated = (spec: Spec) =>
  middy<Event, Result, Error, ChorusContext>()
    .use(observability())
    .use(errorHandler())
    .use(bodyLimit(MAX_BODY_BYTES))
    .use(jwtClaims())
    .use(entitlementGate())
    .use(validateInput(spec))
    .use(orgActor())
    .use(chatAccess(spec.perChat));

const contextOf = <P, Q, B>(event: Event, c: Parsed): HttpContext<P, Q, B> =>
  ({ event, params: c.params, query: c.query, body: c.body, claims: c.claims!, actor: c.actor!, guard: c.guard! }) as HttpContext<P, Q, B>;

/**
 * Build an authenticated JSON handler.
 * @param spec.params/query/body zod schemas; failures are 400 with `details: [{ field, reason }]`
 * @param spec.perChat body keys of chat ids the use case refuses per chat (see chatAccess)
 */
export function httpHandler<PS extends ZodTypeAny | undefined = undefined, QS extends ZodTypeAny | undefined = undefined, BS extends ZodTypeAny | undefined = undefined>(
  spec: { params?: PS; query?: QS; body?: BS; perChat?: readonly string[] },
  fn: (ctx: HttpContext<Infer<PS>, Infer<QS>, Infer<BS>>) => Promise<HttpResult>,
) {
  return withRequestLog(
    authenticated(spec).handler(async (event, context) => {
      const out = await fn(contextOf(event, context.chorus));
      await auditTrail(event, context.chorus, out);
      return json(out.status ?? 200, sealedFor(context.chorus, out.body));
    }),
  );
}

/** A text file answer: its type, download name and text (whole, or chunk by chunk, e.g. CSV page by page). */
export interface FileResult {
  /** e.g. 'text/csv; charset=utf-8' */
  contentType: string;
  /** the download name (Content-Disposition: attachment) */
  filename: string;
  body: string | AsyncIterable<string>;
}

/**
 * Build an authenticated handler that answers a text file instead of JSON (same middlewares, same
 * JSON error bodies, also for an error thrown while the chunks are produced). API Gateway's Lambda
 * integration takes one body of at most 6 MB, so the chunks are joined and, when the client accepts
 * gzip, compressed (CSV shrinks about tenfold), which keeps large exports within the limit.
 */
export function httpFileHandler<PS extends ZodTypeAny | undefined = undefined, QS extends ZodTypeAny | undefined = undefined>(
  spec: { params?: PS; query?: QS },
  fn: (ctx: HttpContext<Infer<PS>, Infer<QS>, undefined>) => Promise<FileResult>,
) {
  const handler = authenticated(spec).handler(async (event, context) => {
    const out = await fn(contextOf(event, context.chorus));
    let text = '';
    if (typeof out.body === 'string') text = out.body;
    else for await (const chunk of out.body) text += chunk;
    text = sealedFor(context.chorus, text);
    const headers: Record<string, string> = {
      'content-type': out.contentType,
      'content-disposition': `attachment; filename="${out.filename.replace(/["\\\r\n]/g, '_')}"`,
      'cache-control': 'no-store',
      vary: 'accept-encoding',
    };
    if (/\bgzip\b/i.test(event.headers?.['accept-encoding'] ?? '')) {
      return { statusCode: 200, headers: { ...headers, 'content-encoding': 'gzip' }, isBase64Encoded: true, body: gzipSync(text).toString('base64') };
    }
    return { statusCode: 200, headers, body: text };
  });
  return withRequestLog(handler);
}
