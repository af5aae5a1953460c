import { afterAll, describe, expect, it } from 'vitest';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startRuntime, type Runtime } from '../../scripts/local/runtime.ts';
import { freePort } from '../../scripts/local/ports.ts';

/**
 * Issue 49 item 9: a restart of the local runtime on the same data dir keeps everyone signed in.
 * Server side this holds through the data dir (the ID token key `id-token-key.json`, cognito-local's
 * pool with its refresh tokens, runtime.json's pool and client ids): the same ID token and refresh
 * token work after the restart. (What signed people out was the web client treating "cannot
 * refresh while the server is down" as "signed out": web/src/lib/auth-session.test.ts.)
 */
let rt: Runtime | undefined;
let dir: string | undefined;
afterAll(async () => {
  await rt?.stop();
  if (dir) await rm(dir, { recursive: true, force: true });
});

describe('a restart on the same data dir', () => {
  it('keeps the ID token and the refresh token valid', async () => {
    dir = await mkdtemp(join(tmpdir(), 'chorus-restart-'));
    const port = await freePort();
    const opts = { dataDir: dir, port, demo: { adminEmail: 'admin@restart.chorus', memberEmail: 'member@restart.chorus' }, logLevel: 'silent' as const };
    const base = `http://127.0.0.1:${port}`;
    const cognito = async (target: string, body: unknown) => {
      const r = await fetch(`${base}/cognito/`, { method: 'POST', headers: { 'content-type': 'application/x-amz-json-1.1', 'x-amz-target': `AWSCognitoIdentityProviderService.${target}` }, body: JSON.stringify(body) });
      return { status: r.status, body: (await r.json()) as { AuthenticationResult?: { IdToken?: string; RefreshToken?: string } } };
    };
    const me = async (token: string) => (await fetch(`${base}/api/me`, { headers: { authorization: `Bearer ${token}` } })).status;

    rt = await startRuntime(opts);
    const clientId = rt.clientId;
    const signIn = await cognito('InitiateAuth', { AuthFlow: 'USER_PASSWORD_AUTH', ClientId: clientId, AuthParameters: { USERNAME: rt.demo.adminEmail, PASSWORD: rt.demo.password } });
    const { IdToken, RefreshToken } = signIn.body.AuthenticationResult ?? {};
    expect(IdToken && RefreshToken).toBeTruthy();
    expect(await me(IdToken!)).toBe(200);
    await rt.stop();
    rt = undefined;

    rt = await startRuntime(opts);
    // the web app keeps its tokens under the client id: the same one after the restart
    expect(rt.clientId).toBe(clientId);
    expect(await me(IdToken!)).toBe(200);
    const refreshed = await cognito('GetTokensFromRefreshToken', { ClientId: clientId, RefreshToken });
    expect(refreshed.status).toBe(200);
    expect(await me(refreshed.body.AuthenticationResult!.IdToken!)).toBe(200);
  });
});
