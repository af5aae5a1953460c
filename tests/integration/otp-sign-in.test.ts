import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestRuntime, type TestRuntime } from '../factories/runtime.ts';
import { seedDemo } from '../../scripts/local/seed.ts';
import { db } from '../../shared/db/service.ts';
import { resetConfig } from '../../shared/config.ts';
import { verifyOtp } from '../../shared/auth/otp.ts';
import { OTP_MAX_ATTEMPTS } from '../../shared/auth/otp.rules.ts';
import type { MeResponse } from '../../shared/me.schemas.ts';
import { otpCodeFor, wrongCodeOf } from '../factories/otp.ts';

/**
 * Email one-time code sign-in through the local runtime, exactly as the web app drives it: POST
 * /api/auth/otp/prepare, then Cognito's CUSTOM_AUTH InitiateAuth / RespondToAuthChallenge at the
 * gateway's /cognito endpoint (answered by the stand-in running functions/auth/* triggers), the code
 * read from the local outbox. Also: invitation emails, and the outbox page.
 */
let rt: TestRuntime;
let base: string;

type CognitoAnswer = {
  __type?: string;
  message?: string;
  ChallengeName?: string;
  Session?: string;
  ChallengeParameters?: Record<string, string>;
  AuthenticationResult?: { IdToken: string; AccessToken: string; RefreshToken?: string };
};

async function cognito(target: string, body: unknown): Promise<{ status: number; body: CognitoAnswer }> {
  const r = await fetch(`${base}/cognito/`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-amz-json-1.1', 'x-amz-target': `AWSCognitoIdentityProviderService.${target}` },
    body: JSON.stringify(body),
  });
  return { status: r.status, body: (await r.json()) as CognitoAnswer };
}

const prepare = (email: string) => fetch(`${base}/api/auth/otp/prepare`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ email }) });
const requestCode = (email: string) => cognito('InitiateAuth', { AuthFlow: 'CUSTOM_AUTH', ClientId: rt.clientId, AuthParameters: { USERNAME: email } });
const answer = (session: string, username: string, code: string) =>
  cognito('RespondToAuthChallenge', { ChallengeName: 'CUSTOM_CHALLENGE', ClientId: rt.clientId, Session: session, ChallengeResponses: { USERNAME: username, ANSWER: code } });

const codeFor = (email: string) => otpCodeFor(rt, email);
const wrongOf = wrongCodeOf;

beforeAll(async () => {
  rt = await startTestRuntime();
  base = `http://127.0.0.1:${rt.port}`;
});
afterAll(async () => rt?.cleanup());

