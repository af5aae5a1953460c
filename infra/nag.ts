/**
 * cdk-nag's AwsSolutions rules on every stack (CDK policy validation: a finding fails `cdk synth`,
 * `npm run synth`, `cdk deploy` and the infra tests), with the findings Chorus accepts listed
 * below, each with the reason it is accepted.
 *
 * Why a table rather than `Validations.of(construct).acknowledge()` beside each construct: cdk-nag 3
 * matches acknowledgements by exact finding id, and IAM5 finding ids embed resolved tokens
 * (`Resource::{"Fn::GetStackOutput":...}/index/*`) whose hashes change with the stack layout. Here
 * each acceptance names the rule, a pattern of the finding id and a pattern of the construct path,
 * so it stays as narrow as the finding and survives renames of unrelated resources. An acceptance
 * that no longer matches any finding fails the tests (infra/nag.test.ts), so stale ones go away.
 *
 *   Rules: https://github.com/cdklabs/cdk-nag/blob/main/RULES.md#awssolutions
 */
import type { IConstruct } from 'constructs';
import { type IPolicyValidationContext, type IPolicyValidationPlugin, type PolicyValidationPluginReport, Validations } from 'aws-cdk-lib';
import { AwsSolutionsChecks } from 'cdk-nag';

export interface NagAcceptance {
  /** the finding id: `AwsSolutions-L1`, or `AwsSolutions-IAM5[Resource::...]` for per-finding rules */
  readonly finding: RegExp;
  /** construct paths (`ChorusApiOrg/HandlerRole2/DefaultPolicy/Resource`) it applies to */
  readonly path: RegExp;
  /** why the finding is accepted */
  readonly reason: string;
  /** only real builds (`bundle: true`, the CLI) have the finding; the tests' placeholder builds do not */
  readonly whenBundled?: true;
}

/** Any Chorus stack of any stage (`Chorus...`, `<pipeline>/dev/Chorus...`). */
const ANY = /(^|\/)Chorus\w*\//;
const stack = (...names: string[]) => new RegExp(`(^|/)Chorus(${names.join('|')})/`);
/** execution roles' policies (shared handler roles, consumers' and triggers' service roles) */
const ROLE_POLICY = /(HandlerRole\d+|ServiceRole)\/DefaultPolicy\/Resource$/;
const both = (a: RegExp, b: RegExp) => new RegExp(`${a.source}.*${b.source}`);
/** ARN parts as cdk-nag renders them: pseudo parameters of env-agnostic stacks, literals in a pipeline stage */
const PARTITION = '(<AWS::Partition>|aws[a-z-]*)';
const REGION = '(<AWS::Region>|[a-z]{2}(-[a-z]+)+-\\d)';
const ACCOUNT = '(<AWS::AccountId>|\\d{12})';
/** `AwsSolutions-IAM5[Resource::arn:<partition>:<service>:<region>:<account>:<rest>]` */
const iam5Arn = (service: string, region: string, rest: string) =>
  new RegExp(`^AwsSolutions-IAM5\\[Resource::arn:${PARTITION}:${service}:${region}:${ACCOUNT}:${rest}\\]$`);
/** the pipeline stack's own resources (not its stages) */
const PIPELINE = /^Chorus\w*Pipeline\/Pipeline\//;

