import { createLocalJWKSet, createRemoteJWKSet, jwtVerify, type JSONWebKeySet, type JWTPayload } from 'jose';
import { config } from '../config.ts';
import { AppError } from '../errors.ts';

/**
 * Cognito ID token verification against the pool's JWKS (jose). Used where API Gateway does not
 * verify for us: the WebSocket `$connect` handler, and the local gateway standing in for the
 * HTTP API's JWT authorizer. Issuer, JWKS URL and audience (app client id) come from config.
 */
export interface Claims {
  /** Cognito user id */
  sub: string;
  /** lower-cased email */
  email: string;
  /** when this sign-in happened (the token's `auth_time`), epoch **s**; kept across refreshes */
  auth_time?: number;
}

let jwks: ReturnType<typeof createRemoteJWKSet> | ReturnType<typeof createLocalJWKSet> | undefined;
let jwksSource: string | undefined;

/** The pool's keys: the inline COGNITO_JWKS (local runtime) or the JWKS URL (AWS), cached per source. */
function keys() {
  const { COGNITO_ISSUER, COGNITO_JWKS_URL, COGNITO_JWKS } = config();
  const source = COGNITO_JWKS || COGNITO_JWKS_URL || `${COGNITO_ISSUER}/.well-known/jwks.json`;
  if (!jwks || jwksSource !== source) {
    jwks = COGNITO_JWKS ? createLocalJWKSet(JSON.parse(COGNITO_JWKS) as JSONWebKeySet) : createRemoteJWKSet(new URL(source));
    jwksSource = source;
  }
  return jwks;
}

/**
 * Tokens whose signature was verified, by token, with their payload, until their `exp`: an RS256
 * check costs ~1 ms of CPU, paid once per token instead of once per request. The same token is
 * still refused once expired (checked on every hit), and the cache is per key source, so a key
 * change verifies again. Bounded (oldest dropped first). Cognito ID tokens cannot be revoked
 * before `exp` anyway (API Gateway's JWT authorizer checks the same signature and expiry).
 */
const verified = new Map<string, { payload: JWTPayload; exp_ms: number; source: string }>();
const VERIFIED_MAX = 2000;

/**
 * @throws AppError 401 auth.invalid_token when the token is missing, expired, not an ID token,
 *   or not signed by the pool
 */
export async function verifyIdToken(token: string | undefined): Promise<Claims> {
  if (!token) throw new AppError('auth.missing_token', 'Sign in to continue.', { status: 401 });
  const { COGNITO_ISSUER, COGNITO_CLIENT_ID } = config();
  const k = keys();
  const hit = verified.get(token);
  if (hit && hit.source === jwksSource && hit.exp_ms > Date.now()) return claimsFrom(hit.payload as Record<string, unknown>);
  let payload: JWTPayload;
  try {
    ({ payload } = await jwtVerify(token, k, { issuer: COGNITO_ISSUER, audience: COGNITO_CLIENT_ID || undefined }));
  } catch (e) {
    verified.delete(token);
    const expired = (e as { code?: string }).code === 'ERR_JWT_EXPIRED';
    throw new AppError('auth.invalid_token', expired ? 'Session expired! Please login again' : 'Sign in to continue.', { status: 401 });
  }
  if (typeof payload.exp === 'number') {
    if (verified.size >= VERIFIED_MAX) verified.delete(verified.keys().next().value!);
    verified.set(token, { payload, exp_ms: payload.exp * 1000, source: jwksSource! });
  }
  return claimsFrom(payload as Record<string, unknown>);
}

/**
 * Claims from an already verified token (API Gateway JWT authorizer context). The email must be
 * verified (`email_verified` true; the HTTP API's authorizer hands claims over as strings, so
 * 'true' too): an unverified address proves nothing about who signs in.
 * @throws AppError 401 auth.invalid_token when it is not an ID token with an email and a sub;
 *   401 auth.email_unverified when the email is not verified
 */
export function claimsFrom(payload: Record<string, unknown>): Claims {
  if (payload.token_use !== undefined && payload.token_use !== 'id') {
    throw new AppError('auth.invalid_token', 'Sign in to continue.', { status: 401 });
  }
  const email = typeof payload.email === 'string' ? payload.email.toLowerCase() : undefined;
  const sub = typeof payload.sub === 'string' ? payload.sub : undefined;
  if (!email || !sub) throw new AppError('auth.invalid_token', 'Sign in to continue.', { status: 401 });
  if (payload.email_verified !== true && payload.email_verified !== 'true')
    throw new AppError('auth.email_unverified', 'Verify your email address, then sign in again.', { status: 401 });
  // the HTTP API's JWT authorizer hands claims over as strings
  const authTime = Number(payload.auth_time);
  return Number.isFinite(authTime) && authTime > 0 ? { sub, email, auth_time: authTime } : { sub, email };
}
