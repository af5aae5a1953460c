/**
 * Template assertions for the Chorus CDK app, built in-process through `buildApp` with the
 * context of cdk.json (the feature flags the CLI would apply) and `bundle: false` (inline
 * placeholder code, so no esbuild run per function and no dependency on every handler file).
 * The route registry and the event catalogue are the expected values: if infra drifts from them,
 * these tests fail. One test also builds every handler with real esbuild bundles.
 *
 *   npx vitest run infra
 */
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { App } from 'aws-cdk-lib';
import { Annotations, Match, Template } from 'aws-cdk-lib/assertions';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { COMMAND_QUEUES, STREAM_CONSUMERS, SUBSCRIPTIONS, WORKER_QUEUES } from '../events/catalog.ts';
import { HTTP_ROUTES, WS_ROUTES } from '../functions/routes.ts';
import { AUTH_TRIGGERS } from '../functions/auth-triggers.ts';
import { TABLE_DEFINITION } from '../shared/db/table-definition.ts';
import { ACCESS_OVERRIDES, SCHEDULER_ACTIONS, SEARCH_ACTIONS } from './access.ts';
import { allHandlerRefs, buildApp, type ChorusAppProps, type ChorusStacks, missingHandlerFiles, propsFromContext } from './build.ts';
import { REPO_ROOT } from './constructs/handler-function.ts';
import { type ApiRouteGroup, apiRouteGroupOf } from './api-areas.ts';

const cdkContext = JSON.parse(fs.readFileSync(path.join(REPO_ROOT, 'cdk.json'), 'utf8')).context as Record<string, unknown>;
const tmpDirs: string[] = [];
const mkTmp = (prefix: string) => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), prefix));
  tmpDirs.push(dir);
  return dir;
};

function build(props: ChorusAppProps, context: Record<string, unknown> = {}): ChorusStacks {
  const app = new App({ outdir: mkTmp('chorus-cdk-out-'), context: { ...cdkContext, ...context } });
  return buildApp(app, { bundle: false, ...props });
}

/** Env var names a Lambda may receive: shared/config.ts's variables plus Node's own. */
const CONFIG_ENV = new Set([
  'TABLE_NAME', 'COGNITO_ISSUER', 'COGNITO_JWKS_URL', 'COGNITO_CLIENT_ID', 'WHATSAPP_APP_SECRET',
  'WHATSAPP_VERIFY_TOKEN', 'WHATSAPP_ACCESS_TOKEN', 'WHATSAPP_GRAPH_URL', 'WHATSAPP_GRAPH_VERSION',
  'EVENT_BUS_NAME', 'WHATSAPP_INBOUND_QUEUE_URL', 'WHATSAPP_OUTBOUND_QUEUE_URL', 'TASK_REMINDERS_QUEUE_URL', 'CHAT_SNOOZE_QUEUE_URL', 'CHAT_BULK_QUEUE_URL', 'WS_MANAGEMENT_URL',
  'SEARCH_ENDPOINT', 'QUEUE_NAME_PREFIX', 'SCHEDULER_GROUP_NAME', 'SCHEDULER_ROLE_ARN', 'SCHEDULER_TARGET_QUEUE_ARNS',
  'MEDIA_BUCKET', 'NODE_OPTIONS', 'MAIL_FROM', 'APP_URL', 'WA_WEB_COMMANDS_QUEUE_URL', 'WA_WEB_INBOUND_QUEUE_URL', 'OTP_HMAC_KEY',
  'VAPID_SECRET_ARN',
  // issue 42: the masked-id key secret
  'MASKED_ID_KEY_SECRET_ARN',
  // issue 20: outbound webhooks
  'WEBHOOK_DELIVERIES_QUEUE_URL',
  // issue 23: contacts written off the ingest path
  'CONTACT_SIGHTINGS_QUEUE_URL',
  // issue 18: AI agent
  'AI_REPLIES_QUEUE_URL', 'AI_ADAPTER',
  // issue 17: delayed rule actions, follow-ups, no-reply timers
  'RULE_ACTIONS_QUEUE_URL',
  // issue 16: broadcasts
  'BROADCASTS_QUEUE_URL',
  // issue 16: scheduled messages
  'SCHEDULED_MESSAGES_QUEUE_URL',
]);

type Resource = { Type: string; Properties: Record<string, any>; DeletionPolicy?: string };
const lambdasOf = (t: Template) => Object.values(t.findResources('AWS::Lambda::Function')) as Resource[];
const lambdaFor = (t: Template, handler: string): Resource => {
  const found = lambdasOf(t).filter((r) => r.Properties.Description === handler || r.Properties.Description?.endsWith(handler));
  expect(found, handler).toHaveLength(1);
  return found[0]!;
};
const policiesOf = (t: Template) => Object.values(t.findResources('AWS::IAM::Policy')) as Resource[];
const statementsOfRole = (t: Template, fn: Resource): any[] => {
  const roleId = fn.Properties.Role['Fn::GetAtt'][0];
  return policiesOf(t)
    .filter((p) => p.Properties.Roles.some((r: any) => r.Ref === roleId))
    .flatMap((p) => p.Properties.PolicyDocument.Statement as any[]);
};
const actionsOfRole = (t: Template, fn: Resource): string[] => {
  const roleId = fn.Properties.Role['Fn::GetAtt'][0];
  return policiesOf(t)
    .filter((p) => p.Properties.Roles.some((r: any) => r.Ref === roleId))
    .flatMap((p) => p.Properties.PolicyDocument.Statement.flatMap((s: any) => [s.Action].flat()));
};

let stacks: ChorusStacks;
let data: Template, search: Template, auth: Template, events: Template, api: Template, workers: Template, web: Template;
/** the HTTP route stacks' templates, by group of infra/api-areas.ts */
let routeStacks: Record<ApiRouteGroup, Template>;
/** the template of the stack serving an HTTP handler */
const routeT = (handler: string): Template => routeStacks[apiRouteGroupOf(handler)];
/** every stack with Lambdas of handlers (API, routes, workers) */
const handlerStacks = (): Template[] => [api, ...Object.values(routeStacks), workers];

beforeAll(() => {
  const webDist = mkTmp('chorus-web-');
  fs.writeFileSync(path.join(webDist, 'index.html'), '<!doctype html><title>Chorus</title>');
  stacks = build({ webDist });
  data = Template.fromStack(stacks.data);
  search = Template.fromStack(stacks.search);
  auth = Template.fromStack(stacks.auth);
  events = Template.fromStack(stacks.events);
  api = Template.fromStack(stacks.api);
  routeStacks = Object.fromEntries(Object.entries(stacks.apiRoutes).map(([g, st]) => [g, Template.fromStack(st)])) as Record<ApiRouteGroup, Template>;
  workers = Template.fromStack(stacks.workers);
  web = Template.fromStack(stacks.web);
}, 60_000);

afterAll(() => {
  for (const dir of tmpDirs) fs.rmSync(dir, { recursive: true, force: true });
});

