import { randomBytes, randomUUID } from 'node:crypto';
import { createRequire } from 'node:module';
import { importJWK, jwtVerify, SignJWT, decodeJwt, type JWK } from 'jose';
import { AdminGetUserCommand, DescribeUserPoolClientCommand, InitiateAuthCommand, type CognitoIdentityProviderClient, type UserPoolClientType } from '@aws-sdk/client-cognito-identity-provider';
import { AUTH_TRIGGERS, type AuthTrigger } from '../../functions/auth-triggers.ts';
import { loadHandler } from './handlers.ts';
import type { TokenSigningKey } from './secrets.ts';

/**
 * The part of Cognito that cognito-local lacks for email code sign-in: the custom auth flow.
 * Sits in front of cognito-local in the gateway's `/cognito` proxy and answers
 *   - `InitiateAuth` with AuthFlow `CUSTOM_AUTH` (Amplify `signIn` with `CUSTOM_WITHOUT_SRP`),
 *   - `RespondToAuthChallenge` with ChallengeName `CUSTOM_CHALLENGE` (Amplify `confirmSignIn`),
 *   - `InitiateAuth` `REFRESH_TOKEN_AUTH` for refresh tokens it issued itself;
 *   - `GetTokensFromRefreshToken` (what Amplify 6.22 calls to refresh; cognito-local answers it
 *     with 500 'Unsupported'): its own refresh tokens as above, cognito-local's through
 *     cognito-local's `InitiateAuth` `REFRESH_TOKEN_AUTH`;
 * everything else goes on to cognito-local unchanged.
 *
 * It runs the SAME trigger handlers as the user pool in AWS (functions/auth-triggers.ts), with the
 * events Cognito builds (DefineAuthChallenge -> CreateAuthChallenge -> VerifyAuthChallengeResponse
 * -> DefineAuthChallenge ...), and the same error shapes: a trigger that throws becomes
 * `UserLambdaValidationException` '<Trigger> failed with error <message>.', a failed
 * authentication `NotAuthorizedException`. Like the AWS web client (PreventUserExistenceErrors
 * ENABLED), an unknown user runs the triggers with `userNotFound: true`.
 *
 * ID tokens are signed with the data dir's own key (scripts/local/secrets.ts `tokenSigningKey`,
 * published to the API as COGNITO_JWKS), never with cognito-local's: its private key ships in
 * node_modules, so anyone could mint tokens with it. That holds for every flow: tokens this stand-in
 * issues itself (custom auth, its refresh), and tokens cognito-local issued for the calls the gateway
 * proxies (USER_PASSWORD_AUTH, its refresh): {@link CustomAuthStandIn.reissue} re-signs their ID
 * token, with `email_verified` read from the user (cognito-local writes `Boolean('false') === true`).
 * Issuer `<LOCAL_ISSUER_DOMAIN>/<poolId>`, the same claims and the client's token validity.
 * Access tokens stay signed with cognito-local's key: only cognito-local's own targets
 * (ChangePassword, GetUser) take them, and they verify with that key; the API refuses them (it takes
 * ID tokens only). Refresh tokens of this stand-in carry `chorus:custom_auth` and are signed with
 * the data dir key, which is how it recognises them (cognito-local keeps its refresh tokens in memory
 * and would not know them). Auth sessions live in memory for the client's AuthSessionValidity
 * (10 minutes, as the CDK web client) and are single use.
 */
export interface CustomAuthStandInOptions {
  client: CognitoIdentityProviderClient;
  userPoolId: string;
  /** `<LOCAL_ISSUER_DOMAIN>/<poolId>` */
  issuer: string;
  region: string;
  /** the data dir's ID token key (scripts/local/secrets.ts) */
  signingKey: TokenSigningKey;
  /**
   * auth session lifetime (minutes) when the client does not report AuthSessionValidity
   * (cognito-local does not keep that setting); the runtime passes the CDK web client's 10
   */
  authSessionValidityMin?: number;
}

interface AuthSession {
  username: string;
  clientId: string;
  userAttributes: Record<string, string>;
  userNotFound: boolean;
  results: Array<{ challengeName: string; challengeResult: boolean; challengeMetadata?: string }>;
  privateChallengeParameters: Record<string, string>;
  challengeMetadata?: string;
  clientMetadata?: Record<string, string>;
  expiresAt: number;
}

