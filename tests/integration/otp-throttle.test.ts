import { createHash, createHmac } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestRuntime, type TestRuntime } from '../factories/runtime.ts';
import { db } from '../../shared/db/service.ts';
import { otpState, prepareOtp, sendOtp, verifyOtp } from '../../shared/auth/otp.ts';
import { OTP_LOCKOUT, OTP_MAX_ATTEMPTS, OTP_RESEND_MS, OTP_THROTTLES } from '../../shared/auth/otp.rules.ts';
import { isAppError } from '../../shared/errors.ts';
import { otpCodeFor, wrongCodeOf } from '../factories/otp.ts';

/**
 * Email code throttles and lockout (issue 11 §8) on the real local runtime: counters live in the
 * table (AuthThrottle rows with a TTL), written conditionally. The domain calls take the clock
 * (epoch ms) as a parameter, so windows and locks are crossed without sleeping; the HTTP and
 * Cognito paths are checked with the real clock inside one window.
 */
let rt: TestRuntime;
let base: string;

const prepare = (email: string) => fetch(`${base}/api/auth/otp/prepare`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ email }) });

async function cognito(target: string, body: unknown): Promise<{ status: number; body: { __type?: string; message?: string; ChallengeName?: string } }> {
  const r = await fetch(`${base}/cognito/`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-amz-json-1.1', 'x-amz-target': `AWSCognitoIdentityProviderService.${target}` },
    body: JSON.stringify(body),
  });
  return { status: r.status, body: (await r.json()) as { __type?: string; message?: string } };
}

const codeFor = (email: string) => otpCodeFor(rt, email);
const wrongOf = wrongCodeOf;

/** The AppError a call throws (fails the test when it does not throw one). */
async function refusal(p: Promise<unknown>): Promise<{ code: string; status: number; message: string }> {
  try {
    await p;
  } catch (e) {
    if (isAppError(e)) return { code: e.code, status: e.status, message: e.message };
    throw e;
  }
  throw new Error('expected a refusal');
}

beforeAll(async () => {
  rt = await startTestRuntime();
  base = `http://127.0.0.1:${rt.port}`;
});
afterAll(async () => rt?.cleanup());

describe('prepare (creates users): per email and per address', () => {
  it(`per email: ${OTP_THROTTLES.prepareEmail.max} an hour over HTTP, then 429 with the field and plain words`, async () => {
    const email = 'sprayed@throttle.chorus';
    for (let i = 0; i < OTP_THROTTLES.prepareEmail.max; i++) expect((await prepare(email)).status, `prepare ${i + 1}`).toBe(204);
    const r = await prepare(email);
    expect(r.status).toBe(429);
    const body = (await r.json()) as { error: { code: string; message: string; details: Array<{ field: string; reason: string }> } };
    expect(body.error.code).toBe('otp.throttled');
    expect(body.error.message).toMatch(/^Too many sign-in code requests\. Please try again in \d+ minutes?\.$/);
    expect(body.error.details).toEqual([{ field: 'email', reason: body.error.message }]);
    // the counter is a table row with a TTL past its window
    const row = (await db().entities.authThrottle.get({ key: `prepare-email#${email}` }).go()).data!;
    expect(row.count).toBe(OTP_THROTTLES.prepareEmail.max);
    expect(row.expires_at * 1000).toBeGreaterThanOrEqual(row.window_start + OTP_THROTTLES.prepareEmail.windowMs);
    // another address is not affected
    expect((await prepare('someone.else@throttle.chorus')).status).toBe(204);
  });

  it(`per address: ${OTP_THROTTLES.prepareAddress.max} an hour whatever the emails, then refused until the window ends`, async () => {
    const t0 = Date.now();
    const address = '198.51.100.7';
    for (let i = 0; i < OTP_THROTTLES.prepareAddress.max; i++) await prepareOtp(`spray${i}@throttle.chorus`, address, t0 + i);
    const refused = await refusal(prepareOtp('one.more@throttle.chorus', address, t0 + 60_000));
    expect(refused).toMatchObject({ code: 'otp.throttled', status: 429 });
    expect(refused.message).toContain('in 59 minutes');
    // another address is not affected; the same one is again when the hour has passed
    await prepareOtp('one.more@throttle.chorus', '198.51.100.8', t0 + 60_000);
    await prepareOtp('later@throttle.chorus', address, t0 + OTP_THROTTLES.prepareAddress.windowMs);
  });
});