describe('data', () => {
  it('builds the table from TABLE_DEFINITION: keys, gsi1 (ALL), TTL, PITR, on-demand, retained', () => {
    const gsi = TABLE_DEFINITION.globalIndexes[0]!;
    data.hasResource('AWS::DynamoDB::Table', {
      DeletionPolicy: 'Retain',
      UpdateReplacePolicy: 'Retain',
      Properties: Match.objectLike({
        BillingMode: 'PAY_PER_REQUEST',
        KeySchema: [
          { AttributeName: TABLE_DEFINITION.partitionKey, KeyType: 'HASH' },
          { AttributeName: TABLE_DEFINITION.sortKey, KeyType: 'RANGE' },
        ],
        GlobalSecondaryIndexes: Match.arrayWith([
          Match.objectLike({
            IndexName: gsi.name,
            KeySchema: [
              { AttributeName: gsi.partitionKey, KeyType: 'HASH' },
              { AttributeName: gsi.sortKey, KeyType: 'RANGE' },
            ],
            Projection: { ProjectionType: 'ALL' },
          }),
        ]),
        TimeToLiveSpecification: { AttributeName: TABLE_DEFINITION.ttlAttribute, Enabled: true },
        PointInTimeRecoverySpecification: { PointInTimeRecoveryEnabled: true },
      }),
    });
    const table = Object.values(data.findResources('AWS::DynamoDB::Table'))[0] as Resource;
    expect(table.Properties.GlobalSecondaryIndexes).toHaveLength(TABLE_DEFINITION.globalIndexes.length);
    data.hasOutput('TableName', {});
  });
});

const MEDIA_DOWNLOAD = 'functions/consumers/media-download.ts#handler';
const MEDIA_URL = 'functions/http/media/get-media-url.ts#handler';
const CREATE_UPLOAD = 'functions/http/media/create-upload.ts#handler';
const LIST_MEDIA = 'functions/http/media/list-media.ts#handler';
const SEND_MESSAGE = 'functions/http/messages/send-message.ts#handler';
const OUTBOUND = 'functions/consumers/whatsapp-outbound.ts#handler';

describe('media', () => {
  const bucketId = () => Object.keys(data.findResources('AWS::S3::Bucket'))[0]!;
  /** s3: actions of a function's statements whose resources name the media bucket */
  const mediaActions = (t: Template, fn: Resource): string[] =>
    statementsOfRole(t, fn)
      .filter((st) => JSON.stringify(st.Resource).includes(bucketId()))
      .flatMap((st) => [st.Action].flat() as string[]);

  it('keeps media in a private, encrypted, TLS-only, retained bucket that web origins may GET', () => {
    data.resourceCountIs('AWS::S3::Bucket', 1);
    data.hasResource('AWS::S3::Bucket', {
      DeletionPolicy: 'Retain',
      Properties: Match.objectLike({
        PublicAccessBlockConfiguration: { BlockPublicAcls: true, BlockPublicPolicy: true, IgnorePublicAcls: true, RestrictPublicBuckets: true },
        BucketEncryption: { ServerSideEncryptionConfiguration: [{ ServerSideEncryptionByDefault: { SSEAlgorithm: 'AES256' } }] },
        OwnershipControls: { Rules: [{ ObjectOwnership: 'BucketOwnerEnforced' }] },
        CorsConfiguration: { CorsRules: Match.arrayWith([Match.objectLike({ AllowedMethods: ['GET', 'HEAD'], AllowedOrigins: ['*'] })]) },
      }),
    });
    data.hasResourceProperties('AWS::S3::BucketPolicy', {
      PolicyDocument: { Statement: Match.arrayWith([Match.objectLike({ Effect: 'Deny', Condition: { Bool: { 'aws:SecureTransport': 'false' } } })]) },
    });
    data.hasOutput('MediaBucketName', {});
  });

  it('lets the web origins of the context GET media', () => {
    const t = Template.fromStack(build({ webDist: '/nonexistent', corsOrigins: ['https://app.example.com'] }).data);
    t.hasResourceProperties('AWS::S3::Bucket', { CorsConfiguration: { CorsRules: Match.arrayWith([Match.objectLike({ AllowedOrigins: ['https://app.example.com'] })]) } });
  });

  it('lets the media-download consumer read and write the bucket, with room for 100 MB files', () => {
    const fn = lambdaFor(workers, MEDIA_DOWNLOAD);
    expect(JSON.stringify(fn.Properties.Environment.Variables.MEDIA_BUCKET)).toContain('MediaBucket');
    const actions = mediaActions(workers, fn);
    expect(actions).toEqual(expect.arrayContaining(['s3:GetObject*', 's3:PutObject', 's3:DeleteObject*']));
    expect(fn.Properties.Timeout).toBe(150);
    expect(fn.Properties.MemorySize).toBe(1536);
    expect(fn.Properties.Timeout).toBeLessThanOrEqual(180); // the queue's visibility timeout
  });

  it('lets the media URL handler only read the bucket (presigned GETs) and the table', () => {
    const t = routeT(MEDIA_URL);
    const fn = lambdaFor(t, MEDIA_URL);
    expect(JSON.stringify(fn.Properties.Environment.Variables.MEDIA_BUCKET)).toContain('MediaBucket');
    const actions = mediaActions(t, fn);
    expect(actions).toContain('s3:GetObject*');
    expect(actions.filter((a) => /Put|Delete/.test(a))).toEqual([]);
    expect(actionsOfRole(t, fn).filter((a) => /dynamodb:(PutItem|UpdateItem|DeleteItem|BatchWriteItem)/.test(a))).toEqual([]);
    expect(fn.Properties.Environment.Variables).not.toHaveProperty('EVENT_BUS_NAME');
  });

  it('lets the media library handler only read the bucket (presigned GETs) and the table', () => {
    const t = routeT(LIST_MEDIA);
    const fn = lambdaFor(t, LIST_MEDIA);
    expect(JSON.stringify(fn.Properties.Environment.Variables.MEDIA_BUCKET)).toContain('MediaBucket');
    const actions = mediaActions(t, fn);
    expect(actions).toContain('s3:GetObject*');
    expect(actions.filter((a) => /Put|Delete/.test(a))).toEqual([]);
    expect(actionsOfRole(t, fn).filter((a) => /dynamodb:(PutItem|UpdateItem|DeleteItem|BatchWriteItem)/.test(a))).toEqual([]);
  });

  it('lets browsers PUT members\' files to the bucket from the web origins', () => {
    data.hasResourceProperties('AWS::S3::Bucket', {
      CorsConfiguration: { CorsRules: Match.arrayWith([Match.objectLike({ AllowedMethods: ['PUT'], AllowedOrigins: ['*'], AllowedHeaders: ['content-type'] })]) },
    });
  });

  it('lets the upload handler only presign PUTs (put, no read or delete) after a read of the table', () => {
    const t = routeT(CREATE_UPLOAD);
    const fn = lambdaFor(t, CREATE_UPLOAD);
    expect(JSON.stringify(fn.Properties.Environment.Variables.MEDIA_BUCKET)).toContain('MediaBucket');
    const actions = mediaActions(t, fn);
    expect(actions).toContain('s3:PutObject');
    expect(actions.filter((a) => /Get|Delete/.test(a))).toEqual([]);
    expect(actionsOfRole(t, fn).filter((a) => /dynamodb:(PutItem|UpdateItem|DeleteItem|BatchWriteItem)/.test(a))).toEqual([]);
  });

  it('lets the send-message handler check uploads, write thumbnails (with sharp) and delete refused files', () => {
    const t = routeT(SEND_MESSAGE);
    const fn = lambdaFor(t, SEND_MESSAGE);
    expect(mediaActions(t, fn)).toEqual(expect.arrayContaining(['s3:GetObject*', 's3:PutObject', 's3:DeleteObject*']));
    expect(fn.Properties.MemorySize).toBe(1024);
  });

  it('lets the whatsapp-outbound consumer read members\' files to upload them to Meta, with time for 100 MB', () => {
    const fn = lambdaFor(workers, OUTBOUND);
    const actions = mediaActions(workers, fn);
    expect(actions).toContain('s3:GetObject*');
    expect(actions.filter((a) => /Put|Delete/.test(a))).toEqual([]);
    expect(fn.Properties.Timeout).toBe(150);
    expect(fn.Properties.Timeout).toBeLessThanOrEqual(180); // the queue's visibility timeout
  });

  // issue 18: FAQ pair files under {org_id}/ai_assets/ (upload, check, copy, delete) and the agent sending a pair's file
  const AI_MEDIA_USERS = ['functions/http/ai/create-faq-upload.ts#handler', 'functions/http/ai/create-faq.ts#handler', 'functions/http/ai/update-faq.ts#handler', 'functions/http/ai/delete-faq.ts#handler', 'functions/consumers/ai-agent.ts#handler', 'functions/consumers/ai-replies.ts#handler'];
  // issue 15 (groups): group template pictures under group-templates/<org>/ (presigned PUT, library copies, view URLs)
  const GROUP_TEMPLATE_MEDIA_USERS = ['functions/http/group-templates/list-group-templates.ts#handler', 'functions/http/group-templates/create-picture-upload.ts#handler', 'functions/http/group-templates/create-group-template.ts#handler', 'functions/http/group-templates/update-group-template.ts#handler'];
  it('gives the group template routes the media bucket (issue 15 groups): list reads, upload puts, create/update read and write', () => {
    for (const h of GROUP_TEMPLATE_MEDIA_USERS) {
      const t = routeT(h);
      const fn = lambdaFor(t, h);
      expect(JSON.stringify(fn.Properties.Environment.Variables.MEDIA_BUCKET), h).toContain('MediaBucket');
      expect(mediaActions(t, fn).length, h).toBeGreaterThan(0);
    }
  });
  // issue 16: a broadcast's file uploaded from the computer (presigned PUT; preview and create check the bytes once and write its thumbnail)
  const BROADCAST_MEDIA_USERS = ['functions/http/broadcasts/create-upload.ts#handler', 'functions/http/broadcasts/preview-broadcast.ts#handler', 'functions/http/broadcasts/create-broadcast.ts#handler'];
  it('gives the broadcast upload, preview and create routes the media bucket (issue 16 uploads)', () => {
    for (const h of BROADCAST_MEDIA_USERS) {
      const t = routeT(h);
      const fn = lambdaFor(t, h);
      expect(JSON.stringify(fn.Properties.Environment.Variables.MEDIA_BUCKET), h).toContain('MediaBucket');
      expect(mediaActions(t, fn).length, h).toBeGreaterThan(0);
    }
  });
  it('leaves every other function without MEDIA_BUCKET or access to it', () => {
    let others = 0;
    for (const t of handlerStacks()) {
      for (const fn of lambdasOf(t)) {
        if ([MEDIA_DOWNLOAD, MEDIA_URL, LIST_MEDIA, CREATE_UPLOAD, SEND_MESSAGE, OUTBOUND, ...AI_MEDIA_USERS, ...GROUP_TEMPLATE_MEDIA_USERS, ...BROADCAST_MEDIA_USERS].some((h) => String(fn.Properties.Description).endsWith(h))) continue;
        others++;
        expect(fn.Properties.Environment?.Variables ?? {}, fn.Properties.Description).not.toHaveProperty('MEDIA_BUCKET');
        expect(mediaActions(t, fn), fn.Properties.Description).toEqual([]);
      }
    }
    expect(others).toBeGreaterThan(0);
  });
});