/** A Cognito API error, rendered as cognito-local renders its own (400 `{ __type, message }`). */
class CognitoApiError extends Error {
  constructor(
    readonly type: string,
    message: string,
  ) {
    super(message);
  }
}

export interface StandInAnswer {
  status: number;
  body: unknown;
}

const TRIGGER_TITLE: Record<AuthTrigger, string> = {
  defineAuthChallenge: 'DefineAuthChallenge',
  createAuthChallenge: 'CreateAuthChallenge',
  verifyAuthChallengeResponse: 'VerifyAuthChallengeResponse',
};

const SECONDS: Record<string, number> = { seconds: 1, minutes: 60, hours: 3600, days: 86400 };

/** cognito-local's signing key (node_modules/cognito-local/lib/keys), the one its JWKS publishes. */
function cognitoLocalKey(): { jwk: JWK } {
  const require = createRequire(import.meta.url);
  return require('cognito-local/lib/keys/cognitoLocal.private.json') as { jwk: JWK };
}

export class CustomAuthStandIn {
  private sessions = new Map<string, AuthSession>();
  private clients = new Map<string, UserPoolClientType>();
  private keyPromise?: Promise<CryptoKey | Uint8Array>;
  private publicKeyPromise?: Promise<CryptoKey | Uint8Array>;
  private accessKeyPromise?: Promise<CryptoKey | Uint8Array>;

  constructor(private readonly opts: CustomAuthStandInOptions) {}

  /**
   * Answer a Cognito API call this stand-in owns; undefined = not ours, proxy it to cognito-local.
   * @param target the operation of the `x-amz-target` header, e.g. `InitiateAuth`
   */
  async handle(target: string, body: Buffer): Promise<StandInAnswer | undefined> {
    let req: Record<string, unknown>;
    try {
      req = JSON.parse(body.toString('utf8') || '{}');
    } catch {
      return undefined;
    }
    try {
      if (target === 'InitiateAuth' && req.AuthFlow === 'CUSTOM_AUTH') return { status: 200, body: await this.initiate(req) };
      if (target === 'RespondToAuthChallenge' && req.ChallengeName === 'CUSTOM_CHALLENGE') return { status: 200, body: await this.respond(req) };
      if (target === 'InitiateAuth' && (req.AuthFlow === 'REFRESH_TOKEN_AUTH' || req.AuthFlow === 'REFRESH_TOKEN')) {
        const token = (req.AuthParameters as Record<string, string> | undefined)?.REFRESH_TOKEN;
        if (!token || !this.isOurs(token)) return undefined;
        return { status: 200, body: await this.refresh(req, token) };
      }
      if (target === 'GetTokensFromRefreshToken') {
        const token = typeof req.RefreshToken === 'string' ? req.RefreshToken : '';
        if (!token) throw new CognitoApiError('InvalidParameterException', 'Missing required parameter RefreshToken');
        const out = this.isOurs(token) ? ((await this.refresh(req, token)) as { AuthenticationResult: unknown }) : await this.refreshWithCognitoLocal(req, token);
        return { status: 200, body: { AuthenticationResult: out.AuthenticationResult } };
      }
      return undefined;
    } catch (e) {
      if (e instanceof CognitoApiError) return { status: 400, body: { __type: e.type, message: e.message } };
      throw e;
    }
  }

  private async appClient(clientId: unknown): Promise<UserPoolClientType> {
    if (typeof clientId !== 'string' || !clientId) throw new CognitoApiError('InvalidParameterException', 'Missing required parameter ClientId');
    const hit = this.clients.get(clientId);
    if (hit) return hit;
    try {
      const out = await this.opts.client.send(new DescribeUserPoolClientCommand({ UserPoolId: this.opts.userPoolId, ClientId: clientId }));
      this.clients.set(clientId, out.UserPoolClient!);
      return out.UserPoolClient!;
    } catch {
      throw new CognitoApiError('ResourceNotFoundException', `User pool client ${clientId} does not exist.`);
    }
  }

