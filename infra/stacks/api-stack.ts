/**
 * Api stack (API + realtime): the HTTP API and the WebSocket API with one Lambda per handler of
 * functions/routes.ts (the same registry the local gateway serves, so routes cannot drift).
 *
 * - HTTP API: `auth: 'jwt'` routes sit behind a Cognito JWT authorizer (issuer = the pool, audience
 *   = the web client id; API Gateway accepts the id token's `aud` or the access token's
 *   `client_id`); `auth: 'none'` routes (WhatsApp webhooks) are public and verify their own
 *   signature. CORS: `*` by default (tokens travel in the Authorization header, never cookies),
 *   or the origins given in context `corsOrigins`. Payload format 2.0.
 * - WebSocket API: $connect/$disconnect/$default, stage `prod` (auto-deploy). $connect checks the
 *   JWT itself (`?token=`), so no API Gateway authorizer there.
 * Each function's environment and IAM come from its access profile (infra/access.ts); functions
 * with the same profile share one execution role.
 */
import { CfnOutput, Duration, Stack, type StackProps } from 'aws-cdk-lib';
import * as apigw from 'aws-cdk-lib/aws-apigatewayv2';
import { HttpJwtAuthorizer } from 'aws-cdk-lib/aws-apigatewayv2-authorizers';
import { HttpLambdaIntegration, WebSocketLambdaIntegration } from 'aws-cdk-lib/aws-apigatewayv2-integrations';
import type * as dynamodb from 'aws-cdk-lib/aws-dynamodb';
import type * as events from 'aws-cdk-lib/aws-events';
import * as iam from 'aws-cdk-lib/aws-iam';
import type * as lambda from 'aws-cdk-lib/aws-lambda';
import type * as opensearch from 'aws-cdk-lib/aws-opensearchservice';
import type * as s3 from 'aws-cdk-lib/aws-s3';
import type * as sqs from 'aws-cdk-lib/aws-sqs';
import type { Construct } from 'constructs';
import { HTTP_ROUTES, WS_ROUTES } from '../../functions/routes.ts';
import { accessFor, type MailSettings, type SchedulerResources, type Surface, type WhatsAppSettings, wireFunction } from '../access.ts';
import { createHandlerFunction, handlerConstructId } from '../constructs/handler-function.ts';
import { pascalCase } from '../names.ts';

export const WEBSOCKET_STAGE = 'prod';

/**
 * HTTP handlers that need more than the function defaults: sending a message checks a member's
 * uploaded file (an image read whole, up to 5 MB) and makes its thumbnail with sharp (a native
 * module, installed for Lambda rather than bundled); the bulk routes below.
 */
export const HANDLER_SIZING: Record<string, { memorySize?: number; nodeModules?: string[]; timeout?: Duration }> = {
  'functions/http/messages/send-message.ts#handler': { memorySize: 1024, nodeModules: ['sharp'] },
  // a CSV export reads up to 100 pages of 1,000 chats and gzips the file (API Gateway waits at most 30 s)
  'functions/http/bulk/export-chats.ts#handler': { memorySize: 1024, timeout: Duration.seconds(29) },
  // a bulk job of up to 10,000 chat ids stores one item per chat before answering 202
  'functions/http/bulk/create-bulk-job.ts#handler': { timeout: Duration.seconds(29) },
};

export interface ApiStackProps extends StackProps {
  readonly table: dynamodb.ITable;
  readonly mediaBucket: s3.IBucket;
  readonly searchDomain: opensearch.IDomain;
  readonly bus: events.IEventBus;
  readonly commandQueues: ReadonlyMap<string, { readonly queue: sqs.IQueue; readonly env: string }>;
  readonly scheduler: SchedulerResources;
  readonly issuer: string;
  readonly userPoolClientId: string;
  readonly whatsapp: WhatsAppSettings;
  /** the product's email sender and the app's address (invitation emails) */
  readonly mail?: MailSettings;
  readonly corsOrigins: string[];
  readonly bundle: boolean;
}

export class ApiStack extends Stack {
  readonly httpApi: apigw.HttpApi;
  readonly webSocketApi: apigw.WebSocketApi;
  readonly webSocketStage: apigw.WebSocketStage;
  /** handler reference -> its Lambda (one per distinct handler) */
  readonly functions = new Map<string, lambda.Function>();