describe('search', () => {
  it('has one encrypted, HTTPS-only OpenSearch domain, small by default, retained, outside any VPC', () => {
    search.resourceCountIs('AWS::OpenSearchService::Domain', 1);
    search.hasResource('AWS::OpenSearchService::Domain', {
      DeletionPolicy: 'Retain',
      UpdateReplacePolicy: 'Retain',
      UpdatePolicy: { EnableVersionUpgrade: true },
      Properties: Match.objectLike({
        EngineVersion: Match.stringLikeRegexp('^OpenSearch_'),
        ClusterConfig: Match.objectLike({
          InstanceCount: 1,
          InstanceType: 't3.small.search',
          ZoneAwarenessEnabled: false,
          MultiAZWithStandbyEnabled: false,
        }),
        EBSOptions: Match.objectLike({ EBSEnabled: true, VolumeSize: 10, VolumeType: 'gp3' }),
        EncryptionAtRestOptions: { Enabled: true },
        NodeToNodeEncryptionOptions: { Enabled: true },
        DomainEndpointOptions: Match.objectLike({ EnforceHTTPS: true, TLSSecurityPolicy: 'Policy-Min-TLS-1-2-2019-07' }),
        VPCOptions: Match.absent(),
      }),
    });
    search.hasOutput('SearchEndpoint', {});
  });

  it('takes its size from the context', () => {
    const app = new App({
      outdir: mkTmp('chorus-cdk-out-'),
      context: { ...cdkContext, appUrl: 'https://app.example.com', searchInstanceType: 'm6g.large.search', searchDataNodes: '2', searchVolumeGiB: '20' },
    });
    const built = buildApp(app, { ...propsFromContext(app), bundle: false, webDist: '/nonexistent' });
    Template.fromStack(built.search).hasResourceProperties('AWS::OpenSearchService::Domain', {
      ClusterConfig: Match.objectLike({
        InstanceCount: 2,
        InstanceType: 'm6g.large.search',
        ZoneAwarenessEnabled: true,
        ZoneAwarenessConfig: { AvailabilityZoneCount: 2 },
      }),
      EBSOptions: Match.objectLike({ VolumeSize: 20 }),
    });
  });

  const searchUsers = [
    { handler: 'functions/http/tickets/list-tickets.ts#handler', stack: () => routeT('functions/http/tickets/list-tickets.ts#handler'), level: 'read' },
    { handler: 'functions/consumers/search-indexing.ts#handler', stack: () => workers, level: 'readWrite' },
    // issue 20: the public API's ticket list and the MCP server (search_tickets)
    { handler: 'functions/http/v1/router.ts#handler', stack: () => routeT('functions/http/v1/router.ts#handler'), level: 'read' },
    { handler: 'functions/http/mcp/mcp.ts#handler', stack: () => routeT('functions/http/mcp/mcp.ts#handler'), level: 'read' },
    { handler: 'functions/http/search/search.ts#handler', stack: () => routeT('functions/http/search/search.ts#handler'), level: 'read' },
  ] as const;
  for (const { handler, stack, level } of searchUsers) {
    it(`gives ${handler} SEARCH_ENDPOINT and ${level} es: actions on the domain's subresources`, () => {
      const t = stack();
      const fn = lambdaFor(t, handler);
      const endpoint = JSON.stringify(fn.Properties.Environment.Variables.SEARCH_ENDPOINT);
      expect(endpoint).toContain('https://');
      expect(endpoint).toContain('DomainEndpoint');
      const esActions = actionsOfRole(t, fn).filter((a) => a.startsWith('es:'));
      expect(esActions.sort()).toEqual([...SEARCH_ACTIONS[level]].sort());
      const statements = policiesOf(t)
        .filter((p) => p.Properties.Roles.some((r: any) => r.Ref === fn.Properties.Role['Fn::GetAtt'][0]))
        .flatMap((p) => p.Properties.PolicyDocument.Statement as any[])
        .filter((st) => [st.Action].flat().some((a: string) => a.startsWith('es:')));
      expect(statements).toHaveLength(1);
      // `${domain.domainArn}/*`: the domain's subresources (indexes, _bulk, _search), not its config API
      const [arn, suffix] = statements[0].Resource['Fn::Join'][1];
      expect(JSON.stringify(arn)).toMatch(/Domain\w*Arn/);
      expect(suffix).toBe('/*');
    });
  }

  it('gives the dashboard QUEUE_NAME_PREFIX (the events stack) and SQS status reads of those queues only; no other function gets them', () => {
    const handler = 'functions/http/analytics/get-dashboard.ts#handler';
    const t = routeT(handler);
    const fn = lambdaFor(t, handler);
    expect(fn.Properties.Environment.Variables.QUEUE_NAME_PREFIX).toMatch(/Events$/);
    expect(actionsOfRole(t, fn).filter((a) => a.startsWith('sqs:')).sort()).toEqual(['sqs:GetQueueAttributes', 'sqs:ListQueues']);
    const statuses = policiesOf(t)
      .filter((p) => p.Properties.Roles.some((r: any) => r.Ref === fn.Properties.Role['Fn::GetAtt'][0]))
      .flatMap((p) => p.Properties.PolicyDocument.Statement as any[])
      .filter((st) => [st.Action].flat().includes('sqs:GetQueueAttributes'));
    expect(statuses).toHaveLength(1);
    expect(JSON.stringify(statuses[0].Resource)).toContain(`:${fn.Properties.Environment.Variables.QUEUE_NAME_PREFIX}-*`);
    for (const stack of handlerStacks()) {
      for (const other of lambdasOf(stack)) {
        if (String(other.Properties.Description).endsWith(handler)) continue;
        expect(other.Properties.Environment?.Variables ?? {}, other.Properties.Description).not.toHaveProperty('QUEUE_NAME_PREFIX');
        expect(actionsOfRole(stack, other), other.Properties.Description).not.toContain('sqs:ListQueues');
      }
    }
  });

  it('leaves every other function without SEARCH_ENDPOINT or es: actions', () => {
    const users = new Set<string>(searchUsers.map((u) => u.handler));
    let others = 0;
    for (const t of handlerStacks()) {
      for (const fn of lambdasOf(t)) {
        if ([...users].some((h) => String(fn.Properties.Description).endsWith(h))) continue;
        others++;
        expect(fn.Properties.Environment?.Variables ?? {}, fn.Properties.Description).not.toHaveProperty('SEARCH_ENDPOINT');
        expect(actionsOfRole(t, fn).filter((a) => a.startsWith('es:')), fn.Properties.Description).toEqual([]);
      }
    }
    expect(others).toBeGreaterThan(0);
    const receiver = lambdaFor(routeT('functions/channels/whatsapp-cloud/receive-webhook.ts#handler'), 'functions/channels/whatsapp-cloud/receive-webhook.ts#handler');
    expect(receiver.Properties.Environment.Variables).not.toHaveProperty('SEARCH_ENDPOINT');
  });
});