export const NAG_ACCEPTANCES: readonly NagAcceptance[] = [
  // Lambda
  {
    finding: /^AwsSolutions-IAM4\[Policy::arn:<AWS::Partition>:iam::aws:policy\/service-role\/AWSLambdaBasicExecutionRole\]$/,
    path: ANY,
    reason: 'The AWS managed basic execution policy only allows logs:CreateLogGroup/CreateLogStream/PutLogEvents; every function has an explicit log group with one-month retention, so a hand-written copy would add nothing.',
  },
  {
    finding: /^AwsSolutions-IAM5\[Resource::\*\]$/,
    path: both(ANY, ROLE_POLICY),
    reason: 'X-Ray active tracing: xray:PutTraceSegments and xray:PutTelemetryRecords support no resource-level permissions (CDK adds them with Resource *); the BucketDeployment role likewise needs cloudfront:CreateInvalidation on *, and the dashboard sqs:ListQueues (issue 19).',
  },
  {
    finding: /^AwsSolutions-L1$/,
    path: ANY,
    reason: 'Functions run nodejs22.x on purpose (infra/constructs/handler-function.ts): supported until 2027-04-30, closest to the Node 20 the local runtime and bundles target; moving to a newer runtime is a separate, tested change. CDK-provided custom-resource functions pick their own runtime.',
  },
  // DynamoDB
  {
    finding: /^AwsSolutions-IAM5\[Resource::.*Table\w*\W?Arn.*\/index\/\*\]$/,
    path: both(ANY, /(HandlerRole\d+|ServiceRole|TaskRole)\/DefaultPolicy\/Resource$/),
    reason: 'Table grants include the table\'s indexes (table-arn/index/*) so queries on gsi1 work; the grant stays on the one Chorus table.',
  },
  // The outbox relay's stream mapping (infra/stacks/workers-stack.ts)
  {
    finding: /^AwsSolutions-SQS3$/,
    path: both(stack('Workers'), /OutboxRelayFailures\/Resource$/),
    reason: "It is the outbox relay stream mapping's on-failure destination (a dead-letter queue of a DynamoDB event source, which cdk-nag only recognises on SQS redrive policies): it holds descriptions of batches that failed every retry, and nothing consumes it, so a DLQ of its own would have nothing to catch.",
  },
  // S3 media bucket and the web bucket
  {
    finding: /^AwsSolutions-IAM5\[Action::s3:(Abort\*|DeleteObject\*|GetBucket\*|GetObject\*|List\*)\]$/,
    path: ANY,
    reason: 'CDK grant helpers (grantRead/grantReadWrite) use these action groups; they are scoped to the one bucket and its objects.',
  },
  {
    finding: /^AwsSolutions-IAM5\[Resource::(.*MediaBucket.*|<Bucket\w+\.Arn>)\/\*\]$/,
    path: ANY,
    reason: 'Object keys are per org, chat and message (media/{org_id}/...), created at run time; access is limited to the one bucket\'s objects.',
  },
  {
    finding: new RegExp(`^AwsSolutions-IAM5\\[Resource::arn:${PARTITION}:s3:::cdk-[a-z0-9]+-assets-${ACCOUNT}-${REGION}/\\*\\]$`),
    path: stack('Web'),
    reason: 'CDK BucketDeployment reads the web bundle from the CDK bootstrap assets bucket; the key is a content hash known only at deploy time.',
  },
  {
    finding: /^AwsSolutions-S1$/,
    path: both(stack('Data', 'Web'), /(MediaBucket|Bucket)\/Resource$/),
    reason: 'Media objects are only reached through presigned URLs that authorized handlers issue (each request logged with its request id), and the web bucket only through CloudFront; server access logs would need a log bucket with no reader. Enable CloudTrail S3 data events if object-level audit becomes a requirement.',
  },
  // OpenSearch
  {
    finding: /^AwsSolutions-OS(1|3|5)$/,
    path: stack('Search'),
    reason: 'The domain sits outside a VPC (a VPC would need NAT or endpoints for every Lambda) and has no resource policy: only the two search functions\' IAM policies allow es:ESHttp*, so every request must be SigV4-signed by those roles; HTTPS with TLS 1.2, encryption at rest and node-to-node are on.',
  },
  {
    finding: /^AwsSolutions-OS(4|7)$/,
    path: stack('Search'),
    reason: 'Sized by context (searchDataNodes, default one t3.small.search): dedicated masters and zone awareness cost more than the index is worth at launch; the index is rebuilt from DynamoDB, the source of truth. Zone awareness turns on with 2+ data nodes.',
  },
  {
    finding: /^AwsSolutions-OS9\[LogExport::(SEARCH|INDEX)_SLOW_LOGS\]$/,
    path: stack('Search'),
    reason: 'Slow logs need a CloudWatch resource policy (a custom resource) and are for tuning sessions; enable them on the domain when tuning.',
  },
  {
    finding: /^AwsSolutions-IAM5\[Resource::.*Domain\w*\W?Arn.*\/\*\]$/,
    path: both(ANY, ROLE_POLICY),
    reason: 'es:ESHttp* on the domain\'s subresources (indexes, _bulk, _search) only, not its configuration API; index names are created at run time.',
  },
  // issue 19: a platform org's /dashboard reads the deployment's queue status
  {
    finding: iam5Arn('sqs', REGION, '[\\w-]*Chorus\\w*Events-\\*'),
    path: both(stack('ApiInsights'), ROLE_POLICY),
    reason: 'The dashboard reads sqs:GetQueueAttributes (depth and dead letters) of this deployment\'s queues, whose names CloudFormation generates under the events stack\'s name; sqs:ListQueues has no resource-level permission and only lists names.',
  },
  // Cognito (sign-in: spec §7)
  {
    finding: /^AwsSolutions-COG(1|2|8)$/,
    path: stack('Auth'),
    reason: 'Sign-in is by email code or password (spec §7); the password policy, optional MFA and the Essentials feature plan are product decisions of the auth issue, not infrastructure defaults.',
  },
  {
    finding: iam5Arn('ses', REGION, '(identity|configuration-set)/\\*'),
    path: ANY,
    reason: 'The SES sender (context mailFrom) may be an address or a domain identity chosen at deploy time, so ses:SendEmail is allowed on this account\'s identities in the region, nothing else.',
  },
  // API Gateway
  {
    finding: /^AwsSolutions-APIG4$/,
    path: /(^|\/)Chorus(Api\/WebSocketApi\/\$(connect|disconnect|default)-Route|ApiOrg\/(GETWebhooksWhatsapp|POSTWebhooksWhatsapp|POSTApiAuthOtpPrepare)Route)\/Resource$/,
    reason: 'Public by design: WhatsApp webhooks check X-Hub-Signature-256 / the verify token themselves, the OTP prepare route precedes sign-in, and WebSocket $connect checks the ID token (?token=) itself while $disconnect/$default only run on a connection $connect accepted.',
  },
  // issue 20: the public API and MCP authenticate API keys in the handler (functions/lib/api-key.ts)
  {
    finding: /^AwsSolutions-APIG4$/,
    path: /(^|\/)ChorusApiPublic\/(GETV1OpenapiJson|(GET|POST|PUT|PATCH|DELETE)V1Orgs\w*|(GET|POST|DELETE)Mcp)Route\/Resource$/,
    reason: 'API-key routes: the handler checks `Authorization: Bearer <API key>` itself (hashed key by id, revocation at once, scopes, per-key token bucket) before anything else; the OpenAPI document is public documentation.',
  },
  // issue 22: the billing provider's webhook authenticates by its signature in the handler
  {
    finding: /^AwsSolutions-APIG4$/,
    path: /(^|\/)ChorusApiBilling\/POSTWebhooksBillingRoute\/Resource$/,
    reason: "Public by design: Stripe's webhook cannot send a Cognito token; the handler verifies the Stripe-Signature header (stripe.webhooks.constructEvent with the endpoint secret) before reading the event.",
  },
  {
    finding: /^AwsSolutions-APIG1$/,
    path: /(^|\/)ChorusApi\/WebSocketStage\/Resource$/,
    reason: 'WebSocket access logs need the account-wide API Gateway CloudWatch role, which this app does not own (feature flag disableCloudWatchRole); the HTTP API stage has access logs.',
  },
  {
    finding: iam5Arn('execute-api', REGION, '.*/prod/\\*/@connections/\\*'),
    path: both(ANY, ROLE_POLICY),
    reason: 'PostToConnection/DeleteConnection on the prod stage\'s connections: connection ids exist only at run time.',
  },
  // EventBridge Scheduler
  {
    finding: iam5Arn('scheduler', REGION, 'schedule/.*/\\*'),
    path: both(ANY, ROLE_POLICY),
    reason: 'Schedules are named per task or chat at run time; access is limited to Chorus\'s one schedule group.',
  },
  // CloudFront
  {
    finding: /^AwsSolutions-CFR(1|2)$/,
    path: stack('Web'),
    reason: 'The distribution serves a static single-page app bundle (no data, no forms): all data goes through the authenticated API, so geo restrictions and WAF on it protect nothing; put WAF in front when a custom domain comes.',
  },
  {
    finding: /^AwsSolutions-CFR(3|4)$/,
    path: stack('Web'),
    reason: 'Static bundle on the default *.cloudfront.net certificate, whose minimum protocol cannot be raised (TLS policy needs a custom domain certificate); access logs would need a log bucket with no reader.',
  },
  // WhatsApp Web workers (ECS Fargate)
  {
    finding: /^AwsSolutions-VPC7$/,
    path: stack('WaWeb'),
    reason: 'The VPC only carries the session workers\' outbound connections to WhatsApp (no ingress, no NAT, public subnets); flow logs would record that one destination at a cost.',
  },
  {
    finding: /^AwsSolutions-IAM5\[Resource::\*\]$/,
    path: /(^|\/)ChorusWaWeb\/Task\/ExecutionRole\/DefaultPolicy\/Resource$/,
    reason: 'Pulling the worker image from the CDK assets repository needs ecr:GetAuthorizationToken, which has no resource-level permissions; the pull actions themselves are on that one repository.',
    whenBundled: true,
  },
  {
    finding: /^AwsSolutions-ECS2$/,
    path: stack('WaWeb'),
    reason: 'The environment holds resource names and queue URLs; PHONE_TOKEN_KEY arrives as a CloudFormation dynamic reference when phoneTokenKeySecretName is set, so no secret is in the template.',
  },
  {
    finding: /^AwsSolutions-SMG4$/,
    path: /(^|\/)ChorusAuth\/OtpHmacKey\/Resource$/,
    reason: 'OTP_HMAC_KEY hashes email sign-in codes that live 10 minutes; rotating it would only invalidate the codes in flight, and it is read by the auth triggers at deploy time (dynamic reference), so there is no rotation Lambda to run.',
  },
  {
    finding: /^AwsSolutions-SMG4$/,
    path: /(^|\/)ChorusData\/VapidKeys\/Resource$/,
    reason: 'The web push VAPID key pair cannot be rotated without breaking every browser subscription (browsers bind a subscription to the public key); it is generated once on first use (shared/push/vapid.ts).',
  },
  {
    finding: /^AwsSolutions-SMG4$/,
    path: /(^|\/)ChorusData\/MaskedIdKey\/Resource$/,
    reason: 'The masked-id key (issue 42) seals contact and chat ids handed to masked members; a new value changes every masked id in their links and caches, so it is rotated by hand, deliberately, never on a schedule.',
  },
  // The delivery pipeline (infra/pipeline.ts): what CDK Pipelines creates
  {
    finding: /^AwsSolutions-(S1|CB4)$/,
    path: PIPELINE,
    reason: 'CDK Pipelines\' artifact bucket (private, SSE-S3 encrypted, read only by the pipeline\'s roles) and its CodeBuild projects: no access log reader, and CodeBuild encrypts its output with the AWS-managed S3 key, and artifacts bound for another account travel under the pipeline\'s own rotated KMS key (crossAccountKeys, on when a stage names another account).',
  },
  {
    finding: /^AwsSolutions-IAM5\[Resource::(<PipelineArtifactsBucket\w+\.Arn>|.*PipelineArtifactsBucket.*)\/\*\]$/,
    path: PIPELINE,
    reason: 'Pipeline actions read and write artifacts under generated keys in the pipeline\'s own artifact bucket.',
  },
  {
    finding: new RegExp(`^AwsSolutions-IAM5\\[Resource::arn:${PARTITION}:(logs|codebuild):${REGION}:${ACCOUNT}:(log-group:/aws/codebuild/.*|report-group/.*)\\]$`),
    path: PIPELINE,
    reason: 'CodeBuild writes its own log streams and test reports, named per build at run time, under /aws/codebuild/<project> and report-group/<project>-*.',
  },
  {
    finding: /^AwsSolutions-IAM5\[Action::kms:(GenerateDataKey|ReEncrypt)\*\]$/,
    path: PIPELINE,
    reason: 'Cross-account artifacts: CDK\'s grants on the pipeline\'s own artifact key use the kms:GenerateDataKey* and kms:ReEncrypt* action groups, on that one key.',
  },
  {
    finding: /^AwsSolutions-IAM5\[Resource::(\*|arn:\*:iam::(<AWS::AccountId>|\d{12}):role\/\*)\]$/,
    path: both(PIPELINE, /(UpdatePipeline\/SelfMutation|Assets\/FileRole)\/Role|FileRole\/DefaultPolicy/),
    reason: 'Self-mutation and asset publishing assume the CDK bootstrap roles (cdk-*-deploy/file-publishing roles, named per qualifier) and read CloudFormation/S3 metadata; CDK Pipelines scopes the assumption by role tags.',
  },
];

