import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { networkInterfaces } from 'node:os';
import { dirname, join } from 'node:path';
import { request, type IncomingMessage } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { decodeProtectedHeader, importJWK, SignJWT, type JWK } from 'jose';
import { startTestRuntime, type TestRuntime } from '../factories/runtime.ts';
import { isDevRoute, isDevRouteHost, isLocalRequest } from '../../scripts/local/gateway.ts';
import { db } from '../../shared/db/service.ts';

/**
 * The local runtime is safe to expose through a tunnel (issue 11 §6) and identity is the Cognito
 * account, not the email claim (§7):
 * - it listens on 127.0.0.1 only;
 * - the development routes answer this machine only: a request that came through a proxy or tunnel
 *   (forwarding headers) gets 404, while /webhooks/whatsapp still answers;
 * - ID tokens are signed with the data dir's key: a token minted with cognito-local's published
 *   private key is refused by the API (401) and by the WebSocket connect (401);
 * - the demo password is generated for the data dir;
 * - an unverified email is refused; a token whose email claim names another account's address
 *   does not act as that account.
 */
let rt: TestRuntime;
let base: string;
let dataDir: string;

/** What a tunnel (cloudflared, ngrok) adds to every request it forwards. */
const TUNNEL = { 'x-forwarded-for': '203.0.113.9', 'cf-connecting-ip': '203.0.113.9' };

/** A token with the claims the stand-in issues, signed with `jwk` under `kid`. */
async function mint(jwk: JWK, kid: string, claims: Record<string, unknown>): Promise<string> {
  const now = Math.floor(Date.now() / 1000);
  return new SignJWT({ token_use: 'id', auth_time: now, email_verified: true, ...claims })
    .setProtectedHeader({ alg: 'RS256', kid, typ: 'JWT' })
    .setIssuer(rt.env.COGNITO_ISSUER)
    .setAudience(rt.clientId)
    .setIssuedAt(now)
    .setExpirationTime(now + 3600)
    .sign(await importJWK(jwk, 'RS256'));
}

/** The data dir's own signing key (what a person with the data dir could use, nobody else). */
async function dataDirKey(): Promise<{ kid: string; jwk: JWK }> {
  return JSON.parse(await readFile(join(dataDir, 'id-token-key.json'), 'utf8')) as { kid: string; jwk: JWK };
}

function wsStatus(token: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(`ws://127.0.0.1:${rt.port}/ws?token=${encodeURIComponent(token)}&org_id=${encodeURIComponent(rt.orgId)}`);
    ws.on('open', () => {
      ws.close();
      resolve(101);
    });
    ws.on('unexpected-response', (_req, res) => resolve(res.statusCode ?? 0));
    ws.on('error', reject);
  });
}

/** A request from this machine with the Host header a DNS-rebinding page would send (fetch always sends the URL's). */
function withHost(method: string, path: string, host: string, body?: string): Promise<{ status: number; text: string }> {
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port: rt.port, method, path, headers: { host, 'content-type': 'application/json', ...(body ? { 'content-length': Buffer.byteLength(body) } : {}) } }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, text: Buffer.concat(chunks).toString() }));
    });
    req.on('error', reject);
    req.end(body);
  });
}

const subOf = (token: string) => JSON.parse(Buffer.from(token.split('.')[1]!, 'base64url').toString()).sub as string;

beforeAll(async () => {
  rt = await startTestRuntime();
  base = `http://127.0.0.1:${rt.port}`;
  dataDir = dirname(rt.outbox.dir);
});
afterAll(async () => rt?.cleanup());

describe('listening address', () => {
  it('binds 127.0.0.1 by default; another address of this machine is refused', async () => {
    expect(rt.host).toBe('127.0.0.1');
    const lan = Object.values(networkInterfaces())
      .flat()
      .find((i) => i && i.family === 'IPv4' && !i.internal)?.address;
    if (lan) await expect(fetch(`http://${lan}:${rt.port}/config.json`)).rejects.toThrow();
    expect((await fetch(`${base}/config.json`)).status).toBe(200);
  });
});