describe('auth', () => {
  it('has a public web client with USER_PASSWORD_AUTH, SRP and refresh', () => {
    auth.hasResourceProperties('AWS::Cognito::UserPoolClient', {
      GenerateSecret: false,
      ExplicitAuthFlows: Match.arrayWith(['ALLOW_USER_PASSWORD_AUTH', 'ALLOW_USER_SRP_AUTH', 'ALLOW_REFRESH_TOKEN_AUTH']),
    });
    auth.hasResource('AWS::Cognito::UserPool', { DeletionPolicy: 'Retain' });
    auth.resourceCountIs('AWS::Cognito::UserPoolIdentityProvider', 0);
    auth.hasOutput('UserPoolId', {});
    auth.hasOutput('UserPoolClientId', {});
  });

  it('adds Google sign-in (and a hosted domain) only when googleClientId is given', () => {
    const app = new App({
      outdir: mkTmp('chorus-cdk-out-'),
      context: { ...cdkContext, appUrl: 'https://app.example.com', googleClientId: 'google-client', googleClientSecret: 'google-secret' },
    });
    const webDist = mkTmp('chorus-web-');
    fs.writeFileSync(path.join(webDist, 'index.html'), '<!doctype html><title>Chorus</title>');
    const built = buildApp(app, { ...propsFromContext(app), bundle: false, webDist });
    const t = Template.fromStack(built.auth);
    t.hasResourceProperties('AWS::Cognito::UserPoolIdentityProvider', { ProviderName: 'Google', ProviderType: 'Google' });
    t.resourceCountIs('AWS::Cognito::UserPoolDomain', 1);
    t.hasResourceProperties('AWS::Cognito::UserPoolClient', {
      SupportedIdentityProviders: Match.arrayWith(['COGNITO', 'Google']),
      AllowedOAuthFlows: ['code'],
      CallbackURLs: ['http://localhost:5173/login/callback'],
    });
    // the web app learns the hosted UI domain and redirect URLs from config.json (Amplify signInWithRedirect)
    const staged = fs
      .readdirSync(app.outdir)
      .map((d) => path.join(app.outdir, d, 'config.json'))
      .find((f) => fs.existsSync(f));
    const config = JSON.parse(fs.readFileSync(staged!, 'utf8'));
    expect(config.oauth.redirectSignIn).toEqual(['http://localhost:5173/login/callback']);
    expect(config.oauth.redirectSignOut).toEqual(['http://localhost:5173/login']);
    expect(typeof config.oauth.domain).toBe('string');
  });

  it('email code sign-in: custom auth triggers on the pool (table + SES, 5 s), CUSTOM_AUTH on the client with a 10-minute session', () => {
    auth.hasResourceProperties('AWS::Cognito::UserPool', {
      LambdaConfig: { DefineAuthChallenge: Match.anyValue(), CreateAuthChallenge: Match.anyValue(), VerifyAuthChallengeResponse: Match.anyValue() },
    });
    auth.hasResourceProperties('AWS::Cognito::UserPoolClient', { ExplicitAuthFlows: Match.arrayWith(['ALLOW_CUSTOM_AUTH']), AuthSessionValidity: 10 });
    for (const handler of Object.values(AUTH_TRIGGERS)) {
      const fn = lambdaFor(auth, handler);
      expect(fn.Properties.Timeout).toBe(5);
      expect(Object.keys(fn.Properties.Environment.Variables)).toEqual(expect.arrayContaining(['TABLE_NAME']));
      const actions = actionsOfRole(auth, fn);
      expect(actions).toContain('ses:SendEmail');
      expect(actions.some((a) => a.startsWith('cognito-idp:'))).toBe(false);
    }
    auth.resourceCountIs('AWS::Lambda::Permission', 3);
  });

  it('the invite handler may send mail; the public prepare route may only create users', () => {
    const org = routeT('functions/http/team/invite-member.ts#handler');
    const invite = lambdaFor(org, 'functions/http/team/invite-member.ts#handler');
    expect(actionsOfRole(org, invite)).toEqual(expect.arrayContaining(['ses:SendEmail', 'cognito-idp:AdminCreateUser', 'cognito-idp:AdminSetUserPassword']));
    const prepare = lambdaFor(org, 'functions/http/auth/prepare-otp.ts#handler');
    const actions = actionsOfRole(org, prepare);
    expect(actions).toEqual(expect.arrayContaining(['cognito-idp:AdminGetUser', 'cognito-idp:AdminCreateUser', 'cognito-idp:AdminSetUserPassword']));
    expect(actions.some((a) => a.startsWith('dynamodb:') || a.startsWith('ses:'))).toBe(false);
    org.hasResourceProperties('AWS::ApiGatewayV2::Route', { RouteKey: 'POST /api/auth/otp/prepare', AuthorizationType: 'NONE' });
  });
});

