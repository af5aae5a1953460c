/**
 * What each Lambda may touch: table access, publishing to the bus, sending to command queues,
 * PostToConnection, Cognito settings, which WhatsApp settings it receives, search access and
 * creating EventBridge Scheduler schedules, and the media bucket.
 * `wireFunction` turns a profile into environment variables (the names shared/config.ts reads)
 * and IAM grants, so every role holds only what its profile lists.
 *
 * Defaults come from the surface (HTTP/WebSocket handler or queue consumer) and are deliberately
 * broad inside that surface (any handler may write the table, publish events and enqueue
 * commands); the overrides below narrow the functions whose job is known to be small (read from
 * their code: when such a handler grows, widen its entry here), and hand the WhatsApp settings
 * and the search domain (default 'none' on every surface) and the scheduler (default off) only to
 * the functions that use them.
 * The overrides are keyed by the handler reference of functions/routes.ts and events/catalog.ts;
 * infra/app.test.ts fails when a key no longer matches a handler, so a renamed handler cannot
 * silently fall back to the defaults.
 */
import { Fn, Stack } from 'aws-cdk-lib';
import type * as dynamodb from 'aws-cdk-lib/aws-dynamodb';
import type * as events from 'aws-cdk-lib/aws-events';
import * as iam from 'aws-cdk-lib/aws-iam';
import type * as lambda from 'aws-cdk-lib/aws-lambda';
import type * as opensearch from 'aws-cdk-lib/aws-opensearchservice';
import type * as s3 from 'aws-cdk-lib/aws-s3';
import type * as secretsmanager from 'aws-cdk-lib/aws-secretsmanager';
import type * as scheduler from 'aws-cdk-lib/aws-scheduler';
import type * as sqs from 'aws-cdk-lib/aws-sqs';
import type { WebSocketStage } from 'aws-cdk-lib/aws-apigatewayv2';
import type { CommandQueueName } from '../events/catalog.ts';

export type Surface = 'http' | 'ws' | 'consumer';
export type WhatsAppSettingName = 'appSecret' | 'verifyToken' | 'accessToken' | 'graph' | 'phoneTokenKey';

export interface FunctionAccess {
  readonly table: 'none' | 'read' | 'readWrite';
  /** EVENT_BUS_NAME + events:PutEvents on the Chorus bus */
  readonly publishEvents: boolean;
  /** command queues it may send to (queue URL env var + sqs:SendMessage) */
  readonly enqueue: 'all' | readonly CommandQueueName[];
  /** WS_MANAGEMENT_URL + execute-api:ManageConnections on the WebSocket stage */
  readonly wsManagement: boolean;
  /** COGNITO_ISSUER / COGNITO_JWKS_URL / COGNITO_CLIENT_ID (token checks, e.g. on $connect) */
  readonly cognito: boolean;
  readonly whatsapp: readonly WhatsAppSettingName[];
  /** SEARCH_ENDPOINT + es:ESHttp* on the OpenSearch domain (see SEARCH_ACTIONS) */
  readonly search: 'none' | 'read' | 'readWrite';
  /**
   * SCHEDULER_GROUP_NAME / SCHEDULER_ROLE_ARN / SCHEDULER_TARGET_QUEUE_ARNS + create, update,
   * delete and get schedules in the Chorus group, and iam:PassRole of the scheduler role to
   * EventBridge Scheduler (see SCHEDULER_ACTIONS)
   */
  readonly scheduler: boolean;
  /**
   * MEDIA_BUCKET + object access on the media bucket: 'read' (s3:GetObject*, which presigned GET
   * URLs need), 'put' (s3:PutObject* only, which presigned upload PUTs need) or 'readWrite'
   * (read, put and delete)
   */
  readonly media: 'none' | 'read' | 'put' | 'readWrite';
  /** cognito-idp:AdminGetUser + AdminCreateUser + AdminSetUserPassword on the user pool of COGNITO_ISSUER (team invites, email code sign-in: shared/ports/identity.ts) */
  readonly cognitoAdmin?: boolean;
  /** MAIL_FROM + APP_URL + ses:SendEmail from the mail identity (shared/ports/mail.ts: sign-in codes, invitations) */
  readonly mail?: boolean;
  /** VAPID_SECRET_ARN + read of the web push key secret, and PutSecretValue to fill it once on first use (shared/push/vapid.ts) */
  readonly vapid?: boolean;
  /** issue 18: AI_ADAPTER=bedrock + bedrock:InvokeModel on the embeddings and text models of shared/config.ts (the AI agent's answering port, shared/ai/bedrock.ts) */
  readonly bedrock?: boolean;
  /** issue 19: QUEUE_NAME_PREFIX (the events stack's name) + sqs:ListQueues and sqs:GetQueueAttributes on its queues (shared/ops/sqs-queue-status.ts) */
  readonly queueStatus?: boolean;
}

