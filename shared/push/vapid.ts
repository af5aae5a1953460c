/**
 * The VAPID key pair of this deployment (RFC 8292; issue 21). Browsers bind a push subscription to
 * the public key they subscribed with, so the pair must stay the same for the deployment's life:
 * - locally: `VAPID_PUBLIC_KEY` / `VAPID_PRIVATE_KEY`, set by the runtime from `<data dir>/vapid.json`
 *   (generated once, scripts/local/runtime.ts);
 * - in AWS: the Secrets Manager secret `VAPID_SECRET_ARN` (JSON `{ publicKey, privateKey }`). The
 *   stack creates it without a value worth using; the first function that needs the keys generates
 *   a pair with web-push and stores it with a fixed ClientRequestToken, so two cold starts racing
 *   store one version (the loser's PutSecretValue fails and it reads the winner's pair).
 * Read once per process (cold start).
 */
import webpush from 'web-push';
import { GetSecretValueCommand, PutSecretValueCommand, SecretsManagerClient } from '@aws-sdk/client-secrets-manager';
import { config } from '../config.ts';
import { traced } from '../tracing.ts';

export interface VapidKeys {
  /** base64url, uncompressed P-256 point (65 bytes): the browser's applicationServerKey */
  publicKey: string;
  /** base64url, 32 bytes */
  privateKey: string;
  /** the VAPID `sub` contact (mailto: or https:) */
  subject: string;
}

/** The idempotency token of the one generated version. */
const INITIAL_VERSION_TOKEN = 'chorus-vapid-initial-0000000000001';

let cached: Promise<VapidKeys> | undefined;

const subjectOf = (): string => {
  const c = config();
  if (c.VAPID_SUBJECT) return c.VAPID_SUBJECT;
  try {
    return `mailto:push@${new URL(c.APP_URL).hostname || 'chorus.local'}`;
  } catch {
    return 'mailto:push@chorus.local';
  }
};

const validPair = (v: unknown): v is { publicKey: string; privateKey: string } =>
  !!v && typeof (v as { publicKey?: unknown }).publicKey === 'string' && typeof (v as { privateKey?: unknown }).privateKey === 'string' && (v as { publicKey: string }).publicKey.length > 40;

async function fromSecret(arn: string): Promise<{ publicKey: string; privateKey: string }> {
  const sm = traced(new SecretsManagerClient({ region: config().AWS_REGION, endpoint: config().AWS_ENDPOINT_URL }));
  const read = async () => {
    const r = await sm.send(new GetSecretValueCommand({ SecretId: arn }));
    try {
      return JSON.parse(r.SecretString ?? '') as unknown;
    } catch {
      return null;
    }
  };
  const stored = await read();
  if (validPair(stored)) return stored;
  const pair = webpush.generateVAPIDKeys();
  try {
    await sm.send(new PutSecretValueCommand({ SecretId: arn, SecretString: JSON.stringify(pair), ClientRequestToken: INITIAL_VERSION_TOKEN }));
  } catch {
    // another cold start stored its pair first: use that one
  }
  const after = await read();
  if (!validPair(after)) throw new Error('VAPID keys could not be read from or stored in Secrets Manager');
  return after;
}

/**
 * The deployment's VAPID keys.
 * @throws Error when neither VAPID_PUBLIC_KEY/VAPID_PRIVATE_KEY nor VAPID_SECRET_ARN is configured
 */
export function vapidKeys(): Promise<VapidKeys> {
  cached ??= (async () => {
    const c = config();
    if (c.VAPID_PUBLIC_KEY && c.VAPID_PRIVATE_KEY) return { publicKey: c.VAPID_PUBLIC_KEY, privateKey: c.VAPID_PRIVATE_KEY, subject: subjectOf() };
    if (c.VAPID_SECRET_ARN) return { ...(await fromSecret(c.VAPID_SECRET_ARN)), subject: subjectOf() };
    throw new Error('web push is not configured: set VAPID_PUBLIC_KEY and VAPID_PRIVATE_KEY, or VAPID_SECRET_ARN');
  })();
  cached.catch(() => (cached = undefined));
  return cached;
}

/** Forget the cached keys (tests and the local runtime after changing env). */
export function resetVapidKeys(): void {
  cached = undefined;
}

/** A fresh key pair in web-push's format (base64url). */
export const generateVapidKeys = (): { publicKey: string; privateKey: string } => webpush.generateVAPIDKeys();
