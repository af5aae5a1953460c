import type { CreateAuthChallengeTriggerEvent } from 'aws-lambda';
import { config } from '../../shared/config.ts';
import { currentOtp, sendOtp } from '../../shared/auth/otp.ts';

/**
 * Cognito CreateAuthChallenge trigger: the first round of a sign-in sends a new code by email
 * (shared/auth/otp.ts `sendOtp`: refused within 60 s of the last one with spec §8's message, which
 * Cognito returns as `UserLambdaValidationException: CreateAuthChallenge failed with error <message>.`;
 * likewise past 10 codes an hour, or while the email is locked after repeated wrong codes);
 * a retry round after a wrong answer sends nothing and re-states the same code's times.
 * Public parameters (what the web app sees): email, expires_at and resend_at (epoch ms), and
 * `retry: 'true'` on a retry round. The code itself is never in the challenge: it is checked
 * against the stored hash.
 */
export async function handler(event: CreateAuthChallengeTriggerEvent): Promise<CreateAuthChallengeTriggerEvent> {
  const email = event.request.userAttributes.email ?? '';
  const retry = (event.request.session ?? []).length > 0;
  event.response.challengeMetadata = 'EMAIL_OTP';
  event.response.privateChallengeParameters = {};
  if (event.request.userNotFound || !email) {
    // no such user: answer like a real one, send nothing (the web app creates users before asking)
    event.response.publicChallengeParameters = { email, retry: String(retry) };
    return event;
  }
  const sent = retry ? await currentOtp(email) : await sendOtp(email, Date.now(), config().APP_URL);
  event.response.publicChallengeParameters = {
    email,
    expires_at: String(sent?.expires_at ?? 0),
    resend_at: String(sent?.resend_at ?? 0),
    retry: String(retry),
  };
  return event;
}