describe('request (a code mailed): per email', () => {
  it(`${OTP_THROTTLES.requestEmail.max} codes an hour (each 60 s apart), then refused until the hour has passed`, async () => {
    const email = 'mailbomb@throttle.chorus';
    const t0 = Date.now();
    for (let i = 0; i < OTP_THROTTLES.requestEmail.max; i++) await sendOtp(email, t0 + i * OTP_RESEND_MS);
    const at = t0 + OTP_THROTTLES.requestEmail.max * OTP_RESEND_MS;
    const refused = await refusal(sendOtp(email, at));
    expect(refused).toMatchObject({ code: 'otp.throttled', status: 429 });
    expect((await rt.outbox.list()).filter((m) => m.to === email)).toHaveLength(OTP_THROTTLES.requestEmail.max);
    await sendOtp(email, t0 + OTP_THROTTLES.requestEmail.windowMs);
    expect((await rt.outbox.list()).filter((m) => m.to === email)).toHaveLength(OTP_THROTTLES.requestEmail.max + 1);
  });
});

describe(`verify: ${OTP_LOCKOUT.max} wrong codes within an hour lock code sign-in for an hour`, () => {
  it('locks across codes, refuses even the right code and new codes, says so in plain words, and ends after the hour', async () => {
    const email = 'guesser@throttle.chorus';
    expect((await prepare(email)).status).toBe(204);
    const t0 = Date.now();
    let failures = 0;
    let round = 0;
    // each code survives OTP_MAX_ATTEMPTS wrong answers; a new code comes 60 s later
    while (failures < OTP_LOCKOUT.max - 1) {
      const at = t0 + round++ * OTP_RESEND_MS;
      await sendOtp(email, at);
      const code = await codeFor(email);
      for (let i = 0; i < OTP_MAX_ATTEMPTS && failures < OTP_LOCKOUT.max - 1; i++, failures++) expect(await verifyOtp(email, wrongOf(code), at + 1000)).toBe('wrong');
    }
    const at = t0 + round * OTP_RESEND_MS;
    expect(await otpState(email, at)).toBe('ok');
    const code = await codeFor(email);
    expect(await verifyOtp(email, wrongOf(code), at)).toBe('wrong');
    // locked now: the right code is refused, and no new code is sent
    expect(await verifyOtp(email, code, at + 1)).toBe('locked');
    expect(await otpState(email, at + 1)).toBe('locked');
    const refused = await refusal(sendOtp(email, at + OTP_RESEND_MS));
    expect(refused).toMatchObject({ code: 'otp.locked', status: 429 });
    expect(refused.message).toBe(
      'Too many wrong codes for this email. Signing in with an email code is locked for an hour; try again in 59 minutes, or sign in with your password.',
    );
    // through Cognito (as the web app asks for a code): the trigger's refusal carries the words
    const asked = await cognito('InitiateAuth', { AuthFlow: 'CUSTOM_AUTH', ClientId: rt.clientId, AuthParameters: { USERNAME: email } });
    expect(asked.status).toBe(400);
    expect(asked.body.__type).toBe('UserLambdaValidationException');
    expect(asked.body.message).toMatch(/^CreateAuthChallenge failed with error Too many wrong codes for this email\./);
    // the lock row carries its end and a TTL past it
    const row = (await db().entities.authThrottle.get({ key: `verify-fail#${email}` }).go()).data!;
    expect(row.locked_until).toBe(at + OTP_LOCKOUT.lockMs);
    expect(row.expires_at * 1000).toBeGreaterThanOrEqual(row.locked_until!);
    // an hour later: a new code, and it signs in
    const after = at + OTP_LOCKOUT.lockMs;
    await sendOtp(email, after);
    expect(await verifyOtp(email, await codeFor(email), after + 1000)).toBe('ok');
  });

  it('a mistyped code or two never comes near the lock', async () => {
    const email = 'typo@throttle.chorus';
    await prepare(email);
    const t0 = Date.now();
    await sendOtp(email, t0);
    const code = await codeFor(email);
    expect(await verifyOtp(email, wrongOf(code), t0 + 1)).toBe('wrong');
    expect(await verifyOtp(email, wrongOf(code), t0 + 2)).toBe('wrong');
    expect(await verifyOtp(email, code, t0 + 3)).toBe('ok');
  });
});

describe('code hashes', () => {
  it('are an HMAC under the data dir key, not a plain hash of email and code', async () => {
    const email = 'hashed@throttle.chorus';
    await prepare(email);
    await sendOtp(email, Date.now());
    const code = await codeFor(email);
    const row = (await db().entities.otpCode.get({ email }).go()).data!;
    const key = (await readFile(join(dirname(rt.outbox.dir), 'otp-hmac-key'), 'utf8')).trim();
    expect(key).toBe(rt.env.OTP_HMAC_KEY);
    expect(Buffer.from(key, 'base64')).toHaveLength(32);
    expect(row.code_hash).toBe(createHmac('sha256', key).update(`${email}:${code}`).digest('hex'));
    expect(row.code_hash).not.toBe(createHash('sha256').update(`${email}:${code}`).digest('hex'));
  });
});
