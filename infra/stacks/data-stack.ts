/**
 * Data stack: the one DynamoDB table, built from shared/db/table-definition.ts (the same
 * definition the local runtime feeds to DynamoDB Local), so keys, GSIs and TTL cannot drift.
 * The table's stream (NEW_IMAGE) feeds the outbox relay (workers stack).
 * On-demand billing, point-in-time recovery, deletion protection and RemovalPolicy.RETAIN: the
 * table holds every organization's chats, so deleting the stack must never delete the data.
 *
 * Also the media bucket (the blob port's S3 adapter, shared/blobs/s3.ts): inbound WhatsApp files
 * and their thumbnails under `media/<org_id>/...`. Private (all public access blocked, bucket
 * owner enforced, TLS only, SSE-S3), read by browsers only through presigned GET URLs made by the
 * media endpoint; CORS allows GET/HEAD from the web origins so the app may also fetch() them.
 * Retained like the table: customers' files are data, not build output.
 */
import { CfnOutput, Duration, RemovalPolicy, Stack, type StackProps } from 'aws-cdk-lib';
import * as dynamodb from 'aws-cdk-lib/aws-dynamodb';
import * as s3 from 'aws-cdk-lib/aws-s3';
import * as secretsmanager from 'aws-cdk-lib/aws-secretsmanager';
import type { Construct } from 'constructs';
import { TABLE_DEFINITION } from '../../shared/db/table-definition.ts';

const stringKey = (name: string): dynamodb.Attribute => ({ name, type: dynamodb.AttributeType.STRING });

export interface DataStackProps extends StackProps {
  /** origins allowed to GET media with CORS (the web app's) @default ['*'] */
  readonly corsOrigins?: string[];
}

export class DataStack extends Stack {
  readonly table: dynamodb.Table;
  readonly mediaBucket: s3.Bucket;
  /** web push VAPID keys (issue 21): created holding a placeholder; the first function that needs the keys generates and stores the pair (shared/push/vapid.ts) */
  readonly vapidSecret: secretsmanager.Secret;
  /**
   * issue 42 §4: the root key of masked contact and chat ids (MASKED_ID_KEY_SECRET_ARN, read once at
   * cold start by shared/contact/contact-id.ts); generated here, never derived from a resource name
   */
  readonly maskedIdKeySecret: secretsmanager.Secret;

  constructor(scope: Construct, id: string, props?: DataStackProps) {
    super(scope, id, props);

    this.table = new dynamodb.Table(this, 'Table', {
      partitionKey: stringKey(TABLE_DEFINITION.partitionKey),
      sortKey: stringKey(TABLE_DEFINITION.sortKey),
      billingMode: dynamodb.BillingMode.PAY_PER_REQUEST,
      timeToLiveAttribute: TABLE_DEFINITION.ttlAttribute,
      // the transactional outbox's relay reads INSERTed outbox rows from the stream (functions/consumers/outbox-relay.ts)
      stream: dynamodb.StreamViewType[TABLE_DEFINITION.streamView],
      pointInTimeRecoverySpecification: { pointInTimeRecoveryEnabled: true },
      encryption: dynamodb.TableEncryption.AWS_MANAGED,
      deletionProtection: true,
      removalPolicy: RemovalPolicy.RETAIN,
    });

    for (const index of TABLE_DEFINITION.globalIndexes) {
      this.table.addGlobalSecondaryIndex({
        indexName: index.name,
        partitionKey: stringKey(index.partitionKey),
        sortKey: stringKey(index.sortKey),
        projectionType: dynamodb.ProjectionType.ALL,
      });
    }

    this.mediaBucket = new s3.Bucket(this, 'MediaBucket', {
      blockPublicAccess: s3.BlockPublicAccess.BLOCK_ALL,
      encryption: s3.BucketEncryption.S3_MANAGED,
      enforceSSL: true,
      objectOwnership: s3.ObjectOwnership.BUCKET_OWNER_ENFORCED,
      removalPolicy: RemovalPolicy.RETAIN,
      cors: [
        {
          allowedMethods: [s3.HttpMethods.GET, s3.HttpMethods.HEAD],
          allowedOrigins: props?.corsOrigins ?? ['*'],
          allowedHeaders: ['*'],
          maxAge: 3600,
        },
        {
          // members' files go straight from the browser to the bucket (presigned PUT, shared/media/outbound.ts)
          allowedMethods: [s3.HttpMethods.PUT],
          allowedOrigins: props?.corsOrigins ?? ['*'],
          allowedHeaders: ['content-type'],
          maxAge: 3600,
        },
      ],
      // objects are written whole (PutObject); an interrupted multipart upload is litter
      lifecycleRules: [{ abortIncompleteMultipartUploadAfter: Duration.days(1) }],
    });

    this.vapidSecret = new secretsmanager.Secret(this, 'VapidKeys', {
      description: 'Chorus: web push VAPID key pair { publicKey, privateKey } (filled once on first use; browsers bind subscriptions to it, so never rotate it casually)',
      generateSecretString: { secretStringTemplate: JSON.stringify({ placeholder: true }), generateStringKey: 'unused', excludePunctuation: true },
      removalPolicy: RemovalPolicy.RETAIN,
    });

    this.maskedIdKeySecret = new secretsmanager.Secret(this, 'MaskedIdKey', {
      description: 'Chorus: key of masked contact and chat ids (cx_…, cht_…); a new value changes every masked id handed out, so rotate it only with that in mind',
      generateSecretString: { passwordLength: 64, excludePunctuation: true },
      removalPolicy: RemovalPolicy.RETAIN,
    });

    new CfnOutput(this, 'TableName', { value: this.table.tableName, description: 'DynamoDB single table' });
    new CfnOutput(this, 'MediaBucketName', { value: this.mediaBucket.bucketName, description: 'S3 bucket of inbound media (MEDIA_BUCKET)' });
  }
}
