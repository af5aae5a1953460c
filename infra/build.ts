/**
 * Builds the Chorus CDK app: `buildApp(app, props)` creates the stacks, `propsFromContext(app)`
 * reads the CDK context (`-c key=value` or cdk.json). infra/app.ts (the CLI entry) uses both;
 * infra/app.test.ts calls `buildApp` directly, without the CLI.
 *
 * Stacks, in deploy order, and what each uses:
 *   Data     DynamoDB table, S3 media bucket                 (nothing)
 *   Search   OpenSearch domain                               (nothing)
 *   Auth     Cognito user pool + web client (+ Google)       (nothing)
 *   Events   EventBridge bus + archive, rules, SQS + DLQs    (nothing)
 *            + EventBridge Scheduler group and role
 *   Api      HTTP API + JWT authorizer, WebSocket API        Data, Auth, Events
 *            and its Lambdas
 *   ApiInbox, ApiMessages, ApiWork, ApiOrg                   Data, Search, Auth, Events, Api
 *            HTTP routes and their Lambdas, one stack per
 *            group of infra/api-areas.ts (room for 300+ routes)
 *   Workers  queue consumer Lambdas                          Data, Search, Events, Api
 *   WaWeb    WhatsApp Web session workers (ECS Fargate)      Data, Events
 *   Web      S3 + CloudFront, web bundle + config.json       Api, Auth
 *
 * Queues are in Events and consumers in Workers because producers in Api need the command queue
 * URLs while the realtime fan-out consumer needs the WebSocket API: consumers next to their queues
 * would make Events and Api depend on each other.
 *
 * Context keys (all optional):
 *   webDist                   web build directory, relative to the repo root (default 'web/dist')
 *   eventBusName              EventBridge bus name (default 'chorus')
 *   stackPrefix               stack name prefix (default 'Chorus' -> ChorusData, ChorusApi, ...)
 *   searchInstanceType        OpenSearch data node instance type (default 't3.small.search')
 *   searchDataNodes           OpenSearch data node count (default 1)
 *   searchVolumeGiB           gp3 EBS volume per data node, GiB (default 10)
 *   whatsappAppSecret         Meta app secret, checks X-Hub-Signature-256 (default '')
 *   whatsappVerifyToken       webhook verify token, GET hub.challenge (default '')
 *   whatsappAccessToken       Graph API token for sending (default '')
 *   whatsappGraphUrl          Graph API base URL (default '' = shared/config.ts default, https://graph.facebook.com)
 *   whatsappGraphVersion      Graph API version (default '' = shared/config.ts default)
 *   phoneTokenKey             PHONE_TOKEN_KEY, 32 random bytes base64 (`openssl rand -base64 32`): encrypts the
 *                             access tokens of phones added on /settings/phones (default '' = adding refused)
 *   phoneTokenKeySecretName   Secrets Manager secret (a plain string) holding that key instead; it then stays
 *                             out of the template and cdk.out
 *   whatsappSecretName        Secrets Manager secret (JSON with appSecret, verifyToken, accessToken);
 *                             when set it replaces the three plain values above, which then stay
 *                             out of the template and cdk.out (Lambda still receives them as env)
 *   googleClientId            enables Google sign-in (with googleClientSecret or googleClientSecretName)
 *   googleClientSecret        Google OAuth client secret (plain)
 *   googleClientSecretName    Secrets Manager secret holding the Google OAuth client secret (string)
 *   cognitoDomainPrefix       Cognito hosted domain prefix (Google sign-in; default 'chorus-{account}')
 *   oauthCallbackUrls         comma-separated (default 'http://localhost:5173/login/callback')
 *   oauthLogoutUrls           comma-separated (default 'http://localhost:5173/login')
 *   corsOrigins               comma-separated allowed origins of the HTTP API and of media GETs (default '*')
 *   mailFrom                  sender of sign-in codes and invitations through SES, a verified identity
 *                             (e.g. 'Chorus <no-reply@example.com>'; default '' = those emails fail with 503)
 *   appUrl                    REQUIRED: the web app's address for links in emails (invitations, sign-in codes),
 *                             e.g. 'https://app.example.com'; never taken from a request's Origin
 *   helpLinks                 JSON object of the web app's Help links by key (shared/me.schemas.ts
 *                             HELP_LINK_KEYS: status, documentation, contact, …), written to config.json;
 *                             a key without a target is not shown (default: none)
 * An empty WhatsApp value leaves the variable unset, so the handler sees shared/config.ts's default.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { type Environment, SecretValue, Tags } from 'aws-cdk-lib';
import type { Construct } from 'constructs';
import { COMMAND_QUEUES, STREAM_CONSUMERS, SUBSCRIPTIONS } from '../events/catalog.ts';
import { HTTP_ROUTES, type HttpRoute, WS_ROUTES } from '../functions/routes.ts';
import { AUTH_TRIGGERS } from '../functions/auth-triggers.ts';
import type { MailSettings, WhatsAppSettings } from './access.ts';
import { addNagChecks } from './nag.ts';
import { API_ROUTE_GROUPS, type ApiRouteGroup, apiRouteGroupOf } from './api-areas.ts';
import { parseHandlerRef, REPO_ROOT } from './constructs/handler-function.ts';
import { ApiRoutesStack } from './stacks/api-routes-stack.ts';
import { ApiStack } from './stacks/api-stack.ts';
import { AuthStack, type GoogleSignIn } from './stacks/auth-stack.ts';
import { DataStack } from './stacks/data-stack.ts';
import { EventsStack } from './stacks/events-stack.ts';
import { SearchStack, type SearchStackProps } from './stacks/search-stack.ts';
import { WebStack } from './stacks/web-stack.ts';
import { WorkersStack } from './stacks/workers-stack.ts';
import { WaWebStack } from './stacks/wa-web-stack.ts';

export interface ChorusAppProps {
  /** real esbuild bundles (true, the CLI path) or inline placeholders (false, tests only). @default true */
  readonly bundle?: boolean;
  /** web build directory, absolute or relative to the repo root. @default 'web/dist' */
  readonly webDist?: string;
  /** @default 'chorus' */
  readonly eventBusName?: string;
  /** @default 'Chorus' */
  readonly stackPrefix?: string;
  readonly env?: Environment;
  readonly whatsapp?: Partial<WhatsAppSettings>;
  readonly google?: GoogleSignIn;
  readonly cognitoDomainPrefix?: string;
  readonly oauthCallbackUrls?: string[];
  readonly oauthLogoutUrls?: string[];
  /** @default ['*'] */
  readonly corsOrigins?: string[];
  /** SES sender and the app's address (sign-in codes, invitations) @default unset */
  readonly mail?: Partial<MailSettings>;
  /** issue 49 item 10: the web app's Help links by key (config.json `links`) @default none shown */
  readonly helpLinks?: Record<string, string>;
  /** OpenSearch domain size (instance type, data nodes, volume) @default one t3.small.search, 10 GiB */
  readonly search?: Pick<SearchStackProps, 'instanceType' | 'dataNodes' | 'volumeGiB'>;
  /** run cdk-nag's AwsSolutions checks at synthesis (infra/nag.ts) @default true */
  readonly nag?: boolean;
  /** the HTTP route registry to deploy (tests synthesize bigger ones) @default HTTP_ROUTES */
  readonly routes?: readonly HttpRoute[];
}

