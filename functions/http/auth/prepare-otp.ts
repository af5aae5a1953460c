import middy, { type MiddlewareObj } from '@middy/core';
import type { APIGatewayProxyEventV2, APIGatewayProxyResultV2 } from 'aws-lambda';
import { z } from 'zod';
import { bodyLimit, errorHandler, observability, validateInput, withRequestLog } from '../../lib/http.ts';
import { prepareOtp } from '../../../shared/auth/otp.ts';

export const PrepareOtpInput = z.object({ email: z.string().trim().toLowerCase().email('must be an email address').max(254) });

/**
 * POST /api/auth/otp/prepare `{ email }` -> 204 (public, before sign-in). Spec §7 'send an email
 * one-time code (user creation allowed)': makes sure the email has a user in the pool (created
 * confirmed, with a password nobody knows: shared/ports/identity.ts), so the custom auth flow that
 * follows (Amplify `signIn` with CUSTOM_WITHOUT_SRP; functions/auth/*) can send the code. Always 204
 * for a valid email, so it says nothing about who has an account. 400 with the field for a bad email;
 * 429 otp.throttled (the message says when to try again) past the per-address and per-email limits
 * (shared/auth/otp.ts prepareOtp; the address is API Gateway's sourceIp).
 */
type Ctx = ReturnType<typeof errorHandler> extends MiddlewareObj<APIGatewayProxyEventV2, APIGatewayProxyResultV2, Error, infer C> ? C : never;

export const handler = withRequestLog(
  middy<APIGatewayProxyEventV2, APIGatewayProxyResultV2, Error, Ctx>()
  .use(observability())
  .use(errorHandler())
  .use(bodyLimit(4096))
  .use(validateInput({ body: PrepareOtpInput }))
  .handler(async (event, context) => {
    const { email } = context.chorus.body as z.infer<typeof PrepareOtpInput>;
    await prepareOtp(email, event.requestContext.http?.sourceIp ?? '', Date.now());
    return { statusCode: 204, headers: { 'cache-control': 'no-store' } };
  }),
);
