import { createServer, request as httpRequest, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { randomBytes, randomUUID } from 'node:crypto';
import { readFile, stat } from 'node:fs/promises';
import { extname, join, normalize } from 'node:path';
import { WebSocketServer, WebSocket } from 'ws';
import type { APIGatewayProxyEventV2, APIGatewayProxyStructuredResultV2 } from 'aws-lambda';
import { HTTP_ROUTES, WS_ROUTES, type HttpRoute } from '../../functions/routes.ts';
import { verifyIdToken } from '../../shared/auth/jwt.ts';
import { isAppError } from '../../shared/errors.ts';
import { loadHandler } from './handlers.ts';
import { serveDocs } from './docs.ts';
import type { GraphStandIn } from './graph-standin.ts';
import type { WaWebStandIn } from './wa-web-standin.ts';
import type { LocalBlobs } from './blobs.ts';
import type { LocalOutbox } from './outbox.ts';
import type { CustomAuthStandIn } from './cognito-auth.ts';

/**
 * Local stand-in for API Gateway v2 (HTTP + WebSocket) on one port:
 * - routes of the one registry (functions/routes.ts) become API Gateway v2 HTTP events; `jwt`
 *   routes are guarded like the Cognito JWT authorizer (401 `{"message":"Unauthorized"}`) and
 *   receive the verified claims in `requestContext.authorizer.jwt.claims`;
 * - `/ws` upgrades to a WebSocket whose $connect/$default/$disconnect run the registry's handlers;
 * - `POST /_ws/@connections/{id}` is the management API (PostToConnection), 410 when gone;
 * - `/cognito/*` proxies to cognito-local (Amplify's `userPoolEndpoint`), after the custom auth
 *   stand-in (scripts/local/cognito-auth.ts) answered what it owns; `/_local/outbox` lists the emails
 *   the runtime 'sent' (scripts/local/outbox.ts); `/__graph/*` is the Graph
 *   API stand-in, `/media/*` the blob store's signed URLs (the S3 presigned URLs of AWS), `/media-upload/*`
 *   its signed PUTs of uploads (presigned S3 PUTs),
 *   `/config.json` the web app's runtime config, anything else the built web app.
 *
 * Exposure: it listens on `host` (127.0.0.1 unless HOST says otherwise). The development routes
 * (`/cognito`, `/_local/*`, `/__*`: sign-in codes, every bearer token the Graph stand-in saw, message
 * injection) answer only requests from this machine ({@link isLocalRequest}), or everyone when
 * `devRoutesEverywhere` (CHORUS_DEV_ROUTES=1); anyone else gets the same 404 as an unknown path.
 * The WebSocket management API (`/_ws/*`) is one of them. A request that came through a proxy or
 * tunnel (forwarding headers) is not from this machine, even though the tunnel's own connection is.
 * A request from this machine whose `Host` is not a loopback name with the runtime's port (a page
 * on a DNS-rebinding domain) gets 403 on them ({@link isDevRouteHost}).
 */
export interface GatewayOptions {
  port: number;
  /** address to listen on; default 127.0.0.1 */
  host?: string;
  /** serve the development routes to every client, not only this machine's (CHORUS_DEV_ROUTES=1) */
  devRoutesEverywhere?: boolean;
  webDist: string;
  /** issue 49 item 10: the repository whose README.md and docs/*.md are served at `/docs` (the Help menu's Documentation) */
  docsRoot?: string;
  /**
   * `host` is the request's Host header, so URLs work from any address the app was opened on;
   * `devRoutes` whether this client may use the development routes (the outbox link)
   */
  webConfig: (host: string, devRoutes: boolean) => unknown;
  cognitoEndpoint: string;
  graph: GraphStandIn;
  /** the WhatsApp Web stand-in: `POST /__wa-web/{phone_id}/events` `{ event, data }` injects a Baileys event */
  waWeb?: WaWebStandIn;
  blobs: LocalBlobs;
  /** the local mail outbox, served at `/_local/outbox` */
  outbox?: LocalOutbox;
  /**
   * dead letters (issue 23 item 3): `GET /_local/dead-letters` lists them (JSON, oldest first),
   * `POST /_local/dead-letters/{queue}/redrive` puts a queue's back on it; `npm run dlq` calls these
   */
  deadLetters?: { list(): Promise<unknown[]>; redrive(queue: string): Promise<number | null> };
  /** answers the Cognito calls cognito-local lacks (custom auth) before the proxy */
  cognitoAuth?: CustomAuthStandIn;
}

/** API Gateway's payload limit for HTTP APIs (10 MB); handlers apply their own, smaller limits. */
const GATEWAY_MAX_BODY = 10 * 1024 * 1024;
/** Largest request to the Graph stand-in: a 100 MB document (Meta's limit) plus multipart framing. */
const GRAPH_MAX_BODY = 101 * 1024 * 1024;

interface Compiled {
  route: HttpRoute;
  re: RegExp;
  names: string[];
}

const compiled: Compiled[] = HTTP_ROUTES.map((route) => {
  const names: string[] = [];
  const re = new RegExp(
    '^' +
      route.path.replace(/[.*+?^$()|[\]\\]/g, '\\$&').replace(/\{([^}]+)\}/g, (_, n: string) => {
        names.push(n);
        return '([^/]+)';
      }) +
      '$',
  );
  return { route, re, names };
  // API Gateway prefers the most specific route (literal segments over {params}): /tickets/badge before /tickets/{ticket_id}
}).sort((a, b) => a.names.length - b.names.length);