export interface ChorusStacks {
  readonly data: DataStack;
  readonly search: SearchStack;
  readonly auth: AuthStack;
  readonly events: EventsStack;
  readonly api: ApiStack;
  /** the HTTP route stacks, by group of infra/api-areas.ts */
  readonly apiRoutes: Readonly<Record<ApiRouteGroup, ApiRoutesStack>>;
  readonly workers: WorkersStack;
  readonly waWeb: WaWebStack;
  readonly web: WebStack;
}

/** Every handler reference the app deploys (routes + catalogue). */
export function allHandlerRefs(): string[] {
  return [
    ...new Set([
      ...HTTP_ROUTES.map((r) => r.handler),
      ...Object.values(WS_ROUTES),
      ...SUBSCRIPTIONS.map((s) => s.handler),
      ...COMMAND_QUEUES.map((c) => c.handler),
      ...STREAM_CONSUMERS.map((c) => c.handler),
      ...Object.values(AUTH_TRIGGERS),
    ]),
  ];
}

/** Handler files referenced by routes/catalogue that do not exist (yet). */
export function missingHandlerFiles(): string[] {
  return [...new Set(allHandlerRefs().map((ref) => parseHandlerRef(ref).file))].filter(
    (file) => !fs.existsSync(path.join(REPO_ROOT, file)),
  );
}

