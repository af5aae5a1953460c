import { z } from 'zod';
import { httpHandler } from '../../lib/http.ts';
import { setPasswordAfterOtp } from '../../../shared/user/password.ts';

const SetPasswordInput = z.object({ password: z.string().min(1, 'required').max(256) }).strict();

/**
 * PUT /api/me/password `{ password }` -> `{ password_set: true }`: set a password without the current one, allowed for
 * 15 minutes after an email-code sign-in (shared/user/password.ts). 400 with the unmet rules, 403
 * when the current password is needed.
 */
export const handler = httpHandler({ body: SetPasswordInput }, async ({ claims, body }) => {
  await setPasswordAfterOtp(claims, body.password, Date.now());
  return { body: { password_set: true } };
});