const MIME: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.woff2': 'font/woff2',
  '.webmanifest': 'application/manifest+json',
};

function readBody(req: IncomingMessage, limit: number): Promise<Buffer | null> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    let over = false;
    req.on('data', (c: Buffer) => {
      size += c.length;
      if (size > limit) over = true;
      else chunks.push(c);
    });
    req.on('end', () => resolve(over ? null : Buffer.concat(chunks)));
    req.on('error', reject);
  });
}

/** Headers a proxy or tunnel (cloudflared, ngrok, nginx, Caddy) adds to what it forwards. */
const FORWARDING_HEADERS = ['forwarded', 'x-forwarded-for', 'x-forwarded-host', 'x-real-ip', 'cf-connecting-ip', 'true-client-ip', 'x-original-forwarded-for'];

const LOOPBACK = /^(127\.\d+\.\d+\.\d+|::1|::ffff:127\.\d+\.\d+\.\d+)$/;

/**
 * Did this request come from this machine, not through a proxy? Its peer is a loopback address (or
 * the very address it reached, which is this machine talking to itself on a LAN address), and it
 * carries none of the headers a proxy or tunnel adds.
 */
export function isLocalRequest(req: IncomingMessage): boolean {
  const peer = req.socket.remoteAddress ?? '';
  if (!(LOOPBACK.test(peer) || (peer !== '' && peer === req.socket.localAddress))) return false;
  return !FORWARDING_HEADERS.some((h) => req.headers[h] !== undefined);
}

/**
 * The development routes: the Cognito stand-in, the local pages (`/_local/*`), the WebSocket
 * management API (`/_ws/*`, which the in-process handlers call) and the stand-ins' endpoints (`/__*`).
 */
export const isDevRoute = (path: string): boolean => /^\/(cognito|_local|_ws)(\/|$)/.test(path) || path.startsWith('/__');

/** The names a development route answers to (issue 42 §4), besides the listening address. */
const DEV_ROUTE_NAMES = ['localhost', '127.0.0.1', '[::1]'];

/**
 * Does a request's `Host` header name this runtime by a loopback name and its port? A page on a
 * DNS-rebinding domain reaches 127.0.0.1 from the browser with `Host: evil.example`, so the peer
 * address alone does not tell that this machine's user sent it. Accepted: `localhost`,
 * `127.0.0.1`, `[::1]` and the address the gateway listens on when it is one address (the
 * in-process handlers call `/__graph` and `/_ws` there, runtime.ts `selfHost`; an IP literal cannot
 * be rebound), each with `port` (no port means 80).
 * @param port the runtime's port (PORT, 3000 by default)
 * @param listenHost the address the gateway listens on (HOST, 127.0.0.1 by default)
 */
