import { config } from '../config.ts';
import { AppError } from '../errors.ts';
import { traced } from '../tracing.ts';

/**
 * Mail port (architecture §3 style: one interface, an AWS and a local adapter): the product's own
 * emails, i.e. sign-in codes (shared/auth/otp.ts) and team invitations (shared/member/team.ts).
 * AWS: Amazon SES v2 `SendEmail` from `MAIL_FROM` (a verified SES identity). Local: the runtime
 * installs a file outbox under `<dataDir>/outbox/` (scripts/local/outbox.ts), readable at
 * `/_local/outbox`.
 */
export interface MailMessage {
  to: string;
  subject: string;
  /** plain text body (every adapter sends it; no HTML, so the local page shows exactly what was sent) */
  text: string;
  /** what the mail is, for logs and the local outbox: 'otp' | 'invite' */
  kind: string;
}

export interface MailPort {
  /** @throws when the message could not be handed to the mail service */
  send(message: MailMessage): Promise<void>;
}

let port: MailPort | undefined;

/** Install an adapter (the local runtime's outbox; undefined: back to the default). */
export function setMailPort(p: MailPort | undefined): void {
  port = p;
}

/**
 * The installed adapter, else SES from MAIL_FROM.
 * @throws AppError 503 mail.unavailable when neither is configured
 */
export async function mailPort(): Promise<MailPort> {
  if (port) return port;
  const from = config().MAIL_FROM;
  if (!from) throw new AppError('mail.unavailable', 'Email cannot be sent right now. Please try again later.', { status: 503 });
  const { SESv2Client, SendEmailCommand } = await import('@aws-sdk/client-sesv2');
  const client = traced(new SESv2Client({ region: config().AWS_REGION }));
  port = {
    async send(m) {
      await client.send(
        new SendEmailCommand({
          FromEmailAddress: from,
          Destination: { ToAddresses: [m.to] },
          Content: { Simple: { Subject: { Data: m.subject, Charset: 'UTF-8' }, Body: { Text: { Data: m.text, Charset: 'UTF-8' } } } },
          EmailTags: [{ Name: 'kind', Value: m.kind }],
        }),
      );
    },
  };
  return port;
}