describe('api', () => {
  const httpHandlers = new Set(HTTP_ROUTES.map((r) => r.handler));
  const wsHandlers = new Set(Object.values(WS_ROUTES));

  it('creates one Lambda per HTTP and WebSocket handler (Node 22, arm64), HTTP ones in their area stack', () => {
    api.resourceCountIs('AWS::Lambda::Function', wsHandlers.size);
    for (const handler of wsHandlers) lambdaFor(api, handler);
    const routeLambdas = Object.values(routeStacks).flatMap(lambdasOf);
    expect(routeLambdas).toHaveLength(httpHandlers.size);
    for (const handler of httpHandlers) lambdaFor(routeT(handler), handler);
    for (const fn of [...lambdasOf(api), ...routeLambdas]) {
      expect(fn.Properties.Runtime).toBe('nodejs22.x');
      expect(fn.Properties.Architectures).toEqual(['arm64']);
    }
  });

  it('has every HTTP route key on the one HTTP API, JWT-guarded by the Api stack authorizer unless the registry says none', () => {
    api.resourceCountIs('AWS::ApiGatewayV2::Route', Object.keys(WS_ROUTES).length);
    const routeCount = Object.values(routeStacks).reduce((n, t) => n + Object.keys(t.findResources('AWS::ApiGatewayV2::Route')).length, 0);
    expect(routeCount).toBe(HTTP_ROUTES.length);
    const apiId = Object.keys(api.findResources('AWS::ApiGatewayV2::Api', { Properties: { ProtocolType: 'HTTP' } }))[0]!;
    const authorizerId = Object.keys(api.findResources('AWS::ApiGatewayV2::Authorizer'))[0]!;
    for (const route of HTTP_ROUTES) {
      const t = routeT(route.handler);
      const found = Object.values(t.findResources('AWS::ApiGatewayV2::Route', { Properties: { RouteKey: `${route.method} ${route.path}` } })) as Resource[];
      expect(found, `${route.method} ${route.path}`).toHaveLength(1);
      const props = found[0]!.Properties;
      expect(props.AuthorizationType).toBe(route.auth === 'jwt' ? 'JWT' : 'NONE');
      // cross-stack references to the Api stack's HTTP API and authorizer
      expect(JSON.stringify(props.ApiId)).toContain(apiId);
      if (route.auth === 'jwt') expect(JSON.stringify(props.AuthorizerId)).toContain(authorizerId);
      else expect(props.AuthorizerId).toBeUndefined();
    }
  });

  it('uses a Cognito JWT authorizer (issuer = the pool, audience = the web client)', () => {
    api.hasResourceProperties('AWS::ApiGatewayV2::Authorizer', {
      AuthorizerType: 'JWT',
      IdentitySource: ['$request.header.Authorization'],
      JwtConfiguration: {
        Issuer: { 'Fn::Join': ['', Match.arrayWith(['https://cognito-idp.', '.amazonaws.com/'])] },
        Audience: [Match.anyValue()],
      },
    });
  });

  it('writes HTTP API access logs (JSON, request id and status) to a log group with retention', () => {
    api.hasResourceProperties('AWS::ApiGatewayV2::Stage', {
      StageName: '$default',
      AccessLogSettings: { DestinationArn: Match.anyValue(), Format: Match.stringLikeRegexp('"requestId":"\\$context.requestId"') },
    });
    api.hasResourceProperties('AWS::Logs::LogGroup', { RetentionInDays: 30 });
  });

  it('allows CORS with Authorization and Content-Type', () => {
    api.hasResourceProperties('AWS::ApiGatewayV2::Api', {
      ProtocolType: 'HTTP',
      CorsConfiguration: Match.objectLike({
        AllowOrigins: ['*'],
        AllowHeaders: Match.arrayWith(['Authorization', 'Content-Type']),
      }),
    });
  });

  it('has the WebSocket routes and an auto-deployed prod stage', () => {
    api.hasResourceProperties('AWS::ApiGatewayV2::Api', { ProtocolType: 'WEBSOCKET' });
    for (const key of Object.keys(WS_ROUTES)) api.hasResourceProperties('AWS::ApiGatewayV2::Route', { RouteKey: key });
    api.hasResourceProperties('AWS::ApiGatewayV2::Stage', { StageName: 'prod', AutoDeploy: true });
    api.hasOutput('HttpApiUrl', {});
    api.hasOutput('WebSocketUrl', {});
  });

  it('gives route Lambdas the table, the bus and the command queues', () => {
    const t = routeT(SEND_MESSAGE);
    const fn = lambdaFor(t, SEND_MESSAGE);
    const env = fn.Properties.Environment.Variables;
    for (const name of ['TABLE_NAME', 'EVENT_BUS_NAME', 'COGNITO_ISSUER', 'COGNITO_CLIENT_ID', ...COMMAND_QUEUES.map((c) => c.env)]) {
      expect(env, name).toHaveProperty(name);
    }
    expect(env).not.toHaveProperty('WHATSAPP_ACCESS_TOKEN');
    const actions = actionsOfRole(t, fn);
    expect(actions).toEqual(expect.arrayContaining(['dynamodb:PutItem', 'events:PutEvents', 'sqs:SendMessage']));
  });

  it('keeps the webhook receiver to its one queue and no table', () => {
    const t = routeT('functions/channels/whatsapp-cloud/receive-webhook.ts#handler');
    const fn = lambdaFor(t, 'functions/channels/whatsapp-cloud/receive-webhook.ts#handler');
    expect(Object.keys(fn.Properties.Environment.Variables).sort()).toEqual(['NODE_OPTIONS', 'WHATSAPP_INBOUND_QUEUE_URL']);
    const actions = actionsOfRole(t, fn);
    expect(actions).toContain('sqs:SendMessage');
    expect(actions.some((a) => a.startsWith('dynamodb:') || a.startsWith('events:'))).toBe(false);
  });
});

describe('events', () => {
  it('creates the bus and one rule per subscription with the catalogue pattern', () => {
    events.hasResourceProperties('AWS::Events::EventBus', { Name: 'chorus' });
    events.resourceCountIs('AWS::Events::Rule', SUBSCRIPTIONS.length);
    for (const sub of SUBSCRIPTIONS) {
      events.hasResourceProperties('AWS::Events::Rule', {
        EventPattern: { source: [...sub.pattern.source], 'detail-type': [...sub.pattern['detail-type']] },
        Targets: [Match.objectLike({ DeadLetterConfig: Match.anyValue() })],
      });
    }
  });

  it('gives every queue a DLQ with the catalogue maxReceiveCount', () => {
    const entries = [...SUBSCRIPTIONS, ...COMMAND_QUEUES, ...WORKER_QUEUES];
    const queues = Object.values(events.findResources('AWS::SQS::Queue')) as Resource[];
    const withRedrive = queues.filter((q) => q.Properties.RedrivePolicy);
    expect(withRedrive).toHaveLength(entries.length);
    expect(queues).toHaveLength(entries.length * 2);
    expect(withRedrive.map((q) => q.Properties.RedrivePolicy.maxReceiveCount).sort()).toEqual(
      entries.map((e) => e.maxReceiveCount).sort(),
    );
    for (const entry of entries) {
      events.hasResourceProperties('AWS::SQS::Queue', {
        RedrivePolicy: { deadLetterTargetArn: Match.anyValue(), maxReceiveCount: entry.maxReceiveCount },
      });
    }
  });
});