export function isDevRouteHost(host: string | undefined, port: number, listenHost = '127.0.0.1'): boolean {
  const m = /^(\[[0-9a-f:.]+\]|[^:[\]]+)(?::(\d{1,5}))?$/i.exec(host ?? '');
  if (!m) return false;
  if (Number(m[2] ?? 80) !== port) return false;
  const name = m[1]!.toLowerCase();
  const own = listenHost === '0.0.0.0' || listenHost === '::' ? undefined : listenHost.includes(':') ? `[${listenHost.toLowerCase()}]` : listenHost.toLowerCase();
  return DEV_ROUTE_NAMES.includes(name) || name === own;
}

/** Is `host` a loopback address (what `npm start` says loudly about when it is not)? */
export const isLoopbackHost = (host: string): boolean => host === 'localhost' || LOOPBACK.test(host);

function send(res: ServerResponse, status: number, body: string | Buffer, headers: Record<string, string> = {}) {
  res.writeHead(status, { 'content-type': 'application/json', ...headers });
  res.end(body);
}

export class LocalGateway {
  private server?: Server;
  private wss = new WebSocketServer({ noServer: true });
  private sockets = new Map<string, WebSocket>();

  constructor(private readonly opts: GatewayOptions) {}

  get url(): string {
    return `http://127.0.0.1:${this.opts.port}`;
  }

  /** the address it listens on */
  get host(): string {
    return this.opts.host ?? '127.0.0.1';
  }

  async start(): Promise<void> {
    this.server = createServer((req, res) => {
      this.route(req, res).catch((e) => {
        console.error(JSON.stringify({ level: 'error', msg: 'gateway.error', error: String(e?.stack ?? e) }));
        if (!res.headersSent) send(res, 500, JSON.stringify({ message: 'Internal Server Error' }));
        else res.end();
      });
    });
    this.server.keepAliveTimeout = 65_000;
    this.server.on('upgrade', (req, socket, head) => {
      this.upgrade(req, socket as import('node:net').Socket, head).catch(() => socket.destroy());
    });
    await new Promise<void>((resolve, reject) => {
      this.server!.once('error', reject);
      this.server!.listen(this.opts.port, this.host, () => resolve());
    });
  }

  async stop(): Promise<void> {
    for (const ws of this.sockets.values()) ws.terminate();
    this.wss.close();
    await new Promise<void>((r) => (this.server ? this.server.close(() => r()) : r()));
    this.server?.closeAllConnections?.();
  }

  /** Live sockets (benchmarks and tests). */
  get connectionCount(): number {
    return this.sockets.size;
  }

