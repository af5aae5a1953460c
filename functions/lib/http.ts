import middy from '@middy/core';
import type { APIGatewayProxyEventV2, APIGatewayProxyResultV2 } from 'aws-lambda';
import { z, type ZodTypeAny } from 'zod';
import { AppError, isAppError } from '../../shared/errors.ts';
import { claimsFrom, type Claims } from '../../shared/auth/jwt.ts';
import { resolveActor, type Actor } from '../../shared/auth/actor.ts';
import { log } from '../../shared/log.ts';

/**
 * The one HTTP handler wrapper (middy): size limit -> JSON parse -> zod validation of path,
 * query and body -> actor resolution (JWT claims from API Gateway's authorizer + org membership)
 * -> the use case -> JSON response. Errors render as `{ error: { code, message, details } }`;
 * unknown errors are logged and become a 500 without internals.
 */
export const MAX_BODY_BYTES = 1024 * 1024;

type Infer<T> = T extends ZodTypeAny ? z.infer<T> : undefined;

export interface HttpContext<P, Q, B> {
  event: APIGatewayProxyEventV2;
  params: P;
  query: Q;
  body: B;
  claims: Claims;
  /** present when the route has an `{org_id}` path parameter */
  actor: Actor;
}

export interface HttpResult {
  status?: number;
  body: unknown;
}

const fieldIssues = (where: string, e: z.ZodError) =>
  e.issues.map((i) => ({ field: [where === 'body' ? '' : where, ...i.path].filter((x) => x !== '').join('.') || where, reason: i.message }));

function validationError(details: Array<{ field: string; reason: string }>): AppError {
  const msg = details.map((d) => `${d.field}: ${d.reason}`).join('; ');
  return new AppError('validation.failed', msg, { status: 400, details });
}

/** Raw body bytes of an API Gateway v2 event (base64-decoded when flagged). */
export function rawBodyOf(event: APIGatewayProxyEventV2): Buffer {
  if (event.body == null) return Buffer.alloc(0);
  return event.isBase64Encoded ? Buffer.from(event.body, 'base64') : Buffer.from(event.body, 'utf8');
}

export function json(status: number, body: unknown): APIGatewayProxyResultV2 {
  return { statusCode: status, headers: { 'content-type': 'application/json; charset=utf-8', 'cache-control': 'no-store' }, body: JSON.stringify(body) };
}

export function errorResponse(e: unknown): APIGatewayProxyResultV2 {
  if (isAppError(e)) return json(e.status, { error: { code: e.code, message: e.message, details: e.details } });
  log('error', 'http.unhandled', { error: String((e as Error)?.stack ?? e) });
  return json(500, { error: { code: 'internal', message: 'Something went wrong on our side. Please try again.' } });
}

/**
 * Build an authenticated JSON handler.
 * @param spec.params/query/body zod schemas; failures are 400 with `details: [{ field, reason }]`
 */
export function httpHandler<PS extends ZodTypeAny | undefined = undefined, QS extends ZodTypeAny | undefined = undefined, BS extends ZodTypeAny | undefined = undefined>(
  spec: { params?: PS; query?: QS; body?: BS },
  fn: (ctx: HttpContext<Infer<PS>, Infer<QS>, Infer<BS>>) => Promise<HttpResult>,
) {
  const base = async (event: APIGatewayProxyEventV2): Promise<APIGatewayProxyResultV2> => {
    try {
      const raw = rawBodyOf(event);
      if (raw.length > MAX_BODY_BYTES) {
        throw new AppError('request.too_large', `The request body is larger than ${MAX_BODY_BYTES} bytes (1 MiB).`, { status: 413 });
      }
      const claimsRaw = (event.requestContext as { authorizer?: { jwt?: { claims?: Record<string, unknown> } } }).authorizer?.jwt?.claims;
      if (!claimsRaw) throw new AppError('auth.missing_token', 'Sign in to continue.', { status: 401 });
      const claims = claimsFrom(claimsRaw);
      const decodedParams = Object.fromEntries(Object.entries(event.pathParameters ?? {}).map(([k, v]) => [k, v == null ? v : decodeURIComponent(v)]));
      const details: Array<{ field: string; reason: string }> = [];
      const parse = (where: string, schema: ZodTypeAny | undefined, value: unknown) => {
        if (!schema) return undefined;
        const r = schema.safeParse(value);
        if (!r.success) details.push(...fieldIssues(where, r.error));
        return r.success ? r.data : undefined;
      };
      const params = parse('params', spec.params, decodedParams);
      const query = parse('query', spec.query, event.queryStringParameters ?? {});
      let bodyValue: unknown = undefined;
      if (spec.body) {
        if (raw.length === 0) bodyValue = undefined;
        else {
          try {
            bodyValue = JSON.parse(raw.toString('utf8'));
          } catch {
            throw validationError([{ field: 'body', reason: 'must be valid JSON' }]);
          }
        }
        if (bodyValue === undefined || bodyValue === null || typeof bodyValue !== 'object' || Array.isArray(bodyValue)) {
          throw validationError([{ field: 'body', reason: 'must be a JSON object' }]);
        }
      }
      const body = parse('body', spec.body, bodyValue);
      if (details.length) throw validationError(details);
      const orgId = decodedParams.org_id;
      const actor = orgId ? await resolveActor(claims, orgId) : (undefined as unknown as Actor);
      const out = await fn({ event, params, query, body, claims, actor } as HttpContext<Infer<PS>, Infer<QS>, Infer<BS>>);
      return json(out.status ?? 200, out.body);
    } catch (e) {
      return errorResponse(e);
    }
  };
  return middy(base);
}