describe('scheduler', () => {
  const schedulerUsers = [
    { handler: 'functions/http/tasks/create-task.ts#handler', stack: () => routeT('functions/http/tasks/create-task.ts#handler') },
    { handler: 'functions/http/tasks/update-task.ts#handler', stack: () => routeT('functions/http/tasks/update-task.ts#handler') },
    { handler: 'functions/http/tasks/bulk-update-tasks.ts#handler', stack: () => routeT('functions/http/tasks/bulk-update-tasks.ts#handler') },
    { handler: 'functions/http/tasks/remind-in-task.ts#handler', stack: () => routeT('functions/http/tasks/remind-in-task.ts#handler') },
    { handler: 'functions/consumers/task-reminders.ts#handler', stack: () => workers },
    { handler: 'functions/http/chats/snooze-chats.ts#handler', stack: () => routeT('functions/http/chats/snooze-chats.ts#handler') },
    { handler: 'functions/consumers/chat-snooze.ts#handler', stack: () => workers },
    // issue 20: webhook retries
    { handler: 'functions/consumers/webhook-deliveries.ts#handler', stack: () => workers },
    // issue 18: the AI agent's delayed replies (scheduled, cancelled on take-over)
    { handler: 'functions/consumers/ai-agent.ts#handler', stack: () => workers },
    { handler: 'functions/consumers/ai-replies.ts#handler', stack: () => workers },
    { handler: 'functions/http/ai/set-chat-ai.ts#handler', stack: () => routeT('functions/http/ai/set-chat-ai.ts#handler') },
    // issue 17: rules (delayed actions, follow-ups, no-reply timers; a member cancels a pending follow-up)
    { handler: 'functions/consumers/rules-engine.ts#handler', stack: () => workers },
    { handler: 'functions/consumers/rule-actions.ts#handler', stack: () => workers },
    { handler: 'functions/http/rules/cancel-chat-pending.ts#handler', stack: () => routeT('functions/http/rules/cancel-chat-pending.ts#handler') },
    // issue 16: scheduled messages
    { handler: 'functions/consumers/scheduled-messages.ts#handler', stack: () => workers },
    { handler: 'functions/http/scheduled/create-scheduled.ts#handler', stack: () => routeT('functions/http/scheduled/create-scheduled.ts#handler') },
    { handler: 'functions/http/scheduled/update-scheduled.ts#handler', stack: () => routeT('functions/http/scheduled/update-scheduled.ts#handler') },
    { handler: 'functions/http/scheduled/skip-scheduled.ts#handler', stack: () => routeT('functions/http/scheduled/skip-scheduled.ts#handler') },
    { handler: 'functions/http/scheduled/delete-scheduled.ts#handler', stack: () => routeT('functions/http/scheduled/delete-scheduled.ts#handler') },
    // issue 16: broadcasts (scheduled starts, quiet-hours wake-ups; pause/cancel drop a scheduled start)
    { handler: 'functions/consumers/broadcasts.ts#handler', stack: () => workers },
    { handler: 'functions/http/broadcasts/create-broadcast.ts#handler', stack: () => routeT('functions/http/broadcasts/create-broadcast.ts#handler') },
    { handler: 'functions/http/broadcasts/control-broadcast.ts#handler', stack: () => routeT('functions/http/broadcasts/control-broadcast.ts#handler') },
  ] as const;
  const groupName = () => (Object.values(events.findResources('AWS::Scheduler::ScheduleGroup'))[0] as Resource).Properties.Name as string;

  it('has one schedule group, deleted with the stack', () => {
    events.resourceCountIs('AWS::Scheduler::ScheduleGroup', 1);
    events.hasResource('AWS::Scheduler::ScheduleGroup', { DeletionPolicy: 'Delete', Properties: { Name: Match.stringLikeRegexp('^[0-9A-Za-z_.-]{1,64}$') } });
  });

  it('has a role only EventBridge Scheduler (this account, this group) may assume, sending to the task-reminders, chat-snooze and webhook-deliveries queues only', () => {
    const roles = Object.entries(events.findResources('AWS::IAM::Role', {
      Properties: { AssumeRolePolicyDocument: { Statement: Match.arrayWith([Match.objectLike({ Principal: { Service: 'scheduler.amazonaws.com' } })]) } },
    })) as Array<[string, Resource]>;
    expect(roles).toHaveLength(1);
    const [roleId, role] = roles[0]!;
    const trust = role.Properties.AssumeRolePolicyDocument.Statement[0];
    expect(trust).toMatchObject({ Action: 'sts:AssumeRole', Effect: 'Allow', Condition: { StringEquals: { 'aws:SourceAccount': { Ref: 'AWS::AccountId' } } } });
    expect(JSON.stringify(trust.Condition.ArnLike['aws:SourceArn'])).toContain('Schedules');
    const statements = policiesOf(events)
      .filter((p) => p.Properties.Roles.some((r: any) => r.Ref === roleId))
      .flatMap((p) => p.Properties.PolicyDocument.Statement as any[]);
    // CDK merges the two grants into one statement
    expect(statements).toEqual([
      {
        Action: 'sqs:SendMessage',
        Effect: 'Allow',
        Resource: expect.arrayContaining([{ 'Fn::GetAtt': [expect.stringMatching(/^ChatSnoozeCommands/), 'Arn'] }, { 'Fn::GetAtt': [expect.stringMatching(/^TaskRemindersCommands/), 'Arn'] }, /* issue 20 */ { 'Fn::GetAtt': [expect.stringMatching(/^WebhookDeliveriesCommands/), 'Arn'] }]),
      },
    ]);
  });

  for (const { handler, stack } of schedulerUsers) {
    it(`lets ${handler} manage schedules in the group and pass the scheduler role`, () => {
      const t = stack();
      const fn = lambdaFor(t, handler);
      const env = fn.Properties.Environment.Variables;
      expect(env.SCHEDULER_GROUP_NAME).toBe(groupName());
      expect(JSON.stringify(env.SCHEDULER_ROLE_ARN)).toMatch(/SchedulerRole/);
      // {"task-reminders": <queue arn>} rendered at deploy time
      const targets = JSON.stringify(env.SCHEDULER_TARGET_QUEUE_ARNS);
      expect(targets).toContain('task-reminders');
      expect(targets).toMatch(/TaskRemindersCommands/);
      // issue 20: the webhook retries' consumer schedules onto its own queue, not task-reminders
      // issue 16: the broadcast functions schedule onto the broadcasts queue only
      if (!handler.includes('webhook') && !handler.includes('broadcast')) expect(env).toHaveProperty('TASK_REMINDERS_QUEUE_URL');
      const statements = statementsOfRole(t, fn);
      const sched = statements.filter((st) => [st.Action].flat().some((a: string) => a.startsWith('scheduler:')));
      expect(sched).toHaveLength(1);
      expect([sched[0].Action].flat().sort()).toEqual([...SCHEDULER_ACTIONS].sort());
      const arn = JSON.stringify(sched[0].Resource);
      expect(arn).toContain(`:schedule/${groupName()}/*`);
      const pass = statements.filter((st) => [st.Action].flat().includes('iam:PassRole'));
      expect(pass).toHaveLength(1);
      expect(pass[0].Condition).toEqual({ StringEquals: { 'iam:PassedToService': 'scheduler.amazonaws.com' } });
      expect(JSON.stringify(pass[0].Resource)).toMatch(/SchedulerRole/);
    });
  }

  it('leaves every other function without scheduler settings or grants', () => {
    const users = new Set<string>(schedulerUsers.map((u) => u.handler));
    let others = 0;
    for (const t of handlerStacks()) {
      for (const fn of lambdasOf(t)) {
        if ([...users].some((h) => String(fn.Properties.Description).endsWith(h))) continue;
        others++;
        const env = fn.Properties.Environment?.Variables ?? {};
        expect(Object.keys(env).filter((k) => k.startsWith('SCHEDULER_')), fn.Properties.Description).toEqual([]);
        const actions = actionsOfRole(t, fn);
        expect(actions.filter((a) => a.startsWith('scheduler:') || a === 'iam:PassRole'), fn.Properties.Description).toEqual([]);
      }
    }
    expect(others).toBeGreaterThan(0);
    const receiver = lambdaFor(routeT('functions/channels/whatsapp-cloud/receive-webhook.ts#handler'), 'functions/channels/whatsapp-cloud/receive-webhook.ts#handler');
    expect(Object.keys(receiver.Properties.Environment.Variables).sort()).toEqual(['NODE_OPTIONS', 'WHATSAPP_INBOUND_QUEUE_URL']);
  });
});

