import type { DefineAuthChallengeTriggerEvent } from 'aws-lambda';
import { otpState } from '../../shared/auth/otp.ts';
import { nextAuthStep } from '../../shared/auth/otp.rules.ts';

/**
 * Cognito DefineAuthChallenge trigger of the email one-time code sign-in (CUSTOM_AUTH): first round
 * a CUSTOM_CHALLENGE (CreateAuthChallenge sends the code), a right answer issues tokens, a wrong one
 * gets another round while the code is live (shared/auth/otp.rules.ts `nextAuthStep`).
 *
 * Why custom auth rather than Cognito's native email OTP (USER_AUTH / EMAIL_OTP): the native one
 * needs the Essentials feature plan and SES set up for Cognito, and it does not let us enforce
 * spec §9's 'once per 60 seconds' with spec §8's message, nor send the mail through our own mail
 * port (the local outbox); and with custom auth the local stand-in runs exactly these handlers
 * (cognito-local has neither flow). The rules stay in shared/ and are tested once.
 */
export async function handler(event: DefineAuthChallengeTriggerEvent): Promise<DefineAuthChallengeTriggerEvent> {
  const email = event.request.userAttributes.email ?? '';
  const session = event.request.session ?? [];
  const last = session[session.length - 1];
  const live = event.request.userNotFound || !email ? 'missing' : last && !last.challengeResult ? await otpState(email, Date.now()) : 'ok';
  const step = event.request.userNotFound && session.length > 0 ? { kind: 'fail' as const } : nextAuthStep(session, live);
  event.response.issueTokens = step.kind === 'tokens';
  event.response.failAuthentication = step.kind === 'fail';
  if (step.kind === 'challenge') event.response.challengeName = 'CUSTOM_CHALLENGE';
  return event;
}
