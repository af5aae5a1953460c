import { copyFile, mkdir, readdir, readFile, rename, writeFile } from 'node:fs/promises';
import { spawn, type ChildProcess } from 'node:child_process';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import {
  CognitoIdentityProviderClient,
  CreateUserPoolClientCommand,
  CreateUserPoolCommand,
  DescribeUserPoolCommand,
  AdminCreateUserCommand,
  AdminSetUserPasswordCommand,
  AdminGetUserCommand,
  DescribeUserPoolClientCommand,
  UpdateUserPoolClientCommand,
  type ExplicitAuthFlowsType,
} from '@aws-sdk/client-cognito-identity-provider';
import { freePort, waitFor } from './ports.ts';

/**
 * Local identity: cognito-local (USER_PASSWORD_AUTH, refresh) as a child process with its state
 * under `<dir>/.cognito`, listening on 127.0.0.1 only. The issuer domain is fixed (not the port),
 * so tokens stay valid across restarts on new ports. cognito-local signs with the key its package
 * ships; the API never trusts that key: ID tokens reach clients re-signed with the data dir's key
 * (scripts/local/cognito-auth.ts).
 */
export const LOCAL_ISSUER_DOMAIN = 'http://cognito-local.chorus';

export interface LocalCognito {
  endpoint: string;
  client: CognitoIdentityProviderClient;
  /** Run admin writes one at a time: cognito-local rewrites a pool's whole JSON file per change, and two overlapping rewrites corrupt it. */
  serial: <T>(fn: () => Promise<T>) => Promise<T>;
  stop: () => Promise<void>;
}

/** cognito-local's store: one JSON file per user pool (plus clients.json), rewritten whole on every change. */
const storeDir = (dir: string) => join(dir, '.cognito', 'db');

async function storeFiles(dir: string): Promise<string[]> {
  const names = await readdir(storeDir(dir)).catch(() => [] as string[]);
  return names.filter((n) => n.endsWith('.json')).map((n) => join(storeDir(dir), n));
}

const parses = async (file: string) => {
  try {
    JSON.parse((await readFile(file, 'utf8')) || '{}');
    return true;
  } catch {
    return false;
  }
};

/**
 * Before start: a store file cut short by a crash is replaced by the copy taken at the last clean
 * stop (`<file>.bak`), or moved aside (`<file>.corrupt-<ms>`) so cognito-local can start; the
 * runtime then re-creates the pool and demo users.
 */
async function repairStore(dir: string): Promise<void> {
  for (const file of await storeFiles(dir)) {
    if (await parses(file)) continue;
    if (await parses(`${file}.bak`)) await copyFile(`${file}.bak`, file);
    else await rename(file, `${file}.corrupt-${Date.now()}`);
    process.stderr.write(`cognito-local: ${file} was unreadable (interrupted write); restored from the last clean stop\n`);
  }
}

/** After a clean stop: keep a copy of each readable store file for {@link repairStore}. */
async function backupStore(dir: string): Promise<void> {
  for (const file of await storeFiles(dir)) if (await parses(file)) await copyFile(file, `${file}.bak`);
}

export async function startCognito(dir: string): Promise<LocalCognito> {
  await mkdir(join(dir, '.cognito'), { recursive: true });
  await repairStore(dir);
  const port = await freePort();
  await writeFile(join(dir, '.cognito', 'config.json'), JSON.stringify({ TokenConfig: { IssuerDomain: LOCAL_ISSUER_DOMAIN } }, null, 2));
  const require = createRequire(import.meta.url);
  const bin = require.resolve('cognito-local/lib/bin/start.js');
  const proc: ChildProcess = spawn(process.execPath, [bin], { cwd: dir, env: { ...process.env, PORT: String(port), HOST: '127.0.0.1' }, stdio: 'pipe' });
  let out = '';
  proc.stdout?.on('data', (d) => (out = (out + String(d)).slice(-4000)));
  proc.stderr?.on('data', (d) => (out = (out + String(d)).slice(-4000)));
  let exited = false;
  proc.on('exit', () => (exited = true));
  const endpoint = `http://127.0.0.1:${port}`;
  await waitFor('cognito-local', async () => {
    if (exited) throw new Error(`cognito-local exited: ${out}`);
    const r = await fetch(`${endpoint}/health`).catch(() => undefined);
    return !!r;
  }).catch((e: Error) => {
    proc.kill('SIGKILL');
    throw new Error(`${e.message}; its output: ${out.slice(-1500)}`);
  });
  const client = new CognitoIdentityProviderClient({ endpoint, region: 'local', credentials: { accessKeyId: 'local', secretAccessKey: 'local' } });
  let chain: Promise<unknown> = Promise.resolve();
  const serial = <T>(fn: () => Promise<T>): Promise<T> => {
    const run = chain.then(fn, fn);
    chain = run.catch(() => undefined);
    return run;
  };
  return {
    endpoint,
    client,
    serial,
    stop: async () => {
      await chain;
      // let a write cognito-local has begun finish (its store rewrites are asynchronous)
      const files = await storeFiles(dir);
      for (let i = 0; i < 30; i++) {
        const ok = await Promise.all(files.map(parses));
        if (ok.every(Boolean)) break;
        await new Promise((r) => setTimeout(r, 100));
      }
      client.destroy();
      if (!exited)
        await new Promise<void>((resolve) => {
          proc.once('exit', () => resolve());
          proc.kill('SIGTERM');
          setTimeout(() => proc.kill('SIGKILL'), 3000).unref();
        });
      await backupStore(dir);
    },
  };
}