/** issue 18: the Bedrock models the AI agent uses in AWS (defaults of shared/config.ts AI_BEDROCK_*). */
export const BEDROCK_MODELS = ['amazon.titan-embed-text-v2:0', 'amazon.nova-lite-v1:0'] as const;

/** What a `scheduler: true` function may do to schedules, on `schedule/<group>/*` only. */
export const SCHEDULER_ACTIONS = ['scheduler:CreateSchedule', 'scheduler:UpdateSchedule', 'scheduler:DeleteSchedule', 'scheduler:GetSchedule'] as const;

/**
 * OpenSearch HTTP actions per search access level, on the domain's subresources (`arn/*`).
 * 'read' includes POST because _search (and _msearch, _count) are POSTs with a query body.
 */
export const SEARCH_ACTIONS = {
  read: ['es:ESHttpGet', 'es:ESHttpHead', 'es:ESHttpPost'],
  readWrite: ['es:ESHttpGet', 'es:ESHttpHead', 'es:ESHttpPost', 'es:ESHttpPut', 'es:ESHttpDelete', 'es:ESHttpPatch'],
} as const;

const SURFACE_DEFAULTS: Record<Surface, FunctionAccess> = {
  http: { table: 'readWrite', publishEvents: true, enqueue: 'all', wsManagement: false, cognito: true, whatsapp: [], search: 'none', scheduler: false, media: 'none' },
  ws: { table: 'readWrite', publishEvents: true, enqueue: 'all', wsManagement: false, cognito: true, whatsapp: [], search: 'none', scheduler: false, media: 'none' },
  consumer: { table: 'readWrite', publishEvents: true, enqueue: 'all', wsManagement: false, cognito: false, whatsapp: [], search: 'none', scheduler: false, media: 'none' },
};