describe('requesting a code', () => {
  it('refuses a bad email with the field', async () => {
    const r = await prepare('not-an-email');
    expect(r.status).toBe(400);
    const body = (await r.json()) as { error: { details: Array<{ field: string }> } };
    expect(body.error.details[0]!.field).toBe('email');
  });

  it('creates the user of a new email, mails a code, and refuses a second request within 60 s', async () => {
    const email = 'new.person@otp.chorus';
    expect((await prepare(email)).status).toBe(204);
    const before = Date.now();
    const first = await requestCode(email);
    expect(first.status).toBe(200);
    expect(first.body.ChallengeName).toBe('CUSTOM_CHALLENGE');
    expect(first.body.ChallengeParameters!.email).toBe(email);
    expect(Number(first.body.ChallengeParameters!.expires_at)).toBeGreaterThanOrEqual(before + 600_000);
    const code = await codeFor(email);
    const mail = (await rt.outbox.list()).find((m) => m.to === email)!;
    expect(mail.subject).toBe(`${code} is your Chorus sign-in code`);
    // only the hash is stored
    const row = (await db().entities.otpCode.get({ email }).go()).data!;
    expect(JSON.stringify(row)).not.toContain(code);

    const second = await requestCode(email);
    expect(second.status).toBe(400);
    expect(second.body.__type).toBe('UserLambdaValidationException');
    expect(second.body.message).toBe('CreateAuthChallenge failed with error Sorry! You can only request an OTP every 60 sec.');
    expect((await rt.outbox.list()).filter((m) => m.to === email)).toHaveLength(1);

    // the first session still works: a wrong code gets another round, the right one tokens
    const wrong = await answer(first.body.Session!, first.body.ChallengeParameters!.USERNAME!, wrongOf(code));
    expect(wrong.status).toBe(200);
    expect(wrong.body.ChallengeName).toBe('CUSTOM_CHALLENGE');
    expect(wrong.body.ChallengeParameters!.retry).toBe('true');
    expect(wrong.body.AuthenticationResult).toBeUndefined();
    const right = await answer(wrong.body.Session!, first.body.ChallengeParameters!.USERNAME!, code);
    expect(right.status).toBe(200);
    const tokens = right.body.AuthenticationResult!;
    expect(tokens.IdToken && tokens.AccessToken && tokens.RefreshToken).toBeTruthy();

    // the API accepts the ID token like cognito-local's own
    const me = await rt.api(tokens.IdToken, '/api/me');
    expect(me.status).toBe(200);
    expect(((await me.json()) as MeResponse).user.email).toBe(email);

    // the code is single use
    expect(await verifyOtp(email, code, Date.now())).toBe('used');
    // a session answers once
    const replay = await answer(wrong.body.Session!, first.body.ChallengeParameters!.USERNAME!, code);
    expect(replay.body.__type).toBe('NotAuthorizedException');

    // the refresh token gives new tokens the API accepts
    const refreshed = await cognito('InitiateAuth', { AuthFlow: 'REFRESH_TOKEN_AUTH', ClientId: rt.clientId, AuthParameters: { REFRESH_TOKEN: tokens.RefreshToken } });
    expect(refreshed.status).toBe(200);
    expect((await rt.api(refreshed.body.AuthenticationResult!.IdToken, '/api/me')).status).toBe(200);
    // cognito-local's own refresh path is untouched
    const pw = await cognito('InitiateAuth', { AuthFlow: 'USER_PASSWORD_AUTH', ClientId: rt.clientId, AuthParameters: { USERNAME: rt.adminEmail, PASSWORD: rt.password } });
    const pwRefresh = await cognito('InitiateAuth', { AuthFlow: 'REFRESH_TOKEN_AUTH', ClientId: rt.clientId, AuthParameters: { REFRESH_TOKEN: pw.body.AuthenticationResult!.RefreshToken } });
    expect(pwRefresh.status).toBe(200);
  });
});

describe('refused codes', () => {
  it('an expired code is refused even when right, and ends the attempt', async () => {
    const email = 'expired@otp.chorus';
    await prepare(email);
    const first = await requestCode(email);
    const code = await codeFor(email);
    // the controlled clock: the stored code expired a millisecond ago
    await db().entities.otpCode.patch({ email }).set({ expires_at_ms: Date.now() - 1 }).go();
    const r = await answer(first.body.Session!, first.body.ChallengeParameters!.USERNAME!, code);
    expect(r.status).toBe(400);
    expect(r.body.__type).toBe('NotAuthorizedException');
  });

  it(`after ${OTP_MAX_ATTEMPTS} wrong codes the attempt fails and the code is dead`, async () => {
    const email = 'guesser@otp.chorus';
    await prepare(email);
    const first = await requestCode(email);
    const code = await codeFor(email);
    const username = first.body.ChallengeParameters!.USERNAME!;
    let session = first.body.Session!;
    for (let i = 1; i < OTP_MAX_ATTEMPTS; i++) {
      const r = await answer(session, username, wrongOf(code));
      expect(r.body.ChallengeName, `attempt ${i}`).toBe('CUSTOM_CHALLENGE');
      session = r.body.Session!;
    }
    const last = await answer(session, username, wrongOf(code));
    expect(last.body.__type).toBe('NotAuthorizedException');
    expect(await verifyOtp(email, code, Date.now())).toBe('exhausted');
  });

  it('a right code mailed to someone else does not work', async () => {
    await prepare('a@otp.chorus');
    await prepare('b@otp.chorus');
    const a = await requestCode('a@otp.chorus');
    await requestCode('b@otp.chorus');
    const r = await answer(a.body.Session!, a.body.ChallengeParameters!.USERNAME!, await codeFor('b@otp.chorus'));
    // unless the two random codes happen to be equal (1 in a million)
    if ((await codeFor('a@otp.chorus')) !== (await codeFor('b@otp.chorus'))) expect(r.body.ChallengeParameters?.retry).toBe('true');
  });
});

