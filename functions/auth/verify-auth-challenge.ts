import type { VerifyAuthChallengeResponseTriggerEvent } from 'aws-lambda';
import { verifyOtp } from '../../shared/auth/otp.ts';

/**
 * Cognito VerifyAuthChallengeResponse trigger: the answer is right only when it matches the email's
 * latest code, the code is not expired (10 min), not used, and has not had too many wrong answers
 * (shared/auth/otp.rules.ts). A wrong answer counts an attempt on the code and a failure of the
 * email; 10 failures within an hour lock the email's code sign-in for an hour, and while locked
 * every answer is wrong (shared/auth/otp.ts verifyOtp).
 */
export async function handler(event: VerifyAuthChallengeResponseTriggerEvent): Promise<VerifyAuthChallengeResponseTriggerEvent> {
  const email = event.request.userAttributes.email ?? '';
  event.response.answerCorrect = !event.request.userNotFound && !!email && (await verifyOtp(email, event.request.challengeAnswer ?? '', Date.now())) === 'ok';
  return event;
}