describe('development routes', () => {
  const devPaths: Array<[string, string]> = [
    ['GET', '/_local/outbox?format=json'],
    ['GET', '/_local/dead-letters'],
    ['POST', '/_local/dead-letters/chat-snooze/redrive'],
    ['POST', '/cognito/'],
    ['GET', '/__graph'],
    ['GET', '/__graph/sent.json'],
    ['POST', `/__wa-web/123/events`],
    ['POST', '/_ws/@connections/abc'],
  ];

  it('answer this machine', async () => {
    const outbox = await fetch(`${base}/_local/outbox?format=json`);
    expect(outbox.status).toBe(200);
    expect(((await (await fetch(`${base}/config.json`)).json()) as { localOutboxUrl?: string }).localOutboxUrl).toBe('/_local/outbox');
  });

  it.each(devPaths)('%s %s through a tunnel is a 404', async (method, path) => {
    const r = await fetch(`${base}${path}`, { method, headers: { ...TUNNEL, 'content-type': 'application/json' }, body: method === 'POST' ? '{}' : undefined });
    expect(r.status).toBe(404);
    expect(await r.text()).not.toMatch(/code|token|outbox/i);
  });

  it('the webhook and the web app still answer through the tunnel, without the outbox link', async () => {
    const verify = await fetch(`${base}/webhooks/whatsapp?hub.mode=subscribe&hub.verify_token=${rt.env.WHATSAPP_VERIFY_TOKEN}&hub.challenge=42`, { headers: TUNNEL });
    expect(verify.status).toBe(200);
    expect(await verify.text()).toBe('42');
    const cfg = (await (await fetch(`${base}/config.json`, { headers: TUNNEL })).json()) as { localOutboxUrl?: string };
    expect(cfg.localOutboxUrl).toBeUndefined();
  });

  it('DNS rebinding (issue 42 §4): Host evil.example gets 403 on /_local/outbox and /cognito; a loopback Host works', async () => {
    const code = await withHost('GET', '/_local/outbox?format=json', `evil.example:${rt.port}`);
    expect(code.status).toBe(403);
    expect(code.text).not.toMatch(/token|"to"/i);
    expect((await withHost('GET', '/_local/outbox?format=json', 'evil.example')).status).toBe(403);
    expect((await withHost('GET', '/_local/outbox?format=json', `localhost:${rt.port + 1}`)).status).toBe(403);
    const target = JSON.stringify({ AuthFlow: 'USER_PASSWORD_AUTH', ClientId: rt.clientId, AuthParameters: { USERNAME: rt.adminEmail, PASSWORD: 'x' } });
    const cognito = await withHost('POST', '/cognito/', `evil.example:${rt.port}`, target);
    expect(cognito.status).toBe(403);
    expect(cognito.text).not.toMatch(/IdToken|AccessToken/);
    for (const host of [`localhost:${rt.port}`, `127.0.0.1:${rt.port}`, `[::1]:${rt.port}`, `LOCALHOST:${rt.port}`]) {
      expect((await withHost('GET', '/_local/outbox?format=json', host)).status, host).toBe(200);
      expect((await withHost('POST', '/cognito/', host, target)).status, host).not.toBe(403);
    }
    const cfg = JSON.parse((await withHost('GET', '/config.json', `evil.example:${rt.port}`)).text) as { localOutboxUrl?: string };
    expect(cfg.localOutboxUrl).toBeUndefined();
  });

  it.each(devPaths)('%s %s with a rebinding Host is a 403', async (method, path) => {
    const r = await withHost(method, path, `rebind.evil.example:${rt.port}`, method === 'POST' ? '{}' : undefined);
    expect(r.status).toBe(403);
  });

  it('isDevRouteHost: loopback names and the listening address, with the runtime port', () => {
    expect(isDevRouteHost('localhost:3000', 3000)).toBe(true);
    expect(isDevRouteHost('127.0.0.1:3000', 3000)).toBe(true);
    expect(isDevRouteHost('[::1]:3000', 3000)).toBe(true);
    expect(isDevRouteHost('localhost', 80)).toBe(true);
    expect(isDevRouteHost('192.168.1.10:3000', 3000, '192.168.1.10')).toBe(true);
    expect(isDevRouteHost('localhost', 3000)).toBe(false);
    expect(isDevRouteHost('localhost:3001', 3000)).toBe(false);
    expect(isDevRouteHost('evil.example:3000', 3000)).toBe(false);
    expect(isDevRouteHost('localhost.evil.example:3000', 3000)).toBe(false);
    expect(isDevRouteHost('127.0.0.1.nip.io:3000', 3000)).toBe(false);
    expect(isDevRouteHost('192.168.1.10:3000', 3000)).toBe(false);
    expect(isDevRouteHost('192.168.1.10:3000', 3000, '0.0.0.0')).toBe(false);
    expect(isDevRouteHost('localhost:3000@evil.example', 3000)).toBe(false);
    expect(isDevRouteHost(undefined, 3000)).toBe(false);
    expect(isDevRouteHost('', 3000)).toBe(false);
  });

  it('isLocalRequest: loopback without forwarding headers only', () => {
    const req = (remoteAddress: string, headers: Record<string, string> = {}, localAddress = '127.0.0.1') => ({ socket: { remoteAddress, localAddress }, headers }) as unknown as IncomingMessage;
    expect(isLocalRequest(req('127.0.0.1'))).toBe(true);
    expect(isLocalRequest(req('::1', {}, '::1'))).toBe(true);
    expect(isLocalRequest(req('::ffff:127.0.0.1'))).toBe(true);
    expect(isLocalRequest(req('192.168.1.20', {}, '192.168.1.10'))).toBe(false);
    expect(isLocalRequest(req('192.168.1.10', {}, '192.168.1.10'))).toBe(true);
    expect(isLocalRequest(req('127.0.0.1', { 'x-forwarded-for': '1.2.3.4' }))).toBe(false);
    expect(isLocalRequest(req('127.0.0.1', { forwarded: 'for=1.2.3.4' }))).toBe(false);
    expect(isDevRoute('/cognito')).toBe(true);
    expect(isDevRoute('/cognitoX')).toBe(false);
    expect(isDevRoute('/__anything')).toBe(true);
    expect(isDevRoute('/_local/outbox')).toBe(true);
    expect(isDevRoute('/webhooks/whatsapp')).toBe(false);
    expect(isDevRoute('/api/me')).toBe(false);
  });
});

