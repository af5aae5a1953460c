import { randomBytes } from 'node:crypto';
import {
  AdminCreateUserCommand,
  AdminGetUserCommand,
  AdminSetUserPasswordCommand,
  CognitoIdentityProviderClient,
  type AttributeType,
} from '@aws-sdk/client-cognito-identity-provider';
import { config } from '../config.ts';
import { traced } from '../tracing.ts';

/**
 * Identity port (architecture §3 'identity'): the user pool as the invite flow and the one-time
 * code sign-in need it. AWS: the Cognito user pool of COGNITO_ISSUER (its last path segment is the
 * pool id), through AdminGetUser / AdminCreateUser / AdminSetUserPassword. Local: the same adapter
 * pointed at cognito-local by the runtime (scripts/local/runtime.ts), with its admin writes
 * serialised. A new user is created confirmed, with a verified email and a random password nobody
 * knows (so it signs in by email code, or Google, until it sets its own), and Cognito's own
 * invitation mail suppressed: Chorus sends its invitations through the mail port.
 */
export interface IdentityPort {
  /**
   * Make sure a user with this email exists in the pool (created with a verified email when new).
   * @returns the user's `sub` and whether it was created now
   */
  ensureUser(email: string): Promise<{ sub: string; created: boolean }>;
  /** Set the user's password (permanent), without the current one: AdminSetUserPassword. */
  setPassword(email: string, password: string): Promise<void>;
}

let port: IdentityPort | undefined;

/** Install an adapter (the local runtime; undefined: back to the default). */
export function setIdentityPort(p: IdentityPort | undefined): void {
  port = p;
}

/** The installed adapter, else Cognito configured from env. */
export function identityPort(): IdentityPort {
  port ??= cognitoIdentity({
    client: traced(new CognitoIdentityProviderClient({ region: config().AWS_REGION })),
    userPoolId: config().COGNITO_ISSUER.split('/').pop() ?? '',
  });
  return port;
}

const subOf = (attrs?: AttributeType[]) => attrs?.find((a) => a.Name === 'sub')?.Value ?? '';

/**
 * The Cognito adapter.
 * @param opts.serial runs each admin call (cognito-local corrupts its store on overlapping writes)
 */
export function cognitoIdentity(opts: {
  client: CognitoIdentityProviderClient;
  userPoolId: string;
  serial?: <T>(fn: () => Promise<T>) => Promise<T>;
}): IdentityPort {
  const run = opts.serial ?? (<T>(fn: () => Promise<T>) => fn());
  return {
    ensureUser: (email) =>
      run(async () => {
        try {
          const u = await opts.client.send(new AdminGetUserCommand({ UserPoolId: opts.userPoolId, Username: email }));
          return { sub: subOf(u.UserAttributes), created: false };
        } catch (e) {
          if ((e as { name?: string }).name !== 'UserNotFoundException') throw e;
        }
        const created = await opts.client.send(
          new AdminCreateUserCommand({
            UserPoolId: opts.userPoolId,
            Username: email,
            MessageAction: 'SUPPRESS',
            UserAttributes: [
              { Name: 'email', Value: email },
              { Name: 'email_verified', Value: 'true' },
            ],
          }),
        );
        // confirmed with a password nobody knows (meets the pool's policy: upper, lower, digit, >= 6)
        await opts.client.send(
          new AdminSetUserPasswordCommand({ UserPoolId: opts.userPoolId, Username: email, Password: `Aa1-${randomBytes(24).toString('base64url')}`, Permanent: true }),
        );
        return { sub: subOf(created.User?.Attributes), created: true };
      }),
    setPassword: (email, password) =>
      run(async () => {
        await opts.client.send(new AdminSetUserPasswordCommand({ UserPoolId: opts.userPoolId, Username: email, Password: password, Permanent: true }));
      }),
  };
}
