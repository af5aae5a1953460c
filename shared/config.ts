import { z } from 'zod';
import { QUEUE_URL_ENV, type QueueUrlEnv } from '../events/catalog.ts';

/**
 * Runtime configuration, parsed once per process (cold start) from the environment.
 * The same variables are set by CDK on each Lambda and by the local runtime (scripts/local) for
 * the handlers it runs in-process. Every AWS client honours `AWS_ENDPOINT_URL`.
 */
const ConfigSchema = z.object({
  TABLE_NAME: z.string().default('chorus'),
  AWS_REGION: z.string().default('us-east-1'),
  AWS_ENDPOINT_URL: z.string().optional(),
  /** Cognito issuer, e.g. `https://cognito-idp.{region}.amazonaws.com/{pool}`; locally cognito-local's. */
  COGNITO_ISSUER: z.string().default(''),
  /** JWKS URL of the pool; defaults to `${COGNITO_ISSUER}/.well-known/jwks.json`. */
  COGNITO_JWKS_URL: z.string().optional(),
  /** The JWKS itself (JSON `{ keys: [...] }`), instead of fetching a URL: the local runtime's per-data-dir key. */
  COGNITO_JWKS: z.string().optional(),
  /** HMAC-SHA-256 key of stored email code hashes (shared/auth/otp.ts); AWS: a Secrets Manager secret of the auth stack, locally generated once per data dir. */
  OTP_HMAC_KEY: z.string().default(''),
  /**
   * issue 42 §4: the root secret of masked contact and chat ids (shared/contact/contact-id.ts).
   * Locally generated once per data dir (`<data dir>/masked-id-key`); in AWS leave unset and give
   * MASKED_ID_KEY_SECRET_ARN, a Secrets Manager secret of the data stack read once at cold start.
   */
  MASKED_ID_KEY: z.string().default(''),
  MASKED_ID_KEY_SECRET_ARN: z.string().default(''),
  COGNITO_CLIENT_ID: z.string().default(''),
  WHATSAPP_APP_SECRET: z.string().default(''),
  WHATSAPP_VERIFY_TOKEN: z.string().default(''),
  WHATSAPP_ACCESS_TOKEN: z.string().default(''),
  WHATSAPP_GRAPH_URL: z.string().default('https://graph.facebook.com'),
  WHATSAPP_GRAPH_VERSION: z.string().default('v24.0'),
  /**
   * issue 16: '1' when WHATSAPP_GRAPH_URL answers the send lookup by biz_opaque_callback_data — the
   * local Graph stand-in only (scripts/local/graph-standin.ts); Meta has no such call, so never set it in AWS.
   */
  WHATSAPP_GRAPH_SEND_LOOKUP: z.enum(['0', '1']).default('0'),
  /** issue 16: the WhatsApp Business Account id of the env phone (WHATSAPP_PHONE_NUMBER_ID), for the template sync; phones added on /settings/phones carry their own */
  WHATSAPP_WABA_ID: z.string().default(''),
  /** AES-256-GCM key (32 bytes, base64) for the per-phone Cloud API tokens at rest (shared/phone/token-crypto.ts); '' = adding phones with a token is refused. */
  PHONE_TOKEN_KEY: z.string().default(''),
  /** EventBridge bus name (AWS); the local runtime installs an in-process bus instead. */
  EVENT_BUS_NAME: z.string().default('chorus'),
  /** SQS queue URLs of the command and worker queues (AWS), one variable per queue named by events/catalog.ts (`env`). Locally the queue port is in-process. */
  ...(Object.fromEntries(Object.values(QUEUE_URL_ENV).map((name) => [name, z.string().default('')])) as Record<QueueUrlEnv, z.ZodDefault<z.ZodString>>),
  /** the WhatsApp Web session worker's id (its lease owner name); default: host name and process id */
  WA_WEB_WORKER_ID: z.string().default(''),
  /** most WhatsApp Web sessions one worker holds at once */
  WA_WEB_MAX_SESSIONS: z.coerce.number().int().positive().default(50),
  /** EventBridge Scheduler (AWS): the schedule group, the role it assumes to send to queues, and the target queue ARNs by command queue name (JSON object) */
  SCHEDULER_GROUP_NAME: z.string().default(''),
  SCHEDULER_ROLE_ARN: z.string().default(''),
  SCHEDULER_TARGET_QUEUE_ARNS: z.string().default('{}'),
  /** API Gateway management endpoint for PostToConnection, `https://{api}.execute-api.{region}.amazonaws.com/{stage}`. */
  WS_MANAGEMENT_URL: z.string().default(''),
  /** OpenSearch domain endpoint, `https://search-….{region}.es.amazonaws.com` (AWS). Locally the runtime installs an embedded index. */
  SEARCH_ENDPOINT: z.string().default(''),
  /** issue 19: AWS only — the name prefix of the queues whose status a platform org's /dashboard shows (the events stack's name) */
  QUEUE_NAME_PREFIX: z.string().default(''),
  /** S3 bucket of inbound media and thumbnails (AWS). Locally the runtime installs a file-backed blob store under `.data/blobs/`. */
  MEDIA_BUCKET: z.string().default(''),
  /** Sender of the product's emails (sign-in codes, invitations) through SES, a verified identity, e.g. `Chorus <no-reply@example.com>` (AWS). Locally the runtime installs a file outbox instead. */
  MAIL_FROM: z.string().default(''),
  /** The web app's address, e.g. `https://app.example.com`: links in emails ({APP_URL}/login). Never taken from a request. AWS: CDK context `appUrl` (required); locally the runtime's URL. */
  APP_URL: z.string().default(''),
  /** `1`: a use case publishes its outbox events right after its commit (low latency; the poller / stream consumer relays what that misses). `0`: only the poller / stream consumer does (events/outbox.ts). */
  OUTBOX_PUBLISH_ON_COMMIT: z.enum(['0', '1']).default('1'),
  /** Web push VAPID key pair (base64url, web-push's format). Locally from `<data dir>/vapid.json`; in AWS leave unset and give VAPID_SECRET_ARN. */
  VAPID_PUBLIC_KEY: z.string().default(''),
  VAPID_PRIVATE_KEY: z.string().default(''),
  /** Secrets Manager secret holding `{ publicKey, privateKey }` (AWS); filled once on first use when empty (shared/push/vapid.ts). */
  VAPID_SECRET_ARN: z.string().default(''),
  /** VAPID `sub` claim: a mailto: or https: contact for push services; default `mailto:push@` + APP_URL's host */
  VAPID_SUBJECT: z.string().default(''),
  /** Hosts a push endpoint may point at (comma-separated; `*.` prefix matches subdomains): the browsers' push services, so the server never posts to an address a user made up. */
  PUSH_ENDPOINT_HOSTS: z.string().default('fcm.googleapis.com,updates.push.services.mozilla.com,*.push.services.mozilla.com,*.notify.windows.com,web.push.apple.com,*.push.apple.com'),
  /** `1`: also accept http:// endpoints on loopback hosts listed above (local runtime and tests only). */
  PUSH_ALLOW_LOOPBACK_HTTP: z.enum(['0', '1']).default('0'),
  // --- issue 22: billing (Stripe) and maintenance ---
  /** Stripe secret key (`sk_…`); empty: checkout unavailable unless a billing port is installed (the local runtime's stand-in). */
  STRIPE_SECRET_KEY: z.string().default(''),
  /** Stripe webhook signing secret (`whsec_…`) of POST /webhooks/billing; locally generated once per data dir. */
  STRIPE_WEBHOOK_SECRET: z.string().default(''),
  /** The two special organizations never blocked by maintenance (spec §4), comma-separated org ids. */
  MAINTENANCE_EXEMPT_ORG_IDS: z.string().default(''),
  /** Where the trial-extension 'gtm' notification goes (spec §7 POST /api/slack url): a Slack incoming webhook; empty: logged only. */
  GTM_NOTIFY_URL: z.string().default(''),
  /** GET /incident's source: a JSON file (locally `<dataDir>/incident.json`, `npm run incident`) or a URL answering `{ betterstack, featurebase }`. */
  INCIDENT_FILE: z.string().default(''),
  INCIDENT_URL: z.string().default(''),
  // --- issue 18: AI agent ---
  /** answering adapter of the AI agent (shared/ai/answer-port.ts): 'local' (embedded ranker, offline) or 'bedrock' (AWS) */
  AI_ADAPTER: z.enum(['local', 'bedrock']).default('local'),
  /** Bedrock embeddings model id (retrieval) */
  AI_BEDROCK_EMBED_MODEL: z.string().default('amazon.titan-embed-text-v2:0'),
  /** Bedrock text model id (phrasing the answer from the retrieved pairs, Converse API) */
  AI_BEDROCK_TEXT_MODEL: z.string().default('amazon.nova-lite-v1:0'),
  LOG_LEVEL: z.enum(['debug', 'info', 'warn', 'error', 'silent']).default('info'),
});

export type Config = z.infer<typeof ConfigSchema>;

let cached: Config | undefined;

/** The parsed configuration (cached). Throws a ZodError at start when a variable is malformed. */
export function config(): Config {
  cached ??= ConfigSchema.parse(process.env);
  return cached;
}

/** Drop the cache: the local runtime and tests call this after setting env. */
export function resetConfig(): void {
  cached = undefined;
}