  private async user(username: string): Promise<{ username: string; attributes: Record<string, string> } | null> {
    try {
      const u = await this.opts.client.send(new AdminGetUserCommand({ UserPoolId: this.opts.userPoolId, Username: username }));
      const attributes = Object.fromEntries((u.UserAttributes ?? []).map((a) => [a.Name!, a.Value ?? '']));
      if (u.Enabled === false) throw new CognitoApiError('NotAuthorizedException', 'User is disabled.');
      return { username: u.Username!, attributes: { ...attributes, 'cognito:user_status': u.UserStatus ?? 'CONFIRMED' } };
    } catch (e) {
      if (e instanceof CognitoApiError) throw e;
      if ((e as { name?: string }).name === 'UserNotFoundException') return null;
      throw e;
    }
  }

  /** Run one trigger handler with Cognito's event shape; a throw becomes UserLambdaValidationException. */
  private async trigger<T extends { response: unknown }>(name: AuthTrigger, s: AuthSession, request: Record<string, unknown>, response: Record<string, unknown>): Promise<T['response']> {
    const source = `${TRIGGER_TITLE[name]}_Authentication`;
    const event = {
      version: '1',
      region: this.opts.region,
      userPoolId: this.opts.userPoolId,
      userName: s.username,
      callerContext: { awsSdkVersion: 'aws-sdk-unknown-unknown', clientId: s.clientId },
      triggerSource: source,
      request: { userAttributes: s.userAttributes, ...(s.clientMetadata ? { clientMetadata: s.clientMetadata } : {}), ...request, userNotFound: s.userNotFound },
      response,
    };
    const fn = await loadHandler<(e: unknown) => Promise<T>>(AUTH_TRIGGERS[name]);
    try {
      const out = await fn(structuredClone(event));
      return out.response;
    } catch (e) {
      throw new CognitoApiError('UserLambdaValidationException', `${TRIGGER_TITLE[name]} failed with error ${(e as Error)?.message ?? String(e)}.`);
    }
  }

  /** DefineAuthChallenge, then CreateAuthChallenge when it asks for another challenge. */
  private async nextStep(s: AuthSession, client: UserPoolClientType): Promise<unknown> {
    const session = s.results.map((r) => ({ ...r }));
    const define = await this.trigger<{ response: { challengeName?: string; issueTokens?: boolean; failAuthentication?: boolean } }>('defineAuthChallenge', s, { session }, {
      challengeName: null,
      issueTokens: null,
      failAuthentication: null,
    });
    if (define.failAuthentication || (!define.issueTokens && define.challengeName !== 'CUSTOM_CHALLENGE')) throw new CognitoApiError('NotAuthorizedException', 'Incorrect username or password.');
    if (define.issueTokens) {
      if (s.userNotFound) throw new CognitoApiError('NotAuthorizedException', 'Incorrect username or password.');
      return { ChallengeParameters: {}, AuthenticationResult: await this.tokens(s.username, s.userAttributes, client, true) };
    }
    const created = await this.trigger<{
      response: { publicChallengeParameters?: Record<string, string>; privateChallengeParameters?: Record<string, string>; challengeMetadata?: string };
    }>('createAuthChallenge', s, { challengeName: 'CUSTOM_CHALLENGE', session }, { publicChallengeParameters: null, privateChallengeParameters: null, challengeMetadata: null });
    s.privateChallengeParameters = created.privateChallengeParameters ?? {};
    s.challengeMetadata = created.challengeMetadata ?? undefined;
    const id = randomBytes(48).toString('base64url');
    const validityMin = client.AuthSessionValidity ?? this.opts.authSessionValidityMin ?? 3;
    s.expiresAt = Date.now() + validityMin * 60_000;
    this.prune();
    this.sessions.set(id, s);
    return { ChallengeName: 'CUSTOM_CHALLENGE', Session: id, ChallengeParameters: { ...(created.publicChallengeParameters ?? {}), USERNAME: s.username } };
  }

  private prune() {
    const now = Date.now();
    for (const [id, s] of this.sessions) if (s.expiresAt <= now) this.sessions.delete(id);
  }