/** Narrower (or extra) access for specific handlers, keyed by handler reference. */
export const ACCESS_OVERRIDES: Record<string, Partial<FunctionAccess>> = {
  // GET hub.challenge: compares the verify token, touches nothing else.
  'functions/channels/whatsapp-cloud/verify-webhook.ts#handler': {
    table: 'none', publishEvents: false, enqueue: [], cognito: false, whatsapp: ['verifyToken'],
  },
  // Checks X-Hub-Signature-256, enqueues the raw body, answers 200 (work happens off the request path).
  'functions/channels/whatsapp-cloud/receive-webhook.ts#handler': {
    table: 'none', publishEvents: false, enqueue: ['whatsapp-inbound'], cognito: false, whatsapp: ['appSecret'],
  },
  // Stores inbound messages and statuses, publishes message events, hands senders' contacts to their queue; no Graph API call.
  'functions/consumers/whatsapp-inbound.ts#handler': { enqueue: ['contact-sightings'] },
  // Sends through the Graph API (reading a member's file from the bucket to upload it first), records the WhatsApp message id and status.
  // WhatsApp Web numbers' messages and reactions are handed to the session worker's FIFO queue instead.
  'functions/consumers/whatsapp-outbound.ts#handler': { enqueue: ['wa-web-commands'], whatsapp: ['accessToken', 'graph', 'phoneTokenKey'], media: 'read' },
  // Stores what WhatsApp Web sessions received (table, bus, senders' contacts to their queue), then asks the session worker for files and group metadata (its FIFO queue).
  'functions/consumers/wa-web-inbound.ts#handler': { enqueue: ['wa-web-commands', 'contact-sightings'] },
  // Reads connections, pushes to sockets, deletes gone connections.
  'functions/consumers/realtime-fanout.ts#handler': { enqueue: [], wsManagement: true },
  // Removing a member drops their connection rows and closes their sockets (DeleteConnection).
  'functions/http/team/remove-member.ts#handler': { wsManagement: true },
  // Verifies the ID token (?token=), checks membership, stores the connection.
  'functions/ws/connect.ts#handler': { publishEvents: false, enqueue: [] },
  // Forgets the connection.
  'functions/ws/disconnect.ts#handler': { publishEvents: false, enqueue: [], cognito: false },
  // Pings, and typing indicators: reads the sender's connection, the chat and members, pushes to the org's other sockets (deletes gone ones).
  'functions/ws/default.ts#handler': { publishEvents: false, enqueue: [], cognito: false, wsManagement: true },
  // Ticket list with free-text search: queries the search domain.
  'functions/http/tickets/list-tickets.ts#handler': { search: 'read' },
  // issue 20: the public API's ticket list (q = subject search) and the MCP server (search_tickets)
  'functions/http/v1/router.ts#handler': { search: 'read' },
  'functions/http/mcp/mcp.ts#handler': { search: 'read' },
  // the OpenAPI document is static
  'functions/http/v1/openapi.ts#handler': { table: 'none', publishEvents: false, enqueue: [], cognito: false },
  // Global search (issue 14): queries the search domain.
  'functions/http/search/search.ts#handler': { search: 'read' },
  // Keeps the search indexes in step with the table (creates indexes, index/bulk/delete); the table only for its dedupe receipts (functions/lib/dedupe.ts).
  'functions/consumers/search-indexing.ts#handler': { search: 'readWrite', table: 'readWrite', publishEvents: false, enqueue: [] },
  // The outbox relay: reads and deletes outbox rows (table) and publishes their events (bus); enqueues nothing.
  'functions/consumers/outbox-relay.ts#handler': { enqueue: [] },
  // Stamps first_response_at on tickets (table) and publishes ticket.updated; enqueues nothing.
  'functions/consumers/ticket-first-response.ts#handler': { enqueue: [] },
  // Marks flagged messages answered (table) and publishes message.updated; enqueues nothing.
  'functions/consumers/flag-responses.ts#handler': { enqueue: [] },
  // Tasks with a remind_at: create, move or cancel the task's reminder schedule.
  'functions/http/tasks/create-task.ts#handler': { scheduler: true },
  'functions/http/tasks/update-task.ts#handler': { scheduler: true },
  'functions/http/tasks/bulk-update-tasks.ts#handler': { scheduler: true },
  'functions/http/tasks/remind-in-task.ts#handler': { scheduler: true },
  // The reminder wake-up: a stale or repeating reminder is scheduled again or cancelled.
  'functions/consumers/task-reminders.ts#handler': { scheduler: true },
  // Snoozing chats schedules (or cancels) each chat's wake-up; the wake-up re-arms one that came early.
  'functions/http/chats/snooze-chats.ts#handler': { scheduler: true },
  'functions/consumers/chat-snooze.ts#handler': { scheduler: true },
  // Inbound media: resolves and downloads from the Graph API, stores file + thumbnail, patches the message, publishes message.updated.
  'functions/consumers/media-download.ts#handler': { media: 'readWrite', whatsapp: ['accessToken', 'graph', 'phoneTokenKey'], enqueue: [] },
  // Presigned PUT URLs for a member's file after a read of the chat.
  'functions/http/media/create-upload.ts#handler': { media: 'put', table: 'read', publishEvents: false, enqueue: [] },
  // Text and media messages: checks an uploaded file (head, read, sniff), writes its thumbnail, deletes a refused one.
  'functions/http/messages/send-message.ts#handler': { media: 'readWrite' },
  // Presigned GET URLs of a message's media after a read of the message.
  'functions/http/media/get-media-url.ts#handler': { media: 'read', table: 'read', publishEvents: false, enqueue: [] },
  // The media library: a Query of MediaItem rows and presigned GET URLs of their files.
  'functions/http/media/list-media.ts#handler': { media: 'read', table: 'read', publishEvents: false, enqueue: [] },
  // Bulk jobs: a job's progress and the CSV export only read; the consumer applies chat workflow writes and enqueues its next step.
  'functions/http/bulk/get-bulk-job.ts#handler': { table: 'read', publishEvents: false, enqueue: [] },
  'functions/http/bulk/export-chats.ts#handler': { table: 'read', publishEvents: false, enqueue: [] },
  'functions/http/bulk/create-bulk-job.ts#handler': { publishEvents: false, enqueue: ['chat-bulk'] },
  'functions/http/bulk/undo-bulk-job.ts#handler': { publishEvents: false, enqueue: ['chat-bulk'] },
  'functions/consumers/chat-bulk.ts#handler': { enqueue: ['chat-bulk'] },
  // Team invites: a pending Member row, for a new email a Cognito user, and the invitation email (SES).
  'functions/http/team/invite-member.ts#handler': { cognitoAdmin: true, mail: true, publishEvents: false, enqueue: [] },
  // Before an email code sign-in: creates the Cognito user of a new email (spec §7 'user creation allowed'); public, touches nothing else.
  'functions/http/me/set-password.ts#handler': { cognitoAdmin: true, publishEvents: false, enqueue: [] },
  'functions/http/auth/prepare-otp.ts#handler': { cognitoAdmin: true, table: 'none', publishEvents: false, enqueue: [], cognito: false },
  // checks the token with the Graph API and encrypts it (PHONE_TOKEN_KEY); never the global token
  'functions/http/phones/add-phone.ts#handler': { whatsapp: ['graph', 'phoneTokenKey'], publishEvents: false, enqueue: [] },
  // WhatsApp Web linking: writes the phone and session rows / reads the session; the worker does the rest
  'functions/http/phones/add-wa-web-phone.ts#handler': { publishEvents: false, enqueue: [] },
  'functions/http/phones/get-wa-web-session.ts#handler': { table: 'read', publishEvents: false, enqueue: [] },
  'functions/http/phones/relink-wa-web-session.ts#handler': { publishEvents: false, enqueue: [] },
  // --- issue 21: web push (the VAPID key secret; device rows in the table) ---
  'functions/consumers/web-push.ts#handler': { vapid: true, publishEvents: false, enqueue: [] },
  'functions/http/notifications/get-vapid-public-key.ts#handler': { vapid: true, table: 'read', publishEvents: false, enqueue: [] },
  'functions/http/notifications/send-test-push.ts#handler': { vapid: true, publishEvents: false, enqueue: [] },
  'functions/http/notifications/subscribe-device.ts#handler': { publishEvents: false, enqueue: [] },
  'functions/http/notifications/unsubscribe-device.ts#handler': { publishEvents: false, enqueue: [] },
  'functions/http/notifications/unsubscribe-all-for-device.ts#handler': { publishEvents: false, enqueue: [] },
  // --- issue 20: outbound webhooks ---
  // Fans events out into delivery rows (table) and first attempts (its queue); publishes nothing.
  'functions/consumers/webhook-dispatch.ts#handler': { publishEvents: false, enqueue: ['webhook-deliveries'] },
  // One attempt: sends over the internet, schedules the retry (scheduler), disables a failing endpoint and emails the admins (SES).
  'functions/consumers/webhook-deliveries.ts#handler': { publishEvents: false, enqueue: [], scheduler: true, mail: true },
  // Test events and replays put an attempt on the delivery queue.
  'functions/http/webhooks/send-test.ts#handler': { publishEvents: false, enqueue: ['webhook-deliveries'] },
  'functions/http/webhooks/replay-delivery.ts#handler': { publishEvents: false, enqueue: ['webhook-deliveries'] },
  // --- issue 18: AI agent ---
  // Takes customer messages up (schedules delayed replies, cancels them when a member replies) and answers through Bedrock.
  // It also sends the answering pair's file: copies it from {org_id}/ai_assets/ to a chat upload key, then the send path checks it and writes its thumbnail.
  'functions/consumers/ai-agent.ts#handler': { scheduler: true, bedrock: true, media: 'readWrite' },
  'functions/consumers/ai-replies.ts#handler': { scheduler: true, bedrock: true, media: 'readWrite' },
  // The test panel answers through the same port; take-over cancels a scheduled reply.
  'functions/http/ai/test-answer.ts#handler': { bedrock: true, publishEvents: false, enqueue: [] },
  'functions/http/ai/set-chat-ai.ts#handler': { scheduler: true },
  // FAQ pair files (spec §7 {org_id}/ai_assets/{context_id}/): a presigned PUT; saving checks the file is there (head) or copies a chat message's file in ('Add to FAQs'); editing or deleting removes a dropped file.
  'functions/http/ai/create-faq-upload.ts#handler': { media: 'put', publishEvents: false, enqueue: [] },
  'functions/http/ai/create-faq.ts#handler': { media: 'readWrite' },
  'functions/http/ai/update-faq.ts#handler': { media: 'readWrite' },
  'functions/http/ai/delete-faq.ts#handler': { media: 'readWrite' },
  // --- issue 17: automation rules ---
  // Rule actions go through the inbox's use cases (send: whatsapp-outbound; snooze and task reminders: the scheduler), arm delayed actions / follow-ups (scheduler) and call signed webhooks.
  'functions/consumers/rules-engine.ts#handler': { scheduler: true },
  'functions/consumers/rule-actions.ts#handler': { scheduler: true },
  // A member cancels a pending follow-up: deletes its schedule.
  'functions/http/rules/cancel-chat-pending.ts#handler': { scheduler: true },
  // --- issue 19: a platform org's /dashboard shows the deployment's queue depths and dead letters ---
  'functions/http/analytics/get-dashboard.ts#handler': { queueStatus: true, publishEvents: false, enqueue: [] },
  // --- issue 16 (part A): scheduled messages arm / move / cancel their wake-up; the consumer sends (whatsapp-outbound) and arms the next one ---
  'functions/consumers/scheduled-messages.ts#handler': { scheduler: true },
  'functions/http/scheduled/create-scheduled.ts#handler': { scheduler: true },
  'functions/http/scheduled/update-scheduled.ts#handler': { scheduler: true },
  'functions/http/scheduled/skip-scheduled.ts#handler': { scheduler: true },
  'functions/http/scheduled/delete-scheduled.ts#handler': { scheduler: true },
  // --- issue 16: broadcasts: the engine stores messages through the inbox (message.sent), queues them for WhatsApp and its own next step, and arms wake-ups ---
  'functions/consumers/broadcasts.ts#handler': { enqueue: ['broadcasts', 'whatsapp-outbound'], scheduler: true },
  // preview and create check an uploaded file once (read, sniff, thumbnail, delete when refused) and mark its row ready
  'functions/http/broadcasts/create-broadcast.ts#handler': { publishEvents: false, enqueue: ['broadcasts'], scheduler: true, media: 'readWrite' },
  'functions/http/broadcasts/create-upload.ts#handler': { publishEvents: false, enqueue: [], media: 'put' },
  'functions/http/broadcasts/control-broadcast.ts#handler': { publishEvents: false, enqueue: ['broadcasts'], scheduler: true },
  'functions/http/broadcasts/list-broadcasts.ts#handler': { table: 'read', publishEvents: false, enqueue: [] },
  'functions/http/broadcasts/get-broadcast.ts#handler': { table: 'read', publishEvents: false, enqueue: [] },
  'functions/http/broadcasts/list-recipients.ts#handler': { table: 'read', publishEvents: false, enqueue: [] },
  'functions/http/broadcasts/export-recipients.ts#handler': { table: 'read', publishEvents: false, enqueue: [] },
  'functions/http/broadcasts/preview-broadcast.ts#handler': { publishEvents: false, enqueue: [], media: 'readWrite' },
  'functions/http/broadcasts/get-credits.ts#handler': { table: 'read', publishEvents: false, enqueue: [] },
  'functions/consumers/broadcast-stats.ts#handler': { enqueue: [], publishEvents: false },
  // --- issue 15 (groups): group templates keep their picture in the media bucket (presigned PUT, library copies, view URLs); "Create group" hands a command to the WhatsApp Web session worker ---
  'functions/http/group-templates/list-group-templates.ts#handler': { table: 'read', publishEvents: false, enqueue: [], media: 'read' },
  'functions/http/group-templates/create-picture-upload.ts#handler': { table: 'read', publishEvents: false, enqueue: [], media: 'put' },
  'functions/http/group-templates/create-group-template.ts#handler': { publishEvents: false, enqueue: [], media: 'readWrite' },
  'functions/http/group-templates/update-group-template.ts#handler': { publishEvents: false, enqueue: [], media: 'readWrite' },
  'functions/http/group-templates/delete-group-template.ts#handler': { publishEvents: false, enqueue: [] },
  'functions/http/group-templates/create-group.ts#handler': { publishEvents: false, enqueue: ['wa-web-commands'] },
  'functions/http/group-templates/get-group-request.ts#handler': { table: 'read', publishEvents: false, enqueue: [] },
};

