/**
 * ApiRoutes stacks: one per group of infra/api-areas.ts, each holding the Lambdas of its HTTP
 * routes (functions/routes.ts) and the routes themselves, attached to the HTTP API of the Api stack
 * (routes, integrations and invoke permissions are created here; the API, its stage and the JWT
 * authorizer stay in the Api stack). The Api stack's default stage auto-deploys, so a route created
 * here is live once this stack is deployed.
 *
 * Each function's environment and IAM come from its access profile (infra/access.ts); functions
 * with the same profile share one execution role within the stack.
 */
import { Duration, Stack, type StackProps } from 'aws-cdk-lib';
import * as apigw from 'aws-cdk-lib/aws-apigatewayv2';
import { HttpLambdaIntegration } from 'aws-cdk-lib/aws-apigatewayv2-integrations';
import type * as lambda from 'aws-cdk-lib/aws-lambda';
import type { Construct } from 'constructs';
import type { HttpRoute } from '../../functions/routes.ts';
import type { WiringResources } from '../access.ts';
import { HandlerFunctions, type HandlerSizing } from '../constructs/handler-functions.ts';
import { pascalCase } from '../names.ts';

/**
 * HTTP handlers that need more than the function defaults: sending a message checks a member's
 * uploaded file (an image read whole, up to 5 MB) and makes its thumbnail with sharp (a native
 * module, installed for Lambda rather than bundled); the bulk routes below.
 */
export const HANDLER_SIZING: Record<string, HandlerSizing> = {
  'functions/http/messages/send-message.ts#handler': { memorySize: 1024, nodeModules: ['sharp'] },
  // a CSV export reads up to 100 pages of 1,000 chats and gzips the file (API Gateway waits at most 30 s)
  'functions/http/bulk/export-chats.ts#handler': { memorySize: 1024, timeout: Duration.seconds(29) },
  // a bulk job of up to 10,000 chat ids stores one item per chat before answering 202
  'functions/http/bulk/create-bulk-job.ts#handler': { timeout: Duration.seconds(29) },
};

export interface ApiRoutesStackProps extends StackProps {
  /** the routes this stack serves (one group of infra/api-areas.ts) */
  readonly routes: readonly HttpRoute[];
  readonly httpApi: apigw.IHttpApi;
  /** the Api stack's Cognito JWT authorizer */
  readonly jwtAuthorizer: apigw.IHttpAuthorizer;
  /** what the handlers may be wired to (infra/access.ts) */
  readonly resources: WiringResources;
  readonly bundle: boolean;
}

export class ApiRoutesStack extends Stack {
  /** handler reference -> its Lambda (one per distinct handler) */
  readonly functions: ReadonlyMap<string, lambda.Function>;

  constructor(scope: Construct, id: string, props: ApiRoutesStackProps) {
    super(scope, id, props);
    const handlers = new HandlerFunctions(this, { bundle: props.bundle, resources: props.resources, sizing: HANDLER_SIZING, roleDescription: 'Chorus API handlers' });
    const jwt = apigw.HttpAuthorizer.fromHttpAuthorizerAttributes(this, 'CognitoJwt', {
      authorizerId: props.jwtAuthorizer.authorizerId,
      authorizerType: apigw.HttpAuthorizerType.JWT,
    });
    const none = new apigw.HttpNoneAuthorizer();
    for (const route of props.routes) {
      const routeId = pascalCase(`${route.method} ${route.path}`);
      new apigw.HttpRoute(this, `${routeId}Route`, {
        httpApi: props.httpApi,
        routeKey: apigw.HttpRouteKey.with(route.path, apigw.HttpMethod[route.method]),
        integration: new HttpLambdaIntegration(`${routeId}Integration`, handlers.fn(route.handler, 'http')),
        authorizer: route.auth === 'jwt' ? jwt : none,
      });
    }
    this.functions = handlers.functions;
  }
}
