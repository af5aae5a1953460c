import type { TestRuntime } from './runtime.ts';

/** The code of the newest sign-in email to `email` in the runtime's outbox. @throws when none was mailed */
export async function otpCodeFor(rt: Pick<TestRuntime, 'outbox'>, email: string): Promise<string> {
  const mail = (await rt.outbox.list()).find((m) => m.to === email && m.kind === 'otp');
  const code = /code is (\d{6})/.exec(mail?.text ?? '')?.[1];
  if (!code) throw new Error(`no code mailed to ${email}`);
  return code;
}

/** A 6-digit code that is certainly not `code`. */
export const wrongCodeOf = (code: string) => String((Number(code) + 1) % 1_000_000).padStart(6, '0');