/** The access profile of one handler. */
export function accessFor(handler: string, surface: Surface): FunctionAccess {
  return { ...SURFACE_DEFAULTS[surface], ...ACCESS_OVERRIDES[handler] };
}

/** WhatsApp Cloud API settings (plain values or CloudFormation dynamic references). '' = unset. */
export interface WhatsAppSettings {
  readonly appSecret: string;
  readonly verifyToken: string;
  readonly accessToken: string;
  readonly graphUrl: string;
  readonly graphVersion: string;
  /** PHONE_TOKEN_KEY: AES-256-GCM key (32 bytes, base64) of the per-phone access tokens at rest */
  readonly phoneTokenKey: string;
}

/** EventBridge Scheduler: the schedule group, the role schedules run as, and the queues they may target. */
export interface SchedulerResources {
  readonly group: scheduler.IScheduleGroup;
  readonly role: iam.IRole;
  /** command queue name -> queue (SCHEDULER_TARGET_QUEUE_ARNS) */
  readonly targetQueues: ReadonlyMap<string, sqs.IQueue>;
}

/** The resources a function may be wired to; absent ones must not be needed by its profile. */
export interface WiringResources {
  readonly table?: dynamodb.ITable;
  readonly bus?: events.IEventBus;
  readonly commandQueues?: ReadonlyMap<string, { readonly queue: sqs.IQueue; readonly env: string }>;
  readonly cognito?: { readonly issuer: string; readonly clientId: string };
  readonly wsStage?: WebSocketStage;
  readonly whatsapp?: WhatsAppSettings;
  readonly searchDomain?: opensearch.IDomain;
  readonly scheduler?: SchedulerResources;
  readonly mediaBucket?: s3.IBucket;
  readonly mail?: MailSettings;
  /** the web push VAPID key pair (JSON `{ publicKey, privateKey }`), filled on first use */
  readonly vapidSecret?: secretsmanager.ISecret;
  /** issue 42 §4: the key of masked contact and chat ids, given (MASKED_ID_KEY_SECRET_ARN + read) to every function with the table */
  readonly maskedIdKeySecret?: secretsmanager.ISecret;
  /** issue 19: the name of the stack that owns the queues (CloudFormation names them `<stack>-…`) */
  readonly queueStackName?: string;
}

