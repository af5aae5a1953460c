/**
 * Web stack: the React bundle (web/dist) in a private S3 bucket behind CloudFront (Origin Access
 * Control; the bucket blocks all public access and only the distribution may read it), plus
 * `/config.json` (shared/me.schemas.ts `WebConfig`) written at deploy time with the API and Cognito
 * values, so the same bundle runs against any deployment.
 *
 * The bucket uses RemovalPolicy.DESTROY with auto-delete: it holds only build output that
 * `npm run build:web` + deploy recreate, so keeping it after the stack is gone would only leave
 * litter (unlike the table and the user pool, which are RETAINed).
 * When the web asset directory is missing (web not built yet), the deployment of files is skipped
 * with a warning instead of failing the synth.
 */
import * as fs from 'node:fs';
import { Annotations, CfnOutput, Duration, RemovalPolicy, Stack, type StackProps } from 'aws-cdk-lib';
import * as cloudfront from 'aws-cdk-lib/aws-cloudfront';
import * as origins from 'aws-cdk-lib/aws-cloudfront-origins';
import * as s3 from 'aws-cdk-lib/aws-s3';
import * as s3deploy from 'aws-cdk-lib/aws-s3-deployment';
import type { Construct } from 'constructs';

export interface WebStackProps extends StackProps {
  /** absolute path of the built web app (Vite output) */
  readonly webDist: string;
  readonly apiUrl: string;
  readonly wsUrl: string;
  readonly userPoolId: string;
  readonly userPoolClientId: string;
  /** Cognito hosted UI (Google sign-in), when configured: written to config.json for Amplify's signInWithRedirect */
  readonly oauth?: { domain: string; redirectSignIn: string[]; redirectSignOut: string[] };
  /** the Help links by key (config.json `links`, shared/me.schemas.ts HelpLinksConfig); absent = none shown */
  readonly links?: Record<string, string>;
}

export class WebStack extends Stack {
  readonly bucket: s3.Bucket;
  readonly distribution: cloudfront.Distribution;
  readonly deployment?: s3deploy.BucketDeployment;

  constructor(scope: Construct, id: string, props: WebStackProps) {
    super(scope, id, props);

    this.bucket = new s3.Bucket(this, 'Bucket', {
      blockPublicAccess: s3.BlockPublicAccess.BLOCK_ALL,
      encryption: s3.BucketEncryption.S3_MANAGED,
      enforceSSL: true,
      objectOwnership: s3.ObjectOwnership.BUCKET_OWNER_ENFORCED,
      removalPolicy: RemovalPolicy.DESTROY,
      autoDeleteObjects: true,
    });

    const origin = origins.S3BucketOrigin.withOriginAccessControl(this.bucket);
    // index.html and config.json must never be stale; hashed assets under /assets are cached.
    const uncached: cloudfront.BehaviorOptions = {
      origin,
      viewerProtocolPolicy: cloudfront.ViewerProtocolPolicy.REDIRECT_TO_HTTPS,
      cachePolicy: cloudfront.CachePolicy.CACHING_DISABLED,
      responseHeadersPolicy: cloudfront.ResponseHeadersPolicy.SECURITY_HEADERS,
    };
    this.distribution = new cloudfront.Distribution(this, 'Distribution', {
      comment: 'Chorus web app',
      defaultRootObject: 'index.html',
      defaultBehavior: {
        origin,
        viewerProtocolPolicy: cloudfront.ViewerProtocolPolicy.REDIRECT_TO_HTTPS,
        cachePolicy: cloudfront.CachePolicy.CACHING_OPTIMIZED,
        responseHeadersPolicy: cloudfront.ResponseHeadersPolicy.SECURITY_HEADERS,
        compress: true,
      },
      additionalBehaviors: { '/index.html': uncached, '/config.json': uncached },
      // Client-side routes (/chats/..., /login/callback): S3 answers 403 for unknown keys (no
      // ListBucket), so serve the SPA shell instead.
      errorResponses: [403, 404].map((httpStatus) => ({
        httpStatus,
        responseHttpStatus: 200,
        responsePagePath: '/index.html',
        ttl: Duration.seconds(0),
      })),
      priceClass: cloudfront.PriceClass.PRICE_CLASS_100,
      httpVersion: cloudfront.HttpVersion.HTTP2_AND_3,
    });

    if (fs.existsSync(props.webDist) && fs.statSync(props.webDist).isDirectory()) {
      this.deployment = new s3deploy.BucketDeployment(this, 'Deploy', {
        destinationBucket: this.bucket,
        sources: [
          s3deploy.Source.asset(props.webDist),
          s3deploy.Source.jsonData('config.json', {
            apiUrl: props.apiUrl,
            wsUrl: props.wsUrl,
            region: this.region,
            userPoolId: props.userPoolId,
            userPoolClientId: props.userPoolClientId,
            ...(props.oauth ? { oauth: props.oauth } : {}),
            ...(props.links ? { links: props.links } : {}),
            stage: 'aws',
          }),
        ],
        distribution: this.distribution,
        distributionPaths: ['/*'],
        memoryLimit: 512,
      });
    } else {
      Annotations.of(this).addWarning(
        `Web assets not found at ${props.webDist}: skipping the web deployment (bucket and distribution are still created). ` +
          'Run `npm run build:web` (or pass -c webDist=<dir>) and deploy again.',
      );
    }

    new CfnOutput(this, 'WebUrl', { value: `https://${this.distribution.distributionDomainName}` });
    new CfnOutput(this, 'WebBucketName', { value: this.bucket.bucketName });
  }
}