describe('workers', () => {
  it('runs one consumer per subscription and command queue, with batch size and partial failures', () => {
    const entries = [...SUBSCRIPTIONS, ...COMMAND_QUEUES];
    workers.resourceCountIs('AWS::Lambda::Function', entries.length + STREAM_CONSUMERS.length);
    workers.resourceCountIs('AWS::Lambda::EventSourceMapping', entries.length + STREAM_CONSUMERS.length);
    for (const entry of entries) {
      lambdaFor(workers, entry.handler);
      workers.hasResourceProperties('AWS::Lambda::EventSourceMapping', {
        // a FIFO queue's event source takes at most 10 records a batch
        BatchSize: 'fifo' in entry && entry.fifo ? Math.min(10, entry.batchSize) : entry.batchSize,
        FunctionResponseTypes: ['ReportBatchItemFailures'],
      });
    }
  });

  it('relays the outbox from the table stream: INSERTed outbox rows only, retried, bisected, failures kept', () => {
    const [sc] = STREAM_CONSUMERS;
    const fn = lambdaFor(workers, sc.handler);
    workers.hasResourceProperties('AWS::Lambda::EventSourceMapping', {
      BatchSize: sc.batchSize,
      StartingPosition: 'TRIM_HORIZON',
      MaximumRetryAttempts: sc.retryAttempts,
      BisectBatchOnFunctionError: true,
      FilterCriteria: { Filters: [{ Pattern: JSON.stringify({ eventName: ['INSERT'], dynamodb: { NewImage: { __edb_e__: { S: ['outbox_event'] } } } }) }] },
      DestinationConfig: { OnFailure: { Destination: Match.anyValue() } },
    });
    expect(actionsOfRole(workers, fn)).toEqual(expect.arrayContaining(['events:PutEvents', 'dynamodb:DeleteItem', 'dynamodb:BatchWriteItem', 'dynamodb:BatchGetItem']));
  });

  it('lets the realtime fan-out post to WebSocket connections', () => {
    const sub = SUBSCRIPTIONS.find((s) => s.name === 'realtime-fanout')!;
    const fn = lambdaFor(workers, sub.handler);
    expect(fn.Properties.Environment.Variables).toHaveProperty('WS_MANAGEMENT_URL');
    expect(JSON.stringify(fn.Properties.Environment.Variables.WS_MANAGEMENT_URL)).toContain('/prod');
    expect(actionsOfRole(workers, fn)).toContain('execute-api:ManageConnections');
  });

  it('hands the Graph API token only to the WhatsApp channel consumers', () => {
    const built = build({ webDist: '/nonexistent', whatsapp: { accessToken: 'token', appSecret: 'secret', verifyToken: 'verify' } });
    const t = Template.fromStack(built.workers);
    const a = Template.fromStack(built.apiRoutes.Org);
    const routeLambdas = Object.values(built.apiRoutes).flatMap((st) => lambdasOf(Template.fromStack(st)));
    for (const fn of [...lambdasOf(t), ...routeLambdas, ...lambdasOf(Template.fromStack(built.api))]) {
      const env = fn.Properties.Environment.Variables as Record<string, unknown>;
      const description = String(fn.Properties.Description);
      const isChannel = description.includes('functions/channels/whatsapp-cloud/') || description.endsWith(OUTBOUND) || description.endsWith(MEDIA_DOWNLOAD);
      if (!isChannel) expect(Object.keys(env).filter((k) => k.startsWith('WHATSAPP_') && !k.endsWith('_QUEUE_URL'))).toEqual([]);
    }
    expect(lambdaFor(t, 'functions/consumers/whatsapp-outbound.ts#handler').Properties.Environment.Variables.WHATSAPP_ACCESS_TOKEN).toBe('token');
    expect(lambdaFor(t, MEDIA_DOWNLOAD).Properties.Environment.Variables.WHATSAPP_ACCESS_TOKEN).toBe('token');
    expect(lambdaFor(a, 'functions/channels/whatsapp-cloud/receive-webhook.ts#handler').Properties.Environment.Variables.WHATSAPP_APP_SECRET).toBe('secret');
    expect(lambdaFor(a, 'functions/channels/whatsapp-cloud/verify-webhook.ts#handler').Properties.Environment.Variables.WHATSAPP_VERIFY_TOKEN).toBe('verify');
  });

  it('hands the phone token key only to add-phone, the outbound sender and the media download', () => {
    const built = build({ webDist: '/nonexistent', whatsapp: { accessToken: 'token', phoneTokenKey: 'key' } });
    const all = [...lambdasOf(Template.fromStack(built.workers)), ...lambdasOf(Template.fromStack(built.api)), ...Object.values(built.apiRoutes).flatMap((st) => lambdasOf(Template.fromStack(st)))];
    const withKey = all.filter((fn) => (fn.Properties.Environment.Variables as Record<string, unknown>).PHONE_TOKEN_KEY === 'key').map((fn) => String(fn.Properties.Description));
    expect(withKey.map((d) => d.slice(d.search(/(events|functions)\//))).sort()).toEqual(['functions/consumers/media-download.ts#handler', 'functions/consumers/whatsapp-outbound.ts#handler', 'functions/http/phones/add-phone.ts#handler']);
    const addPhone = all.find((fn) => String(fn.Properties.Description).includes('functions/http/phones/add-phone.ts#handler'))!;
    expect(addPhone.Properties.Environment.Variables).not.toHaveProperty('WHATSAPP_ACCESS_TOKEN');
  });
});

describe('web', () => {
  it('keeps the bucket private behind CloudFront with OAC', () => {
    web.hasResourceProperties('AWS::S3::Bucket', {
      PublicAccessBlockConfiguration: {
        BlockPublicAcls: true,
        BlockPublicPolicy: true,
        IgnorePublicAcls: true,
        RestrictPublicBuckets: true,
      },
    });
    web.resourceCountIs('AWS::CloudFront::OriginAccessControl', 1);
    web.hasResourceProperties('AWS::CloudFront::Distribution', {
      DistributionConfig: Match.objectLike({ DefaultRootObject: 'index.html' }),
    });
    web.hasOutput('WebUrl', {});
  });

  it('deploys the bundle plus config.json (WebConfig, stage aws)', () => {
    web.resourceCountIs('Custom::CDKBucketDeployment', 1);
    const deployment = Object.values(web.findResources('Custom::CDKBucketDeployment'))[0] as Resource;
    expect(deployment.Properties.SourceObjectKeys).toHaveLength(2);
    // Source.jsonData stages config.json with deploy-time markers for the API and Cognito values.
    const outdir = stacks.web.node.root instanceof App ? (stacks.web.node.root as App).outdir : '';
    const staged = fs
      .readdirSync(outdir)
      .map((d) => path.join(outdir, d, 'config.json'))
      .find((f) => fs.existsSync(f));
    expect(staged).toBeDefined();
    const config = JSON.parse(fs.readFileSync(staged!, 'utf8'));
    expect(Object.keys(config).sort()).toEqual(['apiUrl', 'region', 'stage', 'userPoolClientId', 'userPoolId', 'wsUrl']);
    expect(config.stage).toBe('aws');
    expect(Object.keys(deployment.Properties.SourceMarkers[1] ?? {}).length).toBeGreaterThanOrEqual(4);
  });

  it('skips the deployment with a warning when the web build is missing', () => {
    const built = build({ webDist: path.join(os.tmpdir(), 'chorus-no-such-dist') });
    const t = Template.fromStack(built.web);
    t.resourceCountIs('Custom::CDKBucketDeployment', 0);
    t.resourceCountIs('AWS::CloudFront::Distribution', 1);
    Annotations.fromStack(built.web).hasWarning('*', Match.stringLikeRegexp('Web assets not found'));
  });
});

describe('wiring', () => {
  it('sets only shared/config.ts environment variables', () => {
    for (const t of handlerStacks()) {
      for (const fn of lambdasOf(t)) {
        for (const name of Object.keys(fn.Properties.Environment?.Variables ?? {})) expect(CONFIG_ENV, name).toContain(name);
      }
    }
  });

  it('has no access override for a handler that no longer exists', () => {
    const refs = new Set(allHandlerRefs());
    for (const key of Object.keys(ACCESS_OVERRIDES)) expect(refs, key).toContain(key);
  });

  it('every handler the registries name exists', () => {
    const missing = missingHandlerFiles();
    expect(missing).toEqual([]);
  });
});

describe('real bundling', () => {
  it('bundles every handler with esbuild', () => {
    const app = new App({ outdir: mkTmp('chorus-cdk-bundle-'), context: cdkContext });
    const built = buildApp(app, { bundle: true, webDist: '/nonexistent' });
    const fns = [built.api, ...Object.values(built.apiRoutes), built.workers].flatMap((st) => lambdasOf(Template.fromStack(st)));
    expect(fns.length).toBeGreaterThan(HTTP_ROUTES.length / 2);
    for (const fn of fns) expect(fn.Properties.Handler).toMatch(/^index\./);
  }, 900_000); // ~250 esbuild runs one after another: 299 s in the last CI run, more under load
});

describe('wa-web (WhatsApp Web session workers)', () => {
  it('makes the worker queues FIFO, with a FIFO DLQ', () => {
    const fifo = Object.values(events.findResources('AWS::SQS::Queue', { Properties: { FifoQueue: true } }));
    // plus the FIFO command queues (whatsapp-inbound: ordered per chat, issue 23)
    const fifoCommands = COMMAND_QUEUES.filter((c) => 'fifo' in c && c.fifo).length;
    expect(fifoCommands).toBeGreaterThan(0);
    expect(fifo).toHaveLength((WORKER_QUEUES.length + fifoCommands) * 2);
  });

  it('runs one Fargate service (arm64) that stops the old task before starting a new one, with the table, bus, queue and key in its environment', () => {
    const t = Template.fromStack(stacks.waWeb);
    t.resourceCountIs('AWS::ECS::Service', 1);
    t.hasResourceProperties('AWS::ECS::Service', { LaunchType: 'FARGATE', DesiredCount: 1, DeploymentConfiguration: Match.objectLike({ MaximumPercent: 100, MinimumHealthyPercent: 0 }) });
    t.hasResourceProperties('AWS::ECS::TaskDefinition', { RuntimePlatform: { CpuArchitecture: 'ARM64', OperatingSystemFamily: 'LINUX' } });
    const td = Object.values(t.findResources('AWS::ECS::TaskDefinition'))[0] as Resource;
    const env = (td.Properties.ContainerDefinitions[0].Environment as Array<{ Name: string }>).map((e) => e.Name);
    expect(env).toEqual(expect.arrayContaining(['TABLE_NAME', 'EVENT_BUS_NAME', 'MEDIA_BUCKET', 'WA_WEB_COMMANDS_QUEUE_URL', 'WA_WEB_INBOUND_QUEUE_URL']));
  });

  it('grants the task role the table, the bus, consuming the FIFO queue, sending to the inbound queue and reading and writing media; no inbound traffic', () => {
    const t = Template.fromStack(stacks.waWeb);
    const actions = (Object.values(t.findResources('AWS::IAM::Policy')) as Resource[]).flatMap((p) => p.Properties.PolicyDocument.Statement.flatMap((s: { Action: string | string[] }) => [s.Action].flat()));
    expect(actions).toEqual(expect.arrayContaining(['dynamodb:PutItem', 'events:PutEvents', 'sqs:ReceiveMessage', 'sqs:DeleteMessage', 'sqs:ChangeMessageVisibility', 'sqs:SendMessage', 's3:GetObject*', 's3:PutObject']));
    t.hasResourceProperties('AWS::EC2::SecurityGroup', { GroupDescription: 'WhatsApp Web session workers: outbound only', SecurityGroupIngress: Match.absent() });
    t.resourceCountIs('AWS::EC2::NatGateway', 0);
  });

  it('lets the outbound consumer (and route Lambdas) send to the worker queue', () => {
    const fn = lambdaFor(workers, 'functions/consumers/whatsapp-outbound.ts#handler');
    expect(fn.Properties.Environment.Variables).toHaveProperty('WA_WEB_COMMANDS_QUEUE_URL');
    expect(actionsOfRole(workers, fn)).toContain('sqs:SendMessage');
  });

  it('stores what the sessions receive with a consumer of the wa-web-inbound queue that may ask the worker (its queue) for files and group metadata', () => {
    const fn = lambdaFor(workers, 'functions/consumers/wa-web-inbound.ts#handler');
    expect(Object.keys(fn.Properties.Environment.Variables)).toEqual(expect.arrayContaining(['TABLE_NAME', 'EVENT_BUS_NAME', 'WA_WEB_COMMANDS_QUEUE_URL']));
    expect(fn.Properties.Environment.Variables).not.toHaveProperty('WHATSAPP_OUTBOUND_QUEUE_URL');
    expect(actionsOfRole(workers, fn)).toContain('sqs:SendMessage');
  });
});

// --- issue 21: web push ---
describe('web push (VAPID key secret)', () => {
  it('the data stack holds one Secrets Manager secret for the VAPID pair, kept on stack deletion', () => {
    data.hasResource('AWS::SecretsManager::Secret', { DeletionPolicy: 'Retain', Properties: Match.objectLike({ Description: Match.stringLikeRegexp('VAPID') }) });
  });

  it('hands the secret (ARN, read and PutSecretValue) only to the web-push consumer and the key / test routes', () => {
    const all = handlerStacks().flatMap((t) => lambdasOf(t));
    const withSecret = all.filter((fn) => 'VAPID_SECRET_ARN' in ((fn.Properties.Environment?.Variables ?? {}) as Record<string, unknown>)).map((fn) => String(fn.Properties.Description));
    expect(withSecret.map((d) => d.slice(d.search(/(events|functions)\//))).sort()).toEqual([
      'functions/consumers/web-push.ts#handler',
      'functions/http/notifications/get-vapid-public-key.ts#handler',
      'functions/http/notifications/send-test-push.ts#handler',
    ]);
    const policies = handlerStacks().flatMap((t) => Object.values(t.findResources('AWS::IAM::Policy')));
    const secretActions = policies.flatMap((p) => (p.Properties.PolicyDocument.Statement as Array<{ Action: string | string[] }>).flatMap((st) => [st.Action].flat())).filter((a) => a.startsWith('secretsmanager:'));
    expect(secretActions).toContain('secretsmanager:GetSecretValue');
    expect(secretActions).toContain('secretsmanager:PutSecretValue');
  });
});