  private async initiate(req: Record<string, unknown>): Promise<unknown> {
    const client = await this.appClient(req.ClientId);
    if (!(client.ExplicitAuthFlows ?? []).includes('ALLOW_CUSTOM_AUTH')) throw new CognitoApiError('InvalidParameterException', 'CUSTOM_AUTH flow not enabled for this client');
    const username = String((req.AuthParameters as Record<string, string> | undefined)?.USERNAME ?? '').trim();
    if (!username) throw new CognitoApiError('InvalidParameterException', 'Missing required parameter USERNAME');
    const found = await this.user(username);
    const s: AuthSession = {
      username: found?.username ?? username,
      clientId: client.ClientId!,
      userAttributes: found?.attributes ?? {},
      userNotFound: !found,
      results: [],
      privateChallengeParameters: {},
      clientMetadata: req.ClientMetadata as Record<string, string> | undefined,
      expiresAt: 0,
    };
    return this.nextStep(s, client);
  }

  private async respond(req: Record<string, unknown>): Promise<unknown> {
    const client = await this.appClient(req.ClientId);
    const id = typeof req.Session === 'string' ? req.Session : '';
    const s = this.sessions.get(id);
    this.sessions.delete(id); // a session answers once
    if (!s || s.expiresAt <= Date.now() || s.clientId !== client.ClientId) throw new CognitoApiError('NotAuthorizedException', 'Invalid session for the user, session is expired.');
    const responses = (req.ChallengeResponses as Record<string, string> | undefined) ?? {};
    if (responses.ANSWER === undefined) throw new CognitoApiError('InvalidParameterException', 'Missing required parameter ANSWER');
    if (req.ClientMetadata) s.clientMetadata = req.ClientMetadata as Record<string, string>;
    const verify = await this.trigger<{ response: { answerCorrect?: boolean } }>(
      'verifyAuthChallengeResponse',
      s,
      { privateChallengeParameters: s.privateChallengeParameters, challengeAnswer: responses.ANSWER },
      { answerCorrect: null },
    );
    s.results.push({ challengeName: 'CUSTOM_CHALLENGE', challengeResult: verify.answerCorrect === true, ...(s.challengeMetadata ? { challengeMetadata: s.challengeMetadata } : {}) });
    return this.nextStep(s, client);
  }

  private async refresh(req: Record<string, unknown>, token: string): Promise<unknown> {
    const client = await this.appClient(req.ClientId);
    let username: string;
    try {
      const { payload } = await jwtVerify(token, await this.publicKey(), { issuer: this.opts.issuer });
      username = String(payload['cognito:username']);
    } catch {
      throw new CognitoApiError('NotAuthorizedException', 'Invalid Refresh Token');
    }
    const found = await this.user(username);
    if (!found) throw new CognitoApiError('NotAuthorizedException', 'Invalid Refresh Token');
    return { ChallengeParameters: {}, AuthenticationResult: await this.tokens(found.username, found.attributes, client, false) };
  }

  /** cognito-local's own refresh token, through the flow it does support (InitiateAuth REFRESH_TOKEN_AUTH). */
  private async refreshWithCognitoLocal(req: Record<string, unknown>, token: string): Promise<{ AuthenticationResult: unknown }> {
    let out;
    try {
      out = await this.opts.client.send(new InitiateAuthCommand({ AuthFlow: 'REFRESH_TOKEN_AUTH', ClientId: String(req.ClientId ?? ''), AuthParameters: { REFRESH_TOKEN: token } }));
    } catch (e) {
      const name = (e as { name?: string }).name ?? 'NotAuthorizedException';
      throw new CognitoApiError(name === 'Error' ? 'NotAuthorizedException' : name, (e as Error).message || 'Invalid Refresh Token');
    }
    return { AuthenticationResult: await this.reissue(out.AuthenticationResult ?? {}) };
  }

  private isOurs(token: string): boolean {
    try {
      return decodeJwt(token)['chorus:custom_auth'] === true;
    } catch {
      return false;
    }
  }

  /** the data dir's private key: ID and refresh tokens */
  private key() {
    this.keyPromise ??= importJWK(this.opts.signingKey.privateJwk, 'RS256') as Promise<CryptoKey | Uint8Array>;
    return this.keyPromise;
  }

