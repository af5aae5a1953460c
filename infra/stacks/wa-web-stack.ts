/**
 * WhatsApp Web stack: the session workers (whatsapp-protocols.md §B.11) as an ECS Fargate service.
 * A linked number is a persistent WebSocket with 30 s keep-alives, which Lambda cannot hold, so the
 * worker is a long-lived container: it holds numbers through leases in the table, keeps their
 * Baileys sockets, puts what they receive on the wa-web-inbound queue (stored by its Lambda
 * consumer), consumes the FIFO wa-web-commands queue (events/catalog.ts WORKER_QUEUES) and keeps
 * received files in the media bucket.
 *
 * Shape: a VPC with public subnets only and no NAT gateway (the task needs outbound internet to
 * WhatsApp and AWS APIs, nothing inbound: its security group allows no ingress), one cluster, one
 * service. Deployments stop the old task before starting the new one (max 100 %, min 0 %), so two
 * tasks do not fight over a number's socket during a rollout (leases would stop them anyway).
 * Depends on Data (table, media bucket) and Events (bus, queue).
 */
import { Duration, RemovalPolicy, Stack, type StackProps } from 'aws-cdk-lib';
import type * as dynamodb from 'aws-cdk-lib/aws-dynamodb';
import * as ec2 from 'aws-cdk-lib/aws-ec2';
import * as ecs from 'aws-cdk-lib/aws-ecs';
import type * as events from 'aws-cdk-lib/aws-events';
import * as logs from 'aws-cdk-lib/aws-logs';
import type * as s3 from 'aws-cdk-lib/aws-s3';
import type * as secretsmanager from 'aws-cdk-lib/aws-secretsmanager';
import type * as sqs from 'aws-cdk-lib/aws-sqs';
import { Platform } from 'aws-cdk-lib/aws-ecr-assets';
import type { Construct } from 'constructs';
import { REPO_ROOT } from '../constructs/handler-function.ts';

export interface WaWebStackProps extends StackProps {
  readonly table: dynamodb.ITable;
  readonly mediaBucket: s3.IBucket;
  readonly bus: events.IEventBus;
  /** the wa-web-commands FIFO queue and the env var carrying its URL */
  readonly commands: { readonly queue: sqs.IQueue; readonly env: string };
  /** the wa-web-inbound queue (what the sockets receive, stored by its consumer) and the env var carrying its URL */
  readonly inbound: { readonly queue: sqs.IQueue; readonly env: string };
  /** PHONE_TOKEN_KEY (plain or a dynamic reference): encrypts the sessions' auth state at rest */
  readonly phoneTokenKey: string;
  /** issue 42 §4: the key of masked ids (MASKED_ID_KEY_SECRET_ARN, read once at start) */
  readonly maskedIdKeySecret?: secretsmanager.ISecret;
  /** build the worker image from the repo (true, the CLI path) or a placeholder image (false, tests only) */
  readonly bundle: boolean;
  /** @default 1 */
  readonly desiredCount?: number;
}

export class WaWebStack extends Stack {
  readonly service: ecs.FargateService;
  readonly taskDefinition: ecs.FargateTaskDefinition;

  constructor(scope: Construct, id: string, props: WaWebStackProps) {
    super(scope, id, props);

    const vpc = new ec2.Vpc(this, 'Vpc', { maxAzs: 2, natGateways: 0, subnetConfiguration: [{ name: 'public', subnetType: ec2.SubnetType.PUBLIC }] });
    const cluster = new ecs.Cluster(this, 'Cluster', { vpc, containerInsightsV2: ecs.ContainerInsights.ENABLED });

    this.taskDefinition = new ecs.FargateTaskDefinition(this, 'Task', {
      cpu: 512,
      memoryLimitMiB: 1024,
      runtimePlatform: { cpuArchitecture: ecs.CpuArchitecture.ARM64, operatingSystemFamily: ecs.OperatingSystemFamily.LINUX },
    });
    const image = props.bundle
      ? ecs.ContainerImage.fromAsset(REPO_ROOT, {
          file: 'infra/docker/wa-web-worker.Dockerfile',
          platform: Platform.LINUX_ARM64,
          exclude: ['node_modules', 'cdk.out', '.data', '.git', 'web', 'tests', 'test-results', 'scripts', '**/*.test.ts'],
        })
      : ecs.ContainerImage.fromRegistry('public.ecr.aws/docker/library/node:20-slim');
    const environment: Record<string, string> = {
      TABLE_NAME: props.table.tableName,
      EVENT_BUS_NAME: props.bus.eventBusName,
      MEDIA_BUCKET: props.mediaBucket.bucketName,
      [props.commands.env]: props.commands.queue.queueUrl,
      [props.inbound.env]: props.inbound.queue.queueUrl,
      LOG_LEVEL: 'info',
    };
    if (props.phoneTokenKey) environment.PHONE_TOKEN_KEY = props.phoneTokenKey;
    if (props.maskedIdKeySecret) environment.MASKED_ID_KEY_SECRET_ARN = props.maskedIdKeySecret.secretArn;
    this.taskDefinition.addContainer('Worker', {
      image,
      environment,
      logging: ecs.LogDrivers.awsLogs({
        streamPrefix: 'wa-web',
        logGroup: new logs.LogGroup(this, 'Logs', { retention: logs.RetentionDays.ONE_MONTH, removalPolicy: RemovalPolicy.DESTROY }),
      }),
      stopTimeout: Duration.seconds(30),
    });
    props.table.grantReadWriteData(this.taskDefinition.taskRole);
    props.bus.grantPutEventsTo(this.taskDefinition.taskRole);
    props.commands.queue.grantConsumeMessages(this.taskDefinition.taskRole);
    props.inbound.queue.grantSendMessages(this.taskDefinition.taskRole);
    // received files (and their thumbnails) are written by the worker; sent files are read
    props.mediaBucket.grantReadWrite(this.taskDefinition.taskRole);
    props.maskedIdKeySecret?.grantRead(this.taskDefinition.taskRole);

    const sg = new ec2.SecurityGroup(this, 'WorkerSg', { vpc, description: 'WhatsApp Web session workers: outbound only', allowAllOutbound: true });
    this.service = new ecs.FargateService(this, 'Service', {
      cluster,
      taskDefinition: this.taskDefinition,
      desiredCount: props.desiredCount ?? 1,
      assignPublicIp: true,
      vpcSubnets: { subnetType: ec2.SubnetType.PUBLIC },
      securityGroups: [sg],
      minHealthyPercent: 0,
      maxHealthyPercent: 100,
      circuitBreaker: { enable: true, rollback: true },
    });
  }
}
