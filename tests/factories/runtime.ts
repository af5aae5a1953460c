import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startRuntime, type Runtime, type RuntimeOptions } from '../../scripts/local/runtime.ts';
import { freePort } from '../../scripts/local/ports.ts';
import { signBody } from '../../shared/whatsapp/cloud/signature.ts';
import type { PhoneMeta } from '../../shared/whatsapp/cloud/payloads.ts';

/**
 * Test runtime: the real local runtime (DynamoDB Local in memory, cognito-local, local gateway,
 * durable queues) on free ports in a temp dir. One per test file.
 */
export interface TestRuntime extends Runtime {
  phone: PhoneMeta;
  adminEmail: string;
  memberEmail: string;
  /** the demo users' password (generated for this runtime's data dir) */
  password: string;
  /**
   * an ID token by password sign-in (USER_PASSWORD_AUTH) through the gateway's `/cognito`, as the
   * web app does: cognito-local checks the password, the stand-in re-signs the ID token with the data
   * dir's key (cognito-local's own tokens are refused by the API)
   */
  signIn(email: string, password?: string): Promise<string>;
  /** POST a raw body to /webhooks/whatsapp, signed unless `signature` is given (null = no header) */
  postWebhook(raw: string | object, signature?: string | null): Promise<Response>;
  /** fetch an API path with a bearer token */
  api(token: string | null, path: string, init?: RequestInit & { json?: unknown }): Promise<Response>;
  /** JSON of an org API path (`/tickets`, …) as `token`; throws with the status and body unless 2xx */
  orgJson<T>(token: string, path: string, init?: RequestInit & { json?: unknown }): Promise<T>;
  /** Call an org API path (`/chats/...`) as `token`: the status and the parsed JSON body, whatever the status */
  orgCall<T = Record<string, unknown>>(token: string, method: string, path: string, json?: unknown): Promise<{ status: number; body: T }>;
  cleanup(): Promise<void>;
}

/**
 * Start a runtime on a free port in a fresh temp dir. A free port can be taken by another test
 * worker between asking the OS for it and listening on it (EADDRINUSE): startRuntime then stops
 * what it started, and this tries again on another port (up to 4 times).
 */
async function startOnFreePort(extra: Pick<RuntimeOptions, 'graphStatuses'> = {}): Promise<{ dir: string; port: number; rt: Runtime }> {
  for (let attempt = 1; ; attempt++) {
    const dir = await mkdtemp(join(tmpdir(), 'chorus-test-'));
    const port = await freePort();
    try {
      const rt = await startRuntime({ dataDir: dir, port, inMemoryTable: true, demo: { adminEmail: 'admin@test.chorus', memberEmail: 'member@test.chorus' }, logLevel: 'silent', ...extra });
      return { dir, port, rt };
    } catch (e) {
      await rm(dir, { recursive: true, force: true }).catch(() => undefined);
      if ((e as NodeJS.ErrnoException).code !== 'EADDRINUSE' || attempt >= 4) throw e;
    }
  }
}

/**
 * @param opts.graphStatuses the Graph stand-in posts sent → delivered → read after each send
 *   (off by default: most tests assert exact acks; scripts/local/runtime.ts)
 */
export async function startTestRuntime(opts: Pick<RuntimeOptions, 'graphStatuses'> = {}): Promise<TestRuntime> {
  const { dir, port, rt } = await startOnFreePort(opts);
  const demo = rt.demo;
  const phone = { phone_number_id: rt.env.WHATSAPP_PHONE_NUMBER_ID, display_phone_number: rt.env.WHATSAPP_DISPLAY_PHONE_NUMBER };
  const base = `http://127.0.0.1:${port}`;
  const t: TestRuntime = Object.assign(rt, {
    phone,
    adminEmail: demo.adminEmail,
    memberEmail: demo.memberEmail,
    password: demo.password,
    async signIn(email: string, password = demo.password) {
      const res = await fetch(`${base}/cognito/`, {
        method: 'POST',
        headers: { 'content-type': 'application/x-amz-json-1.1', 'x-amz-target': 'AWSCognitoIdentityProviderService.InitiateAuth' },
        body: JSON.stringify({ AuthFlow: 'USER_PASSWORD_AUTH', ClientId: rt.clientId, AuthParameters: { USERNAME: email, PASSWORD: password } }),
      });
      const j = (await res.json()) as { AuthenticationResult?: { IdToken?: string } };
      if (!j.AuthenticationResult?.IdToken) throw new Error(`sign-in failed for ${email}: ${JSON.stringify(j)}`);
      return j.AuthenticationResult.IdToken;
    },
    postWebhook(raw: string | object, signature?: string | null) {
      const body = typeof raw === 'string' ? raw : JSON.stringify(raw);
      const headers: Record<string, string> = { 'content-type': 'application/json' };
      const sig = signature === undefined ? signBody(body, rt.env.WHATSAPP_APP_SECRET) : signature;
      if (sig !== null) headers['x-hub-signature-256'] = sig;
      return fetch(`${base}/webhooks/whatsapp`, { method: 'POST', headers, body });
    },
    api(token: string | null, path: string, init: RequestInit & { json?: unknown } = {}) {
      const headers: Record<string, string> = { ...(init.headers as Record<string, string>) };
      if (token) headers.authorization = `Bearer ${token}`;
      let body = init.body;
      if (init.json !== undefined) {
        headers['content-type'] = 'application/json';
        body = JSON.stringify(init.json);
      }
      return fetch(`${base}${path}`, { ...init, headers, body });
    },
    async orgJson<T>(token: string, path: string, init: RequestInit & { json?: unknown } = {}): Promise<T> {
      const res = await t.api(token, `/api/orgs/${rt.orgId}${path}`, init);
      const text = await res.text();
      if (!res.ok) throw new Error(`${init.method ?? 'GET'} ${path}: HTTP ${res.status} ${text}`);
      return JSON.parse(text) as T;
    },
    async orgCall<T>(token: string, method: string, path: string, json?: unknown): Promise<{ status: number; body: T }> {
      const res = await t.api(token, `/api/orgs/${rt.orgId}${path}`, { method, json });
      const text = await res.text();
      return { status: res.status, body: (text ? JSON.parse(text) : null) as T };
    },
    async cleanup() {
      await rt.stop();
      await rm(dir, { recursive: true, force: true });
    },
  });
  return t;
}
