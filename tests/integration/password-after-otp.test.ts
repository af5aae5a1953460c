import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestRuntime, type TestRuntime } from '../factories/runtime.ts';
import { db } from '../../shared/db/service.ts';

/**
 * Spec §8 'Please login with OTP and set your password from Settings > Preferences': a person who
 * signed in by email code (invited people never had a password) may set one without the current
 * password, for 15 minutes and only in that session (GET/PUT /api/me/password); afterwards the
 * password sign-in works. A password session is refused.
 */
let rt: TestRuntime;
let base: string;

type Auth = { AuthenticationResult?: { IdToken: string }; Session?: string; ChallengeParameters?: Record<string, string>; __type?: string };

async function cognito(target: string, body: unknown): Promise<{ status: number; body: Auth }> {
  const r = await fetch(`${base}/cognito/`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-amz-json-1.1', 'x-amz-target': `AWSCognitoIdentityProviderService.${target}` },
    body: JSON.stringify(body),
  });
  return { status: r.status, body: (await r.json()) as Auth };
}

async function signInByCode(email: string): Promise<string> {
  const prep = await fetch(`${base}/api/auth/otp/prepare`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ email }) });
  expect(prep.status).toBe(204);
  const start = await cognito('InitiateAuth', { AuthFlow: 'CUSTOM_AUTH', ClientId: rt.clientId, AuthParameters: { USERNAME: email } });
  const mail = (await rt.outbox.list()).find((m) => m.to === email && m.kind === 'otp');
  const code = /code is (\d{6})/.exec(mail?.text ?? '')![1]!;
  const done = await cognito('RespondToAuthChallenge', {
    ChallengeName: 'CUSTOM_CHALLENGE',
    ClientId: rt.clientId,
    Session: start.body.Session,
    ChallengeResponses: { USERNAME: start.body.ChallengeParameters!.USERNAME, ANSWER: code },
  });
  return done.body.AuthenticationResult!.IdToken;
}

const passwordSignIn = (email: string, password: string) => cognito('InitiateAuth', { AuthFlow: 'USER_PASSWORD_AUTH', ClientId: rt.clientId, AuthParameters: { USERNAME: email, PASSWORD: password } });

const api = (token: string, method: string, path: string, body?: unknown) =>
  fetch(`${base}${path}`, { method, headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' }, body: body === undefined ? undefined : JSON.stringify(body) });

beforeAll(async () => {
  rt = await startTestRuntime();
  base = `http://127.0.0.1:${rt.port}`;
});
afterAll(async () => rt?.cleanup());

describe('setting a password after an email-code sign-in', () => {
  it('lets the code session set one without the current password, then password sign-in works', async () => {
    const email = 'invitee.password@otp.chorus';
    const token = await signInByCode(email);
    const status = (await (await api(token, 'GET', '/api/me/password')).json()) as { set_without_current: boolean; until: number };
    expect(status.set_without_current).toBe(true);
    expect(status.until).toBeGreaterThan(Date.now() + 14 * 60_000);

    const weak = await api(token, 'PUT', '/api/me/password', { password: 'abc' });
    expect(weak.status).toBe(400);
    const weakBody = (await weak.json()) as { error: { details: Array<{ field: string; reason: string }> } };
    expect(weakBody.error.details[0]).toMatchObject({ field: 'password' });
    expect(weakBody.error.details[0]!.reason).toContain('at least one digit');

    expect((await passwordSignIn(email, 'New Pass 123')).status).toBe(400);
    const ok = await api(token, 'PUT', '/api/me/password', { password: 'New Pass 123' });
    expect(ok.status).toBe(200);
    // whitespace stripped (spec §5)
    const signed = await passwordSignIn(email, 'NewPass123');
    expect(signed.status).toBe(200);
    expect(signed.body.AuthenticationResult?.IdToken).toBeTruthy();

    // a password session is not a code session: the current password is asked for
    const pw = await passwordSignIn(rt.adminEmail, rt.password);
    const pwToken = pw.body.AuthenticationResult!.IdToken;
    const pwStatus = (await (await api(pwToken, 'GET', '/api/me/password')).json()) as { set_without_current: boolean };
    expect(pwStatus.set_without_current).toBe(false);
    expect((await api(pwToken, 'PUT', '/api/me/password', { password: 'Other123' })).status).toBe(403);
    expect((await passwordSignIn(rt.adminEmail, 'Other123')).status).toBe(400);
  });

  it('closes 15 minutes after the code was answered', async () => {
    const email = 'late.password@otp.chorus';
    const token = await signInByCode(email);
    const row = (await db().entities.user.get({ email }).go()).data!;
    expect(row.otp_signed_in_at).toBeGreaterThan(Date.now() - 60_000);
    // the code answered 15:01 ago (the window; the rule's table test covers the exact boundary)
    await db().entities.user.patch({ email }).set({ otp_signed_in_at: row.otp_signed_in_at! - 15 * 60_000 - 1000 }).go();
    const status = (await (await api(token, 'GET', '/api/me/password')).json()) as { set_without_current: boolean };
    expect(status.set_without_current).toBe(false);
    expect((await api(token, 'PUT', '/api/me/password', { password: 'Late1234' })).status).toBe(403);
  });

  it('needs a signed-in user', async () => {
    expect((await fetch(`${base}/api/me/password`)).status).toBe(401);
  });
});