describe('ID token keys', () => {
  it("refuses a token minted with cognito-local's published private key: API 401, WebSocket 401", async () => {
    const require = createRequire(import.meta.url);
    const published = require('cognito-local/lib/keys/cognitoLocal.private.json') as { jwk: JWK };
    const admin = await rt.signIn(rt.adminEmail);
    const forged = await mint(published.jwk, 'CognitoLocal', { sub: subOf(admin), email: rt.adminEmail, 'cognito:username': rt.adminEmail });
    expect((await rt.api(forged, '/api/me')).status).toBe(401);
    expect((await rt.api(forged, `/api/orgs/${rt.orgId}/team`)).status).toBe(401);
    expect(await wsStatus(forged)).toBe(401);
  });

  it('signs password sign-ins with the data dir key, which the API and the socket accept', async () => {
    const admin = await rt.signIn(rt.adminEmail);
    const { kid } = await dataDirKey();
    expect(decodeProtectedHeader(admin).kid).toBe(kid);
    expect(kid).not.toBe('CognitoLocal');
    expect((await rt.api(admin, '/api/me')).status).toBe(200);
    expect(await wsStatus(admin)).toBe(101);
  });
});

describe('demo password', () => {
  it('is generated for the data dir, meets the password rules, and signs in', async () => {
    const stored = (await readFile(join(dataDir, 'demo-password'), 'utf8')).trim();
    expect(rt.password).toBe(stored);
    expect(stored).not.toBe('Chorus-demo-2026');
    expect(stored).toMatch(/^Chorus-[A-Za-z2-9]{4}-[A-Za-z2-9]{4}-[A-Za-z2-9]{4}-\d{2}$/);
    await expect(rt.signIn(rt.memberEmail, 'Chorus-demo-2026')).rejects.toThrow(/sign-in failed/);
    expect(await rt.signIn(rt.memberEmail)).toMatch(/^ey/);
  });
});

describe('identity is the Cognito account (AWS identity, issue 11 §7)', () => {
  it('refuses a token without a verified email', async () => {
    const { kid, jwk } = await dataDirKey();
    const admin = await rt.signIn(rt.adminEmail);
    for (const email_verified of [false, 'false', undefined]) {
      const token = await mint(jwk, kid, { sub: subOf(admin), email: rt.adminEmail, email_verified });
      const r = await rt.api(token, '/api/me');
      expect(r.status, String(email_verified)).toBe(401);
      expect(await wsStatus(token)).toBe(401);
    }
  });

  it("a changed email claim does not act as that email's account", async () => {
    const { kid, jwk } = await dataDirKey();
    const member = await rt.signIn(rt.memberEmail);
    // first the member's own account is used (binding sub -> email), then its email claim names the admin
    expect((await rt.orgCall(member, 'GET', '/settings/permissions')).status).toBe(200);
    const claimsAdmin = await mint(jwk, kid, { sub: subOf(member), email: rt.adminEmail });
    const invite = await rt.orgCall<{ error: { code: string } }>(claimsAdmin, 'POST', '/team/invites', { email: 'takeover@local.chorus', role: 'admin' });
    expect(invite.status).toBe(403);
    expect((await rt.outbox.list()).some((m) => m.to === 'takeover@local.chorus')).toBe(false);
    // /api/me answers as the account's own email
    const me = (await (await rt.api(claimsAdmin, '/api/me')).json()) as { user: { email: string } };
    expect(me.user.email).toBe(rt.memberEmail);
  });

  it("a new account whose email claim is another account's address is refused", async () => {
    const { kid, jwk } = await dataDirKey();
    const admin = await rt.signIn(rt.adminEmail);
    // the binding: the email's User row names the account, the account's row names the email
    expect((await db().entities.user.get({ email: rt.adminEmail }).go()).data?.sub).toBe(subOf(admin));
    expect((await db().entities.userIdentity.get({ sub: subOf(admin) }).go()).data?.email).toBe(rt.adminEmail);
    const stranger = await mint(jwk, kid, { sub: '00000000-0000-4000-8000-00000000dead', email: rt.adminEmail });
    const r = await rt.orgCall<{ error: { code: string } }>(stranger, 'GET', '/team');
    expect(r.status).toBe(401);
    expect(r.body.error.code).toBe('auth.identity_conflict');
    expect(await wsStatus(stranger)).toBe(401);
    // routes outside an org resolve the account the same way
    expect((await rt.api(stranger, '/api/me')).status).toBe(401);
  });
});