  constructor(scope: Construct, id: string, props: ApiStackProps) {
    super(scope, id, props);

    this.webSocketApi = new apigw.WebSocketApi(this, 'WebSocketApi', {
      apiName: `${this.stackName}-ws`,
      description: 'Chorus realtime: message and chat events pushed to connected members',
    });
    this.webSocketStage = new apigw.WebSocketStage(this, 'WebSocketStage', {
      webSocketApi: this.webSocketApi,
      stageName: WEBSOCKET_STAGE,
      autoDeploy: true,
    });

    // One execution role per distinct access profile: functions that may do exactly the same share
    // it (least privilege is unchanged), which keeps the stack under CloudFormation's 500 resources.
    const roles = new Map<string, iam.Role>();
    const roleFor = (access: ReturnType<typeof accessFor>): iam.Role => {
      const key = JSON.stringify(access);
      let role = roles.get(key);
      if (!role) {
        role = new iam.Role(this, `HandlerRole${roles.size + 1}`, {
          assumedBy: new iam.ServicePrincipal('lambda.amazonaws.com'),
          managedPolicies: [iam.ManagedPolicy.fromAwsManagedPolicyName('service-role/AWSLambdaBasicExecutionRole')],
          description: `Chorus API handlers with access ${key}`.slice(0, 1000),
        });
        roles.set(key, role);
      }
      return role;
    };
    const fnFor = (handler: string, surface: Surface): lambda.Function => {
      const existing = this.functions.get(handler);
      if (existing) return existing;
      const access = accessFor(handler, surface);
      const fn = createHandlerFunction(this, handlerConstructId(handler), { handler, bundle: props.bundle, role: roleFor(access), ...HANDLER_SIZING[handler] });
      wireFunction(fn, access, {
        table: props.table,
        mediaBucket: props.mediaBucket,
        searchDomain: props.searchDomain,
        bus: props.bus,
        commandQueues: props.commandQueues,
        scheduler: props.scheduler,
        cognito: { issuer: props.issuer, clientId: props.userPoolClientId },
        wsStage: this.webSocketStage,
        whatsapp: props.whatsapp,
        mail: props.mail,
      });
      this.functions.set(handler, fn);
      return fn;
    };

    // HTTP API
    this.httpApi = new apigw.HttpApi(this, 'HttpApi', {
      apiName: `${this.stackName}-http`,
      description: 'Chorus HTTP API and WhatsApp webhooks',
      corsPreflight: {
        allowOrigins: props.corsOrigins,
        allowHeaders: ['Authorization', 'Content-Type'],
        allowMethods: [
          apigw.CorsHttpMethod.GET,
          apigw.CorsHttpMethod.POST,
          apigw.CorsHttpMethod.PUT,
          apigw.CorsHttpMethod.PATCH,
          apigw.CorsHttpMethod.DELETE,
          apigw.CorsHttpMethod.OPTIONS,
        ],
        maxAge: Duration.days(1),
      },
    });
    const jwtAuthorizer = new HttpJwtAuthorizer('CognitoJwt', props.issuer, {
      jwtAudience: [props.userPoolClientId],
    });
    const noAuth = new apigw.HttpNoneAuthorizer();

    for (const route of HTTP_ROUTES) {
      const routeId = pascalCase(`${route.method} ${route.path}`);
      this.httpApi.addRoutes({
        path: route.path,
        methods: [apigw.HttpMethod[route.method]],
        integration: new HttpLambdaIntegration(`${routeId}Integration`, fnFor(route.handler, 'http')),
        authorizer: route.auth === 'jwt' ? jwtAuthorizer : noAuth,
      });
    }

    // WebSocket API routes
    const wsRoute = (handler: string): apigw.WebSocketRouteOptions => ({
      integration: new WebSocketLambdaIntegration(`${handlerConstructId(handler)}Integration`, fnFor(handler, 'ws')),
    });
    for (const key of ['$connect', '$disconnect', '$default'] as const) this.webSocketApi.addRoute(key, wsRoute(WS_ROUTES[key]));

    new CfnOutput(this, 'HttpApiUrl', { value: this.httpApi.apiEndpoint, description: 'HTTP API base URL (no trailing slash)' });
    new CfnOutput(this, 'WebSocketUrl', { value: this.webSocketStage.url, description: 'WebSocket URL (wss://.../prod)' });
    const webhook = HTTP_ROUTES.find((r) => r.method === 'POST' && r.auth === 'none' && r.path.startsWith('/webhooks/'));
    if (webhook) {
      new CfnOutput(this, 'WhatsAppWebhookUrl', {
        value: `${this.httpApi.apiEndpoint}${webhook.path}`,
        description: 'Callback URL to register in the Meta app (WhatsApp > Configuration)',
      });
    }
  }
}
