/**
 * Api stack (API + realtime): the HTTP API, its Cognito JWT authorizer, and the WebSocket API with
 * its three Lambdas. The HTTP routes and their Lambdas live in the ApiRoutes stacks
 * (infra/stacks/api-routes-stack.ts, grouped by infra/api-areas.ts), which attach routes to this
 * API, so the route registry can grow past what one stack's 500 resources allow.
 *
 * - HTTP API: `auth: 'jwt'` routes sit behind the Cognito JWT authorizer (issuer = the pool, audience
 *   = the web client id; API Gateway accepts the id token's `aud` or the access token's
 *   `client_id`); `auth: 'none'` routes (WhatsApp webhooks) are public and verify their own
 *   signature. CORS: `*` by default (tokens travel in the Authorization header, never cookies),
 *   or the origins given in context `corsOrigins`. Payload format 2.0. The default stage
 *   auto-deploys, so routes added by the route stacks go live without a deployment resource here.
 * - WebSocket API: $connect/$disconnect/$default, stage `prod` (auto-deploy). $connect checks the
 *   JWT itself (`?token=`), so no API Gateway authorizer there.
 * Each function's environment and IAM come from its access profile (infra/access.ts); functions
 * with the same profile share one execution role.
 */
import { CfnOutput, Duration, RemovalPolicy, Stack, type StackProps } from 'aws-cdk-lib';
import * as apigw from 'aws-cdk-lib/aws-apigatewayv2';
import { WebSocketLambdaIntegration } from 'aws-cdk-lib/aws-apigatewayv2-integrations';
import type * as dynamodb from 'aws-cdk-lib/aws-dynamodb';
import type * as events from 'aws-cdk-lib/aws-events';
import type * as lambda from 'aws-cdk-lib/aws-lambda';
import * as logs from 'aws-cdk-lib/aws-logs';
import type * as opensearch from 'aws-cdk-lib/aws-opensearchservice';
import type * as s3 from 'aws-cdk-lib/aws-s3';
import type * as secretsmanager from 'aws-cdk-lib/aws-secretsmanager';
import type * as sqs from 'aws-cdk-lib/aws-sqs';
import type { Construct } from 'constructs';
import { type HttpRoute, WS_ROUTES } from '../../functions/routes.ts';
import type { MailSettings, SchedulerResources, WhatsAppSettings } from '../access.ts';
import { handlerConstructId } from '../constructs/handler-function.ts';
import { HandlerFunctions } from '../constructs/handler-functions.ts';

export const WEBSOCKET_STAGE = 'prod';

export interface ApiStackProps extends StackProps {
  readonly table: dynamodb.ITable;
  readonly mediaBucket: s3.IBucket;
  /** web push VAPID key secret (issue 21) */
  readonly vapidSecret?: secretsmanager.ISecret;
  /** issue 42 §4: the key of masked ids (infra/access.ts) */
  readonly maskedIdKeySecret?: secretsmanager.ISecret;
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
  /** the HTTP route registry (for the webhook URL output) */
  readonly routes: readonly HttpRoute[];
}

export class ApiStack extends Stack {
  readonly httpApi: apigw.HttpApi;
  readonly webSocketApi: apigw.WebSocketApi;
  readonly webSocketStage: apigw.WebSocketStage;
  /** the Cognito JWT authorizer of `auth: 'jwt'` routes */
  readonly jwtAuthorizer: apigw.HttpAuthorizer;
  /** WebSocket handler reference -> its Lambda */
  readonly functions: ReadonlyMap<string, lambda.Function>;

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

    const handlers = new HandlerFunctions(this, {
      bundle: props.bundle,
      roleDescription: 'Chorus API handlers',
      resources: {
        table: props.table,
        mediaBucket: props.mediaBucket,
        vapidSecret: props.vapidSecret,
        maskedIdKeySecret: props.maskedIdKeySecret,
        searchDomain: props.searchDomain,
        bus: props.bus,
        commandQueues: props.commandQueues,
        scheduler: props.scheduler,
        cognito: { issuer: props.issuer, clientId: props.userPoolClientId },
        wsStage: this.webSocketStage,
        whatsapp: props.whatsapp,
        mail: props.mail,
      },
    });

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
    // Access logs of the HTTP API (one JSON line per request; HTTP APIs need no account-level role)
    const accessLogs = new logs.LogGroup(this, 'HttpApiAccessLogs', { retention: logs.RetentionDays.ONE_MONTH, removalPolicy: RemovalPolicy.DESTROY });
    const defaultStage = this.httpApi.defaultStage?.node.defaultChild as apigw.CfnStage;
    defaultStage.accessLogSettings = {
      destinationArn: accessLogs.logGroupArn,
      format: JSON.stringify({
        requestId: '$context.requestId',
        ip: '$context.identity.sourceIp',
        requestTime: '$context.requestTimeEpoch',
        routeKey: '$context.routeKey',
        status: '$context.status',
        responseLength: '$context.responseLength',
        latencyMs: '$context.responseLatency',
        integrationLatencyMs: '$context.integrationLatency',
        integrationError: '$context.integrationErrorMessage',
        authorizerError: '$context.authorizer.error',
      }),
    };
    // Created here rather than through HttpJwtAuthorizer, which would create it in the stack of the
    // first route that uses it; the route stacks refer to it by id.
    this.jwtAuthorizer = new apigw.HttpAuthorizer(this, 'CognitoJwt', {
      httpApi: this.httpApi,
      type: apigw.HttpAuthorizerType.JWT,
      identitySource: ['$request.header.Authorization'],
      jwtIssuer: props.issuer,
      jwtAudience: [props.userPoolClientId],
    });

    // WebSocket API routes
    const wsRoute = (handler: string): apigw.WebSocketRouteOptions => ({
      integration: new WebSocketLambdaIntegration(`${handlerConstructId(handler)}Integration`, handlers.fn(handler, 'ws')),
    });
    for (const key of ['$connect', '$disconnect', '$default'] as const) this.webSocketApi.addRoute(key, wsRoute(WS_ROUTES[key]));
    this.functions = handlers.functions;

    new CfnOutput(this, 'HttpApiUrl', { value: this.httpApi.apiEndpoint, description: 'HTTP API base URL (no trailing slash)' });
    new CfnOutput(this, 'WebSocketUrl', { value: this.webSocketStage.url, description: 'WebSocket URL (wss://.../prod)' });
    const webhook = props.routes.find((r) => r.method === 'POST' && r.auth === 'none' && r.path.startsWith('/webhooks/'));
    if (webhook) {
      new CfnOutput(this, 'WhatsAppWebhookUrl', {
        value: `${this.httpApi.apiEndpoint}${webhook.path}`,
        description: 'Callback URL to register in the Meta app (WhatsApp > Configuration)',
      });
    }
  }
}