  private async route(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const url = new URL(req.url ?? '/', 'http://localhost');
    const path = url.pathname;
    const local = !!this.opts.devRoutesEverywhere || isLocalRequest(req);
    // CHORUS_DEV_ROUTES=1 serves them to every client by any name (a tunnel's), so Host is not checked then
    const rightHost = !!this.opts.devRoutesEverywhere || isDevRouteHost(req.headers.host, this.opts.port, this.host);
    const devRoutes = local && rightHost;
    if (isDevRoute(path) && !local) {
      req.resume();
      return send(res, 404, JSON.stringify({ message: 'Not Found' }));
    }
    if (isDevRoute(path) && !rightHost) {
      req.resume();
      return send(res, 403, JSON.stringify({ message: `Forbidden: development routes answer only http://localhost:${this.opts.port} (and 127.0.0.1, [::1]), not the name this request used` }));
    }
    if (path.startsWith('/cognito')) return this.proxyCognito(req, res, path.slice('/cognito'.length) || '/', url.search);
    if (path === '/_local/outbox' && this.opts.outbox) return this.opts.outbox.serve(res, url);
    if (path === '/_local/dead-letters' && this.opts.deadLetters && req.method === 'GET') {
      return send(res, 200, JSON.stringify({ dead_letters: await this.opts.deadLetters.list() }), { 'content-type': 'application/json' });
    }
    const redrive = /^\/_local\/dead-letters\/([a-z0-9-]+)\/redrive$/.exec(path);
    if (redrive && this.opts.deadLetters && req.method === 'POST') {
      req.resume();
      const moved = await this.opts.deadLetters.redrive(redrive[1]!);
      if (moved === null) return send(res, 404, JSON.stringify({ error: { code: 'queue.not_found', message: `There is no queue named ${redrive[1]}.` } }), { 'content-type': 'application/json' });
      return send(res, 200, JSON.stringify({ queue: redrive[1], redriven: moved }), { 'content-type': 'application/json' });
    }
    if (path === '/__graph' || path.startsWith('/__graph/')) {
      // media uploads to the Graph stand-in carry documents up to 100 MB
      const body = (await readBody(req, GRAPH_MAX_BODY)) ?? Buffer.alloc(0);
      return this.opts.graph.handle(req, res, path.slice('/__graph'.length), body);
    }
    const waWeb = /^\/__wa-web\/([^/]+)\/events$/.exec(path);
    if (waWeb && req.method === 'POST' && this.opts.waWeb) {
      try {
        this.opts.waWeb.inject(decodeURIComponent(waWeb[1]), JSON.parse(String((await readBody(req, GATEWAY_MAX_BODY)) ?? '{}')));
        return send(res, 202, '{}');
      } catch (e) {
        return send(res, 409, JSON.stringify({ error: { code: 'wa_web.not_open', message: String((e as Error).message) } }));
      }
    }
    if (path.startsWith('/media/')) return this.opts.blobs.serve(req, res, path.slice('/media/'.length), url.searchParams);
    // the presigned S3 PUT of uploads: streamed to the blob store, not through the 10 MB API limit
    if (path.startsWith('/media-upload/')) return this.opts.blobs.receive(req, res, path.slice('/media-upload/'.length), url.searchParams);
    const mgmt = /^\/_ws\/@connections\/([^/]+)$/.exec(path);
    if (mgmt) return this.management(req, res, decodeURIComponent(mgmt[1]));
    if (this.opts.docsRoot && (path === '/docs' || path.startsWith('/docs/')) && (req.method === 'GET' || req.method === 'HEAD')) return serveDocs(res, this.opts.docsRoot, path);
    if (path === '/config.json') return send(res, 200, JSON.stringify(this.opts.webConfig(req.headers.host ?? `127.0.0.1:${this.opts.port}`, devRoutes)), { 'cache-control': 'no-store' });
    const method = (req.method ?? 'GET').toUpperCase();
    for (const c of compiled) {
      const m = c.re.exec(path);
      if (!m) continue;
      if (c.route.method !== method) continue;
      return this.invoke(c, m, req, res, url);
    }
    if (path.startsWith('/api/') || path.startsWith('/webhooks/') || path.startsWith('/v1/') || path === '/mcp') return send(res, 404, JSON.stringify({ message: 'Not Found' }));
    return this.serveStatic(res, path);
  }

  private async invoke(c: Compiled, m: RegExpExecArray, req: IncomingMessage, res: ServerResponse, url: URL): Promise<void> {
    const body = await readBody(req, GATEWAY_MAX_BODY);
    if (body === null) return send(res, 413, JSON.stringify({ message: 'Request Entity Too Large' }));
    const headers: Record<string, string> = {};
    for (const [k, v] of Object.entries(req.headers)) if (v != null) headers[k.toLowerCase()] = Array.isArray(v) ? v.join(',') : v;
    let authorizer: unknown;
    if (c.route.auth === 'jwt') {
      const token = /^Bearer\s+(.+)$/i.exec(headers.authorization ?? '')?.[1];
      try {
        const claims = await verifyIdToken(token);
        // verifyIdToken refused an unverified email; API Gateway hands claims over as strings
        authorizer = { jwt: { claims: { ...claims, email_verified: 'true', token_use: 'id' }, scopes: [] } };
      } catch (e) {
        if (isAppError(e) && e.status === 401) return send(res, 401, JSON.stringify({ message: 'Unauthorized' }));
        throw e;
      }
    }
    const pathParameters = Object.fromEntries(c.names.map((n, i) => [n, m[i + 1]]));
    const query: Record<string, string> = {};
    for (const [k, v] of url.searchParams) query[k] = query[k] != null ? `${query[k]},${v}` : v;
    const ct = headers['content-type'] ?? '';
    const textual = ct === '' || /json|text|xml|form-urlencoded/.test(ct);
    const routeKey = `${c.route.method} ${c.route.path}`;
    const event = {
      version: '2.0',
      routeKey,
      rawPath: url.pathname,
      rawQueryString: url.search.replace(/^\?/, ''),
      headers,
      queryStringParameters: Object.keys(query).length ? query : undefined,
      pathParameters: c.names.length ? pathParameters : undefined,
      requestContext: {
        accountId: '000000000000',
        apiId: 'local',
        domainName: headers.host ?? 'localhost',
        domainPrefix: 'local',
        http: { method: c.route.method, path: url.pathname, protocol: 'HTTP/1.1', sourceIp: req.socket.remoteAddress ?? '127.0.0.1', userAgent: headers['user-agent'] ?? '' },
        requestId: randomUUID(),
        routeKey,
        stage: '$default',
        time: new Date().toISOString(),
        timeEpoch: Date.now(),
        ...(authorizer ? { authorizer } : {}),
      },
      body: body.length ? (textual ? body.toString('utf8') : body.toString('base64')) : undefined,
      isBase64Encoded: body.length > 0 && !textual,
    } as unknown as APIGatewayProxyEventV2;
    const handler = await loadHandler<(e: APIGatewayProxyEventV2, ctx: unknown) => Promise<APIGatewayProxyStructuredResultV2 | string>>(c.route.handler);
    const out = await handler(event, { awsRequestId: event.requestContext.requestId, functionName: c.route.handler, getRemainingTimeInMillis: () => 30_000 });
    const result: APIGatewayProxyStructuredResultV2 = typeof out === 'string' ? { statusCode: 200, body: out } : out;
    const payload = result.body == null ? '' : result.isBase64Encoded ? Buffer.from(result.body, 'base64') : result.body;
    res.writeHead(result.statusCode ?? 200, Object.fromEntries(Object.entries(result.headers ?? {}).map(([k, v]) => [k, String(v)])));
    res.end(payload);
  }