  private publicKey() {
    this.publicKeyPromise ??= importJWK(this.opts.signingKey.publicJwk, 'RS256') as Promise<CryptoKey | Uint8Array>;
    return this.publicKeyPromise;
  }

  /** cognito-local's key: access tokens only, which cognito-local's own targets verify */
  private accessKey() {
    this.accessKeyPromise ??= importJWK(cognitoLocalKey().jwk, 'RS256') as Promise<CryptoKey | Uint8Array>;
    return this.accessKeyPromise;
  }

  /**
   * Re-sign the ID token of a result cognito-local produced (password sign-in, its refresh) with the
   * data dir's key; the other tokens pass unchanged. The claims stay cognito-local's, except
   * `email_verified`, read from the user's attribute. A result without an ID token is returned as is.
   */
  async reissue<T extends { IdToken?: string }>(result: T): Promise<T> {
    if (!result.IdToken) return result;
    const claims = decodeJwt(result.IdToken);
    const found = await this.user(String(claims['cognito:username'] ?? claims.sub ?? ''));
    if (!found) throw new CognitoApiError('NotAuthorizedException', 'Incorrect username or password.');
    const { iss: _iss, ...rest } = claims;
    const IdToken = await new SignJWT({ ...rest, email_verified: found.attributes.email_verified === 'true' })
      .setProtectedHeader({ alg: 'RS256', kid: this.opts.signingKey.kid, typ: 'JWT' })
      .setIssuer(this.opts.issuer)
      .sign(await this.key());
    return { ...result, IdToken };
  }

  /** ID, access (and on sign-in refresh) tokens with cognito-local's claims and validity (keys: see the class comment). */
  private async tokens(username: string, attrs: Record<string, string>, client: UserPoolClientType, withRefresh: boolean) {
    const [key, accessKey] = await Promise.all([this.key(), this.accessKey()]);
    const now = Math.floor(Date.now() / 1000);
    const units = client.TokenValidityUnits ?? {};
    const ttl = (value: number | undefined, unit: string | undefined, fallbackS: number) => (value === undefined ? fallbackS : value * (SECONDS[unit ?? ''] ?? 1));
    const idTtl = ttl(client.IdTokenValidity, units.IdToken ?? 'hours', 24 * 3600);
    const accessTtl = ttl(client.AccessTokenValidity, units.AccessToken ?? 'hours', 24 * 3600);
    const refreshTtl = ttl(client.RefreshTokenValidity, units.RefreshToken ?? 'days', 7 * 86400);
    const eventId = randomUUID();
    const custom = Object.fromEntries(Object.entries(attrs).filter(([k]) => k.startsWith('custom:')));
    const sign = (claims: Record<string, unknown>, expS: number, audience?: string, asCognitoLocal = false) => {
      const kid = asCognitoLocal ? 'CognitoLocal' : this.opts.signingKey.kid;
      const jwt = new SignJWT(claims).setProtectedHeader({ alg: 'RS256', kid, typ: 'JWT' }).setIssuer(this.opts.issuer).setIssuedAt(now).setExpirationTime(now + expS);
      return (audience ? jwt.setAudience(audience) : jwt).sign(asCognitoLocal ? accessKey : key);
    };
    const IdToken = await sign(
      {
        'cognito:username': username,
        auth_time: now,
        email: attrs.email,
        email_verified: attrs.email_verified === 'true',
        event_id: eventId,
        jti: randomUUID(),
        sub: attrs.sub,
        token_use: 'id',
        ...custom,
      },
      idTtl,
      client.ClientId,
    );
    const AccessToken = await sign(
      { auth_time: now, client_id: client.ClientId, event_id: eventId, jti: randomUUID(), scope: 'aws.cognito.signin.user.admin', sub: attrs.sub, token_use: 'access', username },
      accessTtl,
      undefined,
      true,
    );
    const RefreshToken = withRefresh ? await sign({ 'cognito:username': username, email: attrs.email, jti: randomUUID(), 'chorus:custom_auth': true }, refreshTtl) : undefined;
    return { AccessToken, IdToken, ...(RefreshToken ? { RefreshToken } : {}), ExpiresIn: accessTtl, TokenType: 'Bearer' };
  }
}