/** The product's email sender (SES) and the web app's address for links. '' = unset. */
export interface MailSettings {
  /** MAIL_FROM, e.g. `Chorus <no-reply@example.com>`; its domain or address must be a verified SES identity */
  readonly from: string;
  /** APP_URL, e.g. https://app.example.com */
  readonly appUrl: string;
}

/** Apply a profile: environment variables (shared/config.ts names) plus matching IAM grants. */
export function wireFunction(fn: lambda.Function, access: FunctionAccess, res: WiringResources): void {
  const need = <T>(value: T | undefined, what: string): T => {
    if (value === undefined) throw new Error(`${fn.node.path} needs ${what}, which is not available in ${Stack.of(fn).stackName}`);
    return value;
  };
  const setEnv = (name: string, value: string) => {
    // '' means "not configured": leave the variable unset so shared/config.ts applies its default.
    if (value !== '') fn.addEnvironment(name, value);
  };

  if (access.table !== 'none') {
    const table = need(res.table, 'the table');
    setEnv('TABLE_NAME', table.tableName);
    if (access.table === 'read') table.grantReadData(fn);
    else table.grantReadWriteData(fn);
    // whatever reads the table may hand out or take a masked id (shared/contact/contact-id.ts)
    if (res.maskedIdKeySecret) {
      setEnv('MASKED_ID_KEY_SECRET_ARN', res.maskedIdKeySecret.secretArn);
      res.maskedIdKeySecret.grantRead(fn);
    }
  }

  if (access.publishEvents) {
    const bus = need(res.bus, 'the event bus');
    setEnv('EVENT_BUS_NAME', bus.eventBusName);
    bus.grantPutEventsTo(fn);
  }

  const names = access.enqueue === 'all' ? [...need(res.commandQueues, 'the command queues').keys()] : access.enqueue;
  for (const name of names) {
    const entry = need(res.commandQueues?.get(name), `command queue ${name}`);
    setEnv(entry.env, entry.queue.queueUrl);
    entry.queue.grantSendMessages(fn);
  }

  if (access.wsManagement) {
    const stage = need(res.wsStage, 'the WebSocket stage');
    setEnv('WS_MANAGEMENT_URL', stage.callbackUrl);
    stage.grantManagementApiAccess(fn);
  }

  if (access.cognito) {
    const cognito = need(res.cognito, 'the Cognito settings');
    setEnv('COGNITO_ISSUER', cognito.issuer);
    setEnv('COGNITO_JWKS_URL', `${cognito.issuer}/.well-known/jwks.json`);
    setEnv('COGNITO_CLIENT_ID', cognito.clientId);
  }

  if (access.cognitoAdmin) {
    const cognito = need(res.cognito, 'the Cognito settings');
    // the issuer is https://cognito-idp.{region}.amazonaws.com/{poolId}
    const poolId = Fn.select(3, Fn.split('/', cognito.issuer));
    fn.addToRolePolicy(
      new iam.PolicyStatement({
        actions: ['cognito-idp:AdminGetUser', 'cognito-idp:AdminCreateUser', 'cognito-idp:AdminSetUserPassword'],
        resources: [Stack.of(fn).formatArn({ service: 'cognito-idp', resource: 'userpool', resourceName: poolId })],
      }),
    );
  }

  if (access.mail) {
    const mail = need(res.mail, 'the mail settings');
    setEnv('MAIL_FROM', mail.from);
    setEnv('APP_URL', mail.appUrl);
    // SES authorizes SendEmail on the sending identity (and the configuration set, if any)
    fn.addToRolePolicy(
      new iam.PolicyStatement({
        actions: ['ses:SendEmail'],
        resources: [Stack.of(fn).formatArn({ service: 'ses', resource: 'identity', resourceName: '*' }), Stack.of(fn).formatArn({ service: 'ses', resource: 'configuration-set', resourceName: '*' })],
      }),
    );
  }

  if (access.whatsapp.length > 0) {
    const wa = need(res.whatsapp, 'the WhatsApp settings');
    for (const setting of access.whatsapp) {
      if (setting === 'appSecret') setEnv('WHATSAPP_APP_SECRET', wa.appSecret);
      if (setting === 'verifyToken') setEnv('WHATSAPP_VERIFY_TOKEN', wa.verifyToken);
      if (setting === 'accessToken') setEnv('WHATSAPP_ACCESS_TOKEN', wa.accessToken);
      if (setting === 'phoneTokenKey') setEnv('PHONE_TOKEN_KEY', wa.phoneTokenKey);
      if (setting === 'graph') {
        setEnv('WHATSAPP_GRAPH_URL', wa.graphUrl);
        setEnv('WHATSAPP_GRAPH_VERSION', wa.graphVersion);
      }
    }
  }

  if (access.search !== 'none') {
    const domain = need(res.searchDomain, 'the search domain');
    setEnv('SEARCH_ENDPOINT', `https://${domain.domainEndpoint}`);
    fn.addToRolePolicy(
      new iam.PolicyStatement({ actions: [...SEARCH_ACTIONS[access.search]], resources: [`${domain.domainArn}/*`] }),
    );
  }
  if (access.vapid) {
    const secret = need(res.vapidSecret, 'the VAPID key secret');
    setEnv('VAPID_SECRET_ARN', secret.secretArn);
    secret.grantRead(fn);
    // the first cold start stores the generated pair (PutSecretValue with a fixed request token)
    secret.grantWrite(fn);
  }

  if (access.bedrock) {
    const stack = Stack.of(fn);
    setEnv('AI_ADAPTER', 'bedrock');
    fn.addToRolePolicy(
      new iam.PolicyStatement({
        actions: ['bedrock:InvokeModel'],
        resources: BEDROCK_MODELS.map((m) => stack.formatArn({ service: 'bedrock', account: '', resource: 'foundation-model', resourceName: m })),
      }),
    );
  }

  if (access.queueStatus) {
    const prefix = need(res.queueStackName, 'the queues stack name');
    setEnv('QUEUE_NAME_PREFIX', prefix);
    // ListQueues has no resource-level scope; the attributes only of this deployment's queues
    fn.addToRolePolicy(new iam.PolicyStatement({ actions: ['sqs:ListQueues'], resources: ['*'] }));
    fn.addToRolePolicy(new iam.PolicyStatement({ actions: ['sqs:GetQueueAttributes'], resources: [Stack.of(fn).formatArn({ service: 'sqs', resource: `${prefix}-*` })] }));
  }

  if (access.media !== 'none') {
    const bucket = need(res.mediaBucket, 'the media bucket');
    setEnv('MEDIA_BUCKET', bucket.bucketName);
    if (access.media === 'read') bucket.grantRead(fn);
    else if (access.media === 'put') bucket.grantPut(fn);
    else bucket.grantReadWrite(fn);
  }
  if (access.scheduler) {
    const sch = need(res.scheduler, 'the scheduler');
    const stack = Stack.of(fn);
    setEnv('SCHEDULER_GROUP_NAME', sch.group.scheduleGroupName);
    setEnv('SCHEDULER_ROLE_ARN', sch.role.roleArn);
    setEnv('SCHEDULER_TARGET_QUEUE_ARNS', stack.toJsonString(Object.fromEntries([...sch.targetQueues].map(([name, q]) => [name, q.queueArn]))));
    fn.addToRolePolicy(
      new iam.PolicyStatement({
        actions: [...SCHEDULER_ACTIONS],
        resources: [stack.formatArn({ service: 'scheduler', resource: 'schedule', resourceName: `${sch.group.scheduleGroupName}/*` })],
      }),
    );
    // CreateSchedule/UpdateSchedule pass the role to the service; nothing else may receive it
    fn.addToRolePolicy(
      new iam.PolicyStatement({
        actions: ['iam:PassRole'],
        resources: [sch.role.roleArn],
        conditions: { StringEquals: { 'iam:PassedToService': 'scheduler.amazonaws.com' } },
      }),
    );
  }
}