/** Create all Chorus stacks in `app` (the CDK app, or a pipeline stage). */
export function buildApp(app: Construct, props: ChorusAppProps = {}): ChorusStacks {
  const bundle = props.bundle ?? true;
  if (bundle) {
    const missing = missingHandlerFiles();
    if (missing.length > 0) {
      throw new Error(`Cannot bundle: handler files missing:\n  ${missing.join('\n  ')}`);
    }
  }
  const prefix = props.stackPrefix ?? 'Chorus';
  const routes = props.routes ?? HTTP_ROUTES;
  const env = props.env;
  const whatsapp: WhatsAppSettings = {
    appSecret: props.whatsapp?.appSecret ?? '',
    verifyToken: props.whatsapp?.verifyToken ?? '',
    accessToken: props.whatsapp?.accessToken ?? '',
    graphUrl: props.whatsapp?.graphUrl ?? '',
    graphVersion: props.whatsapp?.graphVersion ?? '',
    phoneTokenKey: props.whatsapp?.phoneTokenKey ?? '',
  };

  const data = new DataStack(app, `${prefix}Data`, { env, description: 'Chorus: DynamoDB single table and media bucket', corsOrigins: props.corsOrigins ?? ['*'] });
  const search = new SearchStack(app, `${prefix}Search`, {
    env,
    description: 'Chorus: OpenSearch domain',
    ...props.search,
  });
  const mail: MailSettings = { from: props.mail?.from ?? '', appUrl: props.mail?.appUrl ?? '' };
  const callbackUrls = props.oauthCallbackUrls ?? ['http://localhost:5173/login/callback'];
  const logoutUrls = props.oauthLogoutUrls ?? ['http://localhost:5173/login'];
  const auth = new AuthStack(app, `${prefix}Auth`, {
    env,
    description: 'Chorus: Cognito user pool and web client',
    google: props.google,
    domainPrefix: props.cognitoDomainPrefix,
    callbackUrls,
    logoutUrls,
    table: data.table,
    mail,
    bundle,
  });
  const events = new EventsStack(app, `${prefix}Events`, {
    env,
    description: 'Chorus: EventBridge bus, rules, SQS queues and DLQs',
    eventBusName: props.eventBusName,
  });
  const api = new ApiStack(app, `${prefix}Api`, {
    env,
    description: 'Chorus: HTTP API, WebSocket API and their Lambdas',
    table: data.table,
    mediaBucket: data.mediaBucket,
    vapidSecret: data.vapidSecret,
    maskedIdKeySecret: data.maskedIdKeySecret,
    searchDomain: search.domain,
    bus: events.bus,
    commandQueues: events.commandQueues,
    scheduler: events.scheduler,
    issuer: auth.issuer,
    userPoolClientId: auth.userPoolClient.userPoolClientId,
    whatsapp,
    mail,
    corsOrigins: props.corsOrigins ?? ['*'],
    bundle,
    routes,
  });
  const routesByGroup = new Map<ApiRouteGroup, HttpRoute[]>();
  for (const route of routes) {
    const group = apiRouteGroupOf(route.handler);
    routesByGroup.set(group, [...(routesByGroup.get(group) ?? []), route]);
  }
  const apiRoutes = Object.fromEntries(
    (Object.keys(API_ROUTE_GROUPS) as ApiRouteGroup[]).map((group) => [
      group,
      new ApiRoutesStack(app, `${prefix}Api${group}`, {
        env,
        description: `Chorus: HTTP routes and Lambdas (${group})`,
        routes: routesByGroup.get(group) ?? [],
        httpApi: api.httpApi,
        jwtAuthorizer: api.jwtAuthorizer,
        resources: {
          table: data.table,
          mediaBucket: data.mediaBucket,
          vapidSecret: data.vapidSecret,
          maskedIdKeySecret: data.maskedIdKeySecret,
          searchDomain: search.domain,
          bus: events.bus,
          commandQueues: events.commandQueues,
          scheduler: events.scheduler,
          cognito: { issuer: auth.issuer, clientId: auth.userPoolClient.userPoolClientId },
          wsStage: api.webSocketStage,
          whatsapp,
          mail,
          queueStackName: events.stackName,
        },
        bundle,
      }),
    ]),
  ) as Record<ApiRouteGroup, ApiRoutesStack>;
  const workers = new WorkersStack(app, `${prefix}Workers`, {
    env,
    description: 'Chorus: queue consumer Lambdas',
    table: data.table,
    mediaBucket: data.mediaBucket,
    vapidSecret: data.vapidSecret,
    maskedIdKeySecret: data.maskedIdKeySecret,
    searchDomain: search.domain,
    bus: events.bus,
    subscriptionQueues: events.subscriptionQueues,
    commandQueues: events.commandQueues,
    scheduler: events.scheduler,
    webSocketStage: api.webSocketStage,
    whatsapp,
    bundle,
    // issue 20: the disabled-endpoint email of the webhook-deliveries consumer
    mail,
  });
  const webDist = path.resolve(REPO_ROOT, props.webDist ?? 'web/dist');
  const web = new WebStack(app, `${prefix}Web`, {
    env,
    description: 'Chorus: web app on S3 + CloudFront',
    webDist,
    apiUrl: api.httpApi.apiEndpoint,
    wsUrl: api.webSocketStage.url,
    userPoolId: auth.userPool.userPoolId,
    userPoolClientId: auth.userPoolClient.userPoolClientId,
    oauth: auth.oauthDomain ? { domain: auth.oauthDomain, redirectSignIn: callbackUrls, redirectSignOut: logoutUrls } : undefined,
    links: props.helpLinks,
  });

  Tags.of(app).add('project', 'chorus');
  const waWebCommands = events.commandQueues.get('wa-web-commands');
  if (!waWebCommands) throw new Error('No queue for wa-web-commands');
  const waWebInbound = events.commandQueues.get('wa-web-inbound');
  if (!waWebInbound) throw new Error('No queue for wa-web-inbound');
  const waWeb = new WaWebStack(app, `${prefix}WaWeb`, {
    env,
    description: 'Chorus: WhatsApp Web session workers (ECS Fargate)',
    table: data.table,
    mediaBucket: data.mediaBucket,
    bus: events.bus,
    commands: waWebCommands,
    inbound: waWebInbound,
    phoneTokenKey: whatsapp.phoneTokenKey,
    maskedIdKeySecret: data.maskedIdKeySecret,
    bundle,
  });

  // AwsSolutions rules on every stack: a finding not accepted in infra/nag.ts fails synthesis
  if (props.nag ?? true) addNagChecks(app);

  return { data, search, auth, events, api, apiRoutes, workers, waWeb, web };
}