describe('invitation emails (spec §4 Invite)', () => {
  it('an invite mails the invitee a sign-in link; the invitee signs in by code and sees the invite', async () => {
    const admin = await rt.signIn(rt.adminEmail);
    const invitee = 'invitee@otp.chorus';
    const r = await rt.api(admin, `/api/orgs/${rt.orgId}/team/invites`, { method: 'POST', json: { email: invitee, role: 'member' } });
    expect(r.status).toBe(201);
    const mail = (await rt.outbox.list()).find((m) => m.to === invitee && m.kind === 'invite');
    expect(mail?.subject).toBe("You've been invited to Demo Workspace on Chorus");
    expect(mail?.text).toContain(`${rt.env.APP_URL}/login`);

    const first = await requestCode(invitee);
    const done = await answer(first.body.Session!, first.body.ChallengeParameters!.USERNAME!, await codeFor(invitee));
    const me = (await (await rt.api(done.body.AuthenticationResult!.IdToken, '/api/me')).json()) as MeResponse;
    expect(me.invites.map((i) => i.org_id)).toContain(rt.orgId);
  });

  it('the link comes from APP_URL, never from the request: a hostile Origin header changes nothing', async () => {
    const admin = await rt.signIn(rt.adminEmail);
    const invitee = 'phished@otp.chorus';
    const r = await rt.api(admin, `/api/orgs/${rt.orgId}/team/invites`, {
      method: 'POST',
      headers: { origin: 'https://evil.example', referer: 'https://evil.example/x', 'x-forwarded-host': 'evil.example' },
      json: { email: invitee, role: 'member' },
    });
    expect(r.status).toBe(201);
    const mail = (await rt.outbox.list()).find((m) => m.to === invitee && m.kind === 'invite');
    expect(mail?.text).toContain(`Sign in at ${rt.env.APP_URL}/login `);
    expect(mail?.text).not.toContain('evil');

    // without APP_URL (a deployment that forgot it) the mail names no link rather than the Origin's
    const appUrl = process.env.APP_URL;
    process.env.APP_URL = '';
    resetConfig();
    try {
      const again = await rt.api(admin, `/api/orgs/${rt.orgId}/team/invites`, { method: 'POST', headers: { origin: 'https://evil.example' }, json: { email: 'phished2@otp.chorus', role: 'member' } });
      expect(again.status).toBe(201);
    } finally {
      process.env.APP_URL = appUrl;
      resetConfig();
    }
    const second = (await rt.outbox.list()).find((m) => m.to === 'phished2@otp.chorus' && m.kind === 'invite');
    expect(second?.text).toContain('Sign in at Chorus with this email address');
    expect(second?.text).not.toContain('evil');
  });

  it("another org's admin cannot invite into this org (404) and no email goes out", async () => {
    const outsiderEmail = 'outsider@otp.chorus';
    const sub = await rt.createUser(outsiderEmail, rt.password);
    await seedDemo({ orgName: 'Other Co', admin: { email: outsiderEmail, sub, name: 'Outsider' }, member: { email: 'm2@otp.chorus', sub: 'x', name: 'M2' }, phone: { phone_number_id: '444000778', display_phone_number: '15554440078' } });
    const outsider = await rt.signIn(outsiderEmail);
    const r = await rt.api(outsider, `/api/orgs/${rt.orgId}/team/invites`, { method: 'POST', json: { email: 'victim@otp.chorus', role: 'admin' } });
    expect(r.status).toBe(404);
    expect((await rt.outbox.list()).some((m) => m.to === 'victim@otp.chorus')).toBe(false);
  });
});

describe('local outbox page', () => {
  it('lists the sent emails newest first, with their text, and config.json points at it', async () => {
    const html = await (await fetch(`${base}/_local/outbox`)).text();
    const newest = (await rt.outbox.list())[0]!;
    expect(html).toContain('Local outbox');
    const firstShown = /data-testid="outbox-message" data-to="([^"]+)"/.exec(html)?.[1];
    expect(firstShown).toBe(newest.to);
    const code = await codeFor('new.person@otp.chorus');
    expect(html).toContain(`Your Chorus sign-in code is ${code}`);
    const cfg = (await (await fetch(`${base}/config.json`)).json()) as { localOutboxUrl?: string; oauth?: unknown };
    expect(cfg.localOutboxUrl).toBe('/_local/outbox');
    expect(cfg.oauth).toBeUndefined();
  });
});
