/**
 * The Cognito user pool's Lambda triggers (custom auth: email one-time code sign-in), as handler
 * references (`file#export`, like functions/routes.ts). Read by the CDK auth stack (which attaches
 * them to the pool) and by the local Cognito stand-in (scripts/local/cognito-auth.ts, which runs the
 * same handlers in-process), so the two cannot drift.
 */
export const AUTH_TRIGGERS = {
  defineAuthChallenge: 'functions/auth/define-auth-challenge.ts#handler',
  createAuthChallenge: 'functions/auth/create-auth-challenge.ts#handler',
  verifyAuthChallengeResponse: 'functions/auth/verify-auth-challenge.ts#handler',
} as const;

export type AuthTrigger = keyof typeof AUTH_TRIGGERS;