/** Read `ChorusAppProps` from the CDK context (see the key list at the top of this file). */
export function propsFromContext(app: Construct): ChorusAppProps {
  const str = (key: string): string | undefined => {
    const value: unknown = app.node.tryGetContext(key);
    if (value === undefined || value === null) return undefined;
    return String(value);
  };
  const list = (key: string): string[] | undefined => {
    const value: unknown = app.node.tryGetContext(key);
    if (value === undefined || value === null || value === '') return undefined;
    const items = Array.isArray(value) ? value.map(String) : String(value).split(',');
    return items.map((s) => s.trim()).filter(Boolean);
  };
  const int = (key: string): number | undefined => {
    const value = str(key);
    if (value === undefined || value === '') return undefined;
    const n = Number(value);
    if (!Number.isInteger(n) || n < 1) throw new Error(`Context ${key} must be a positive integer, got "${value}"`);
    return n;
  };

  const secretName = str('whatsappSecretName');
  const fromSecret = (field: string) =>
    SecretValue.secretsManager(secretName!, { jsonField: field }).unsafeUnwrap();
  const whatsapp: Partial<WhatsAppSettings> = {
    appSecret: secretName ? fromSecret('appSecret') : str('whatsappAppSecret') ?? '',
    verifyToken: secretName ? fromSecret('verifyToken') : str('whatsappVerifyToken') ?? '',
    accessToken: secretName ? fromSecret('accessToken') : str('whatsappAccessToken') ?? '',
    graphUrl: str('whatsappGraphUrl') ?? '',
    graphVersion: str('whatsappGraphVersion') ?? '',
    // its own secret, so existing whatsappSecretName secrets keep working unchanged
    phoneTokenKey: str('phoneTokenKeySecretName') ? SecretValue.secretsManager(str('phoneTokenKeySecretName')!).unsafeUnwrap() : str('phoneTokenKey') ?? '',
  };

  let google: GoogleSignIn | undefined;
  const googleClientId = str('googleClientId');
  if (googleClientId) {
    const secretName = str('googleClientSecretName');
    const plain = str('googleClientSecret');
    if (!secretName && !plain) {
      throw new Error('googleClientId needs googleClientSecret or googleClientSecretName in the context');
    }
    google = {
      clientId: googleClientId,
      clientSecret: secretName ? SecretValue.secretsManager(secretName) : SecretValue.unsafePlainText(plain!),
    };
  }

  const appUrl = str('appUrl')?.trim();
  if (!appUrl || !/^https?:\/\/[^/\s]+/.test(appUrl))
    throw new Error(
      `Context appUrl is required: the web app's address used in invitation and sign-in emails, e.g. -c appUrl=https://app.example.com (got ${appUrl ? `"${appUrl}"` : 'nothing'}). Links are never built from a request's Origin header.`,
    );

  return {
    bundle: true,
    webDist: str('webDist'),
    eventBusName: str('eventBusName'),
    stackPrefix: str('stackPrefix'),
    env: { account: process.env.CDK_DEFAULT_ACCOUNT, region: process.env.CDK_DEFAULT_REGION },
    whatsapp,
    google,
    cognitoDomainPrefix: str('cognitoDomainPrefix'),
    oauthCallbackUrls: list('oauthCallbackUrls'),
    oauthLogoutUrls: list('oauthLogoutUrls'),
    corsOrigins: list('corsOrigins'),
    mail: { from: str('mailFrom') ?? '', appUrl },
    helpLinks: helpLinksFrom(app.node.tryGetContext('helpLinks')),
    search: {
      instanceType: str('searchInstanceType') || undefined,
      dataNodes: int('searchDataNodes'),
      volumeGiB: int('searchVolumeGiB'),
    },
  };
}

/** The `helpLinks` context: a JSON object (or its text) of string values; anything else fails synthesis. */
function helpLinksFrom(value: unknown): Record<string, string> | undefined {
  if (value === undefined || value === null || value === '') return undefined;
  let parsed: unknown = value;
  if (typeof value === 'string') {
    try {
      parsed = JSON.parse(value);
    } catch {
      throw new Error(`Context helpLinks must be a JSON object such as '{"status":"https://status.example.org"}', got "${value}"`);
    }
  }
  if (!parsed || typeof parsed !== 'object' || Array.isArray(parsed) || Object.values(parsed).some((v) => typeof v !== 'string'))
    throw new Error('Context helpLinks must be a JSON object of link URLs by key');
  return parsed as Record<string, string>;
}