  private async management(req: IncomingMessage, res: ServerResponse, id: string): Promise<void> {
    const ws = this.sockets.get(id);
    const body = (await readBody(req, 128 * 1024)) ?? Buffer.alloc(0);
    if (!ws || ws.readyState !== WebSocket.OPEN) return send(res, 410, JSON.stringify({ message: 'Gone' }));
    if (req.method === 'DELETE') {
      ws.close();
      return send(res, 204, '');
    }
    if (req.method === 'GET') return send(res, 200, JSON.stringify({ connectedAt: new Date().toISOString(), identity: {} }));
    await new Promise<void>((resolve, reject) => ws.send(body.toString('utf8'), (err) => (err ? reject(err) : resolve())));
    return send(res, 200, '');
  }

  private async upgrade(req: IncomingMessage, socket: import('node:net').Socket, head: Buffer): Promise<void> {
    const url = new URL(req.url ?? '/', 'http://localhost');
    if (url.pathname !== '/ws') return void socket.destroy();
    const connectionId = randomBytes(12).toString('base64url');
    const ctx = (routeKey: string, eventType: string) => ({
      routeKey,
      eventType,
      connectionId,
      connectedAt: Date.now(),
      requestId: randomUUID(),
      apiId: 'local',
      stage: 'local',
      domainName: req.headers.host ?? 'localhost',
      requestTimeEpoch: Date.now(),
    });
    const query = Object.fromEntries(url.searchParams);
    const connect = await loadHandler<(e: unknown) => Promise<{ statusCode?: number; body?: string }>>(WS_ROUTES.$connect);
    const result = await connect({ requestContext: ctx('$connect', 'CONNECT'), queryStringParameters: query, headers: req.headers, isBase64Encoded: false });
    const status = result?.statusCode ?? 200;
    if (status !== 200) {
      socket.write(`HTTP/1.1 ${status} ${status === 401 ? 'Unauthorized' : status === 404 ? 'Not Found' : 'Forbidden'}\r\nConnection: close\r\nContent-Length: 0\r\n\r\n`);
      socket.destroy();
      return;
    }
    this.wss.handleUpgrade(req, socket, head, (ws) => {
      this.sockets.set(connectionId, ws);
      ws.on('message', async (data) => {
        const dflt = await loadHandler<(e: unknown) => Promise<unknown>>(WS_ROUTES.$default);
        await dflt({ requestContext: ctx('$default', 'MESSAGE'), body: String(data), isBase64Encoded: false }).catch(() => undefined);
      });
      ws.on('close', async () => {
        this.sockets.delete(connectionId);
        const disc = await loadHandler<(e: unknown) => Promise<unknown>>(WS_ROUTES.$disconnect);
        await disc({ requestContext: ctx('$disconnect', 'DISCONNECT'), isBase64Encoded: false }).catch(() => undefined);
      });
    });
  }