/** A finding left after the acceptances: rule (finding id) and construct path. */
export interface NagFinding {
  readonly rule: string;
  readonly path: string;
  readonly description: string;
}

/**
 * AwsSolutionsChecks with NAG_ACCEPTANCES applied. Register it on the app
 * (`Validations.of(app).addPlugins(new ChorusNagChecks(app))`); `findings(scope)` runs the same
 * checks without synthesizing (tests).
 */
export class ChorusNagChecks implements IPolicyValidationPlugin {
  readonly name = 'AwsSolutions';
  /** acceptances that matched at least one finding in the last run */
  readonly used = new Set<NagAcceptance>();
  private readonly pack: AwsSolutionsChecks;

  constructor(scope?: IConstruct, private readonly acceptances: readonly NagAcceptance[] = NAG_ACCEPTANCES) {
    this.pack = new AwsSolutionsChecks(scope, { verbose: true });
  }

  get version(): string | undefined {
    return this.pack.version;
  }

  validate(context: IPolicyValidationContext): PolicyValidationPluginReport {
    return this.accept(this.pack.validate(context));
  }

  /** The unaccepted findings under `scope`. */
  findings(scope: IConstruct): NagFinding[] {
    return this.accept(this.pack.validateScope(scope)).violations.flatMap((v) =>
      v.violatingResources.map((r) => ({ rule: v.ruleName, path: r.constructPath ?? r.resourceLogicalId ?? '', description: v.description })),
    );
  }

  private accept(report: PolicyValidationPluginReport): PolicyValidationPluginReport {
    const violations = report.violations
      .map((v) => ({
        ...v,
        violatingResources: v.violatingResources.filter((r) => {
          const hit = this.acceptances.find((a) => a.finding.test(v.ruleName) && a.path.test(r.constructPath ?? ''));
          if (hit) this.used.add(hit);
          return !hit;
        }),
      }))
      .filter((v) => v.violatingResources.length > 0);
    return { ...report, success: violations.length === 0, violations };
  }
}

/** Run the checks on every stack of `scope` at synthesis. */
export function addNagChecks(scope: IConstruct): ChorusNagChecks {
  const checks = new ChorusNagChecks(scope);
  Validations.of(scope).addPlugins(checks);
  return checks;
}