/**
 * The web client's settings, as in the CDK auth stack where cognito-local can follow: password
 * sign-in, refresh, and the custom auth flow of email codes (answered by cognito-auth.ts) with an
 * auth session as long as a code lives (10 minutes; cognito-local does not keep AuthSessionValidity,
 * so the stand-in is told it directly).
 */
const WEB_CLIENT = {
  ExplicitAuthFlows: ['ALLOW_USER_PASSWORD_AUTH', 'ALLOW_REFRESH_TOKEN_AUTH', 'ALLOW_CUSTOM_AUTH'] as ExplicitAuthFlowsType[],
  AuthSessionValidity: 10,
};

/** Create the pool and the web client unless `known` ones still exist. */
export async function ensurePool(c: LocalCognito, known?: { userPoolId: string; clientId: string }): Promise<{ userPoolId: string; clientId: string }> {
  if (known) {
    let exists = false;
    try {
      await c.client.send(new DescribeUserPoolCommand({ UserPoolId: known.userPoolId }));
      exists = true;
    } catch {
      /* recreate below */
    }
    if (exists) {
      // pools made before email code sign-in: allow the custom auth flow (served by cognito-auth.ts)
      const cl = await c.client.send(new DescribeUserPoolClientCommand({ UserPoolId: known.userPoolId, ClientId: known.clientId })).catch(() => undefined);
      if (cl?.UserPoolClient && !(cl.UserPoolClient.ExplicitAuthFlows ?? []).includes('ALLOW_CUSTOM_AUTH'))
        await c.serial(() => c.client.send(new UpdateUserPoolClientCommand({ UserPoolId: known.userPoolId, ClientId: known.clientId, ...WEB_CLIENT })));
      return known;
    }
  }
  const pool = await c.client.send(new CreateUserPoolCommand({ PoolName: 'chorus-local', UsernameAttributes: ['email'] }));
  const userPoolId = pool.UserPool!.Id!;
  const client = await c.client.send(
    new CreateUserPoolClientCommand({ UserPoolId: userPoolId, ClientName: 'chorus-web', ...WEB_CLIENT }),
  );
  return { userPoolId, clientId: client.UserPoolClient!.ClientId! };
}

/**
 * Create a confirmed user with a verified email and a permanent password unless it exists
 * (`resetPassword`: an existing one gets `password` too). @returns the user's `sub`
 */
export function ensureUser(c: LocalCognito, userPoolId: string, email: string, password: string, resetPassword = false): Promise<string> {
  return c.serial(() => createUserOnce(c, userPoolId, email, password, resetPassword));
}

async function createUserOnce(c: LocalCognito, userPoolId: string, email: string, password: string, resetPassword: boolean): Promise<string> {
  const subOf = (attrs?: Array<{ Name?: string; Value?: string }>) => attrs?.find((a) => a.Name === 'sub')?.Value ?? '';
  let existing: string | undefined;
  try {
    const u = await c.client.send(new AdminGetUserCommand({ UserPoolId: userPoolId, Username: email }));
    existing = subOf(u.UserAttributes);
  } catch {
    /* create */
  }
  if (existing !== undefined) {
    if (resetPassword) await c.client.send(new AdminSetUserPasswordCommand({ UserPoolId: userPoolId, Username: email, Password: password, Permanent: true }));
    return existing;
  }
  const created = await c.client.send(
    new AdminCreateUserCommand({
      UserPoolId: userPoolId,
      Username: email,
      MessageAction: 'SUPPRESS',
      UserAttributes: [
        { Name: 'email', Value: email },
        { Name: 'email_verified', Value: 'true' },
      ],
    }),
  );
  await c.client.send(new AdminSetUserPasswordCommand({ UserPoolId: userPoolId, Username: email, Password: password, Permanent: true }));
  return subOf(created.User?.Attributes);
}