  private async proxyCognito(req: IncomingMessage, res: ServerResponse, path: string, search: string): Promise<void> {
    const body = (await readBody(req, 1024 * 1024)) ?? Buffer.alloc(0);
    if (req.method === 'OPTIONS') {
      res.writeHead(204, { 'access-control-allow-origin': '*', 'access-control-allow-headers': '*', 'access-control-allow-methods': 'POST, GET, OPTIONS' });
      return void res.end();
    }
    const amzTarget = String(req.headers['x-amz-target'] ?? '').split('.')[1] ?? '';
    const own = req.method === 'POST' && amzTarget && this.opts.cognitoAuth ? await this.opts.cognitoAuth.handle(amzTarget, body) : undefined;
    if (own) {
      res.writeHead(own.status, {
        'content-type': 'application/x-amz-json-1.1',
        'access-control-allow-origin': '*',
        ...(own.status >= 400 ? { 'x-amzn-errortype': String((own.body as { __type?: string }).__type ?? '') } : {}),
      });
      return void res.end(JSON.stringify(own.body));
    }
    const target = new URL(path + search, this.opts.cognitoEndpoint);
    const up = await new Promise<{ status: number; headers: Record<string, string | string[] | undefined>; body: Buffer } | null>((resolve) => {
      const headers = { ...req.headers, host: target.host, 'content-length': String(body.length) };
      const p = httpRequest(target, { method: req.method, headers }, (r) => {
        const chunks: Buffer[] = [];
        r.on('data', (c: Buffer) => chunks.push(c));
        r.on('end', () => resolve({ status: r.statusCode ?? 502, headers: r.headers, body: Buffer.concat(chunks) }));
        r.on('error', () => resolve(null));
      });
      p.on('error', () => resolve(null));
      p.end(body);
    });
    if (!up) return send(res, 502, JSON.stringify({ __type: 'InternalErrorException', message: 'The local sign-in service is not reachable.' }));
    let out = up.body;
    // cognito-local signs ID tokens with the key in its package: the stand-in re-signs them with the data dir's
    if (up.status === 200 && this.opts.cognitoAuth && out.includes('"IdToken"')) {
      const parsed = JSON.parse(out.toString('utf8')) as { AuthenticationResult?: { IdToken?: string } };
      if (parsed.AuthenticationResult?.IdToken) {
        try {
          parsed.AuthenticationResult = await this.opts.cognitoAuth.reissue(parsed.AuthenticationResult);
        } catch {
          res.writeHead(400, { 'content-type': 'application/x-amz-json-1.1', 'access-control-allow-origin': '*', 'x-amzn-errortype': 'NotAuthorizedException' });
          return void res.end(JSON.stringify({ __type: 'NotAuthorizedException', message: 'Incorrect username or password.' }));
        }
        out = Buffer.from(JSON.stringify(parsed));
      }
    }
    const headers: Record<string, string | string[] | undefined> = { ...up.headers, 'content-length': String(out.length) };
    delete headers['transfer-encoding'];
    res.writeHead(up.status, headers);
    res.end(out);
  }

  private async serveStatic(res: ServerResponse, path: string): Promise<void> {
    const root = this.opts.webDist;
    const safe = normalize(decodeURIComponent(path)).replace(/^(\.\.[/\\])+/, '');
    let file = join(root, safe);
    if (!file.startsWith(root)) return send(res, 403, 'Forbidden', { 'content-type': 'text/plain' });
    const isFile = await stat(file).then((s) => s.isFile()).catch(() => false);
    if (!isFile) file = join(root, 'index.html');
    try {
      const data = await readFile(file);
      const immutable = file.includes(`${join(root, 'assets')}`);
      send(res, 200, data, { 'content-type': MIME[extname(file)] ?? 'application/octet-stream', 'cache-control': immutable ? 'public, max-age=31536000, immutable' : 'no-cache' });
    } catch {
      send(res, 503, 'The web app is not built yet: run `npm run build:web` (npm start does it for you).', { 'content-type': 'text/plain' });
    }
  }
}
