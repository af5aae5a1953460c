/**
 * Auth stack: the Cognito user pool and the web app's public client.
 *
 * Cognito identifies the user; Chorus decides what they may do (membership and role live in the
 * table). Sign-in: email + password (USER_PASSWORD_AUTH for Amplify parity with cognito-local,
 * SRP for the real pool) with refresh tokens. Google sign-in is added only when a Google OAuth
 * client is configured (context `googleClientId` + secret); it then needs a Cognito domain and
 * OAuth callback URLs (the web app's `/login/callback`). The pool is RETAINed: it holds the users.
 * Password policy from the product spec: min 6 characters, a digit, an upper- and a lowercase letter.
 *
 * Email one-time code sign-in (spec §4, §7, §9) is Cognito's custom auth flow (CUSTOM_AUTH, which
 * Amplify calls CUSTOM_WITHOUT_SRP): the DefineAuthChallenge, CreateAuthChallenge and
 * VerifyAuthChallengeResponse triggers of functions/auth-triggers.ts run the rules of
 * shared/auth/otp.rules.ts over OTP rows in the table and mail the code through SES (MAIL_FROM).
 * Why not Cognito's native email OTP: see functions/auth/define-auth-challenge.ts. The web client's
 * auth session lasts 10 minutes, the lifetime of a code.
 *
 * Identity (issue 11): the API keys users on the Cognito `sub` and requires `email_verified`
 * (shared/auth/identity.ts, shared/auth/jwt.ts). The pool auto-verifies email and keeps the original
 * email while a change is unverified (`keepOriginal`), so the email claim only ever names an
 * address its owner proved; Google sign-ins carry Google's `email_verified`.
 * Email code hashes are HMACs under OTP_HMAC_KEY, a generated Secrets Manager secret of this stack
 * (the triggers get it as an environment variable, resolved at deploy time, like the phone token key).
 * Per client address: Cognito's triggers are not told the caller's IP, so a WAF web ACL on the pool
 * limits each IP to {@link COGNITO_RATE_LIMIT_PER_5_MIN} calls per 5 minutes (code requests, answers,
 * password sign-ins, refreshes); per email the triggers count in the table (shared/auth/otp.ts).
 */
import { CfnOutput, Duration, RemovalPolicy, type SecretValue, Stack, type StackProps } from 'aws-cdk-lib';
import * as cognito from 'aws-cdk-lib/aws-cognito';
import * as secretsmanager from 'aws-cdk-lib/aws-secretsmanager';
import * as wafv2 from 'aws-cdk-lib/aws-wafv2';
import type * as dynamodb from 'aws-cdk-lib/aws-dynamodb';
import type * as lambda from 'aws-cdk-lib/aws-lambda';
import type { Construct } from 'constructs';
import { AUTH_TRIGGERS } from '../../functions/auth-triggers.ts';
import { type FunctionAccess, type MailSettings, wireFunction } from '../access.ts';
import { createHandlerFunction, handlerConstructId } from '../constructs/handler-function.ts';

/** What the custom auth triggers may touch: the OTP rows in the table and SES; nothing else. */
export const AUTH_TRIGGER_ACCESS: FunctionAccess = {
  table: 'readWrite', publishEvents: false, enqueue: [], wsManagement: false, cognito: false, whatsapp: [], search: 'none', scheduler: false, media: 'none', mail: true,
};

/** Calls to the user pool one IP address may make per 5 minutes (WAF rate-based rule) before 403s. */
export const COGNITO_RATE_LIMIT_PER_5_MIN = 300;

export interface GoogleSignIn {
  readonly clientId: string;
  readonly clientSecret: SecretValue;
}

export interface AuthStackProps extends StackProps {
  readonly google?: GoogleSignIn;
  /** Cognito hosted domain prefix (Google sign-in only). @default `chorus-{account}` */
  readonly domainPrefix?: string;
  /** OAuth redirect URLs (Google sign-in only) */
  readonly callbackUrls: string[];
  readonly logoutUrls: string[];
  /** the table holding the OTP rows (custom auth triggers) */
  readonly table: dynamodb.ITable;
  /** the sender of sign-in code emails */
  readonly mail: MailSettings;
  /** real esbuild bundles (true) or inline placeholders (tests) */
  readonly bundle: boolean;
}

export class AuthStack extends Stack {
  readonly userPool: cognito.UserPool;
  readonly userPoolClient: cognito.UserPoolClient;
  /** JWT issuer of the pool: https://cognito-idp.{region}.amazonaws.com/{userPoolId} */
  readonly issuer: string;
  /** hosted UI domain (host name, no scheme) when Google sign-in is configured */
  readonly oauthDomain?: string;
  /** the custom auth triggers by name (functions/auth-triggers.ts) */
  readonly triggers = new Map<string, lambda.Function>();
  /** the HMAC key of stored email code hashes (OTP_HMAC_KEY of the triggers) */
  readonly otpKey: secretsmanager.Secret;

  constructor(scope: Construct, id: string, props: AuthStackProps) {
    super(scope, id, props);

    this.userPool = new cognito.UserPool(this, 'UserPool', {
      selfSignUpEnabled: true,
      signInAliases: { email: true },
      signInCaseSensitive: false,
      autoVerify: { email: true },
      // an email change takes effect only once the new address is verified (the API keys on sub and
      // requires email_verified, shared/auth/identity.ts)
      keepOriginal: { email: true },
      standardAttributes: {
        email: { required: true, mutable: true },
        fullname: { required: false, mutable: true },
      },
      passwordPolicy: {
        minLength: 6,
        requireDigits: true,
        requireLowercase: true,
        requireUppercase: true,
        requireSymbols: false,
      },
      accountRecovery: cognito.AccountRecovery.EMAIL_ONLY,
      deletionProtection: true,
      removalPolicy: RemovalPolicy.RETAIN,
    });
    this.issuer = `https://cognito-idp.${this.region}.amazonaws.com/${this.userPool.userPoolId}`;

    this.otpKey = new secretsmanager.Secret(this, 'OtpHmacKey', {
      description: 'Chorus: HMAC key of stored email sign-in code hashes (OTP_HMAC_KEY)',
      generateSecretString: { passwordLength: 64, excludePunctuation: true },
    });

    // per client address: a rate-based WAF rule in front of the pool's public endpoints
    const acl = new wafv2.CfnWebACL(this, 'UserPoolAcl', {
      scope: 'REGIONAL',
      defaultAction: { allow: {} },
      visibilityConfig: { cloudWatchMetricsEnabled: true, metricName: 'chorus-user-pool', sampledRequestsEnabled: true },
      rules: [
        {
          name: 'per-ip-rate',
          priority: 0,
          action: { block: {} },
          statement: { rateBasedStatement: { limit: COGNITO_RATE_LIMIT_PER_5_MIN, aggregateKeyType: 'IP', evaluationWindowSec: 300 } },
          visibilityConfig: { cloudWatchMetricsEnabled: true, metricName: 'chorus-user-pool-per-ip', sampledRequestsEnabled: true },
        },
      ],
    });
    new wafv2.CfnWebACLAssociation(this, 'UserPoolAclAssociation', { resourceArn: this.userPool.userPoolArn, webAclArn: acl.attrArn });

    const operations: Record<keyof typeof AUTH_TRIGGERS, cognito.UserPoolOperation> = {
      defineAuthChallenge: cognito.UserPoolOperation.DEFINE_AUTH_CHALLENGE,
      createAuthChallenge: cognito.UserPoolOperation.CREATE_AUTH_CHALLENGE,
      verifyAuthChallengeResponse: cognito.UserPoolOperation.VERIFY_AUTH_CHALLENGE_RESPONSE,
    };
    for (const [name, handler] of Object.entries(AUTH_TRIGGERS) as Array<[keyof typeof AUTH_TRIGGERS, string]>) {
      // Cognito waits at most 5 s for a trigger
      const fn = createHandlerFunction(this, handlerConstructId(handler), { handler, bundle: props.bundle, timeout: Duration.seconds(5) });
      wireFunction(fn, AUTH_TRIGGER_ACCESS, { table: props.table, mail: props.mail });
      fn.addEnvironment('OTP_HMAC_KEY', this.otpKey.secretValue.unsafeUnwrap());
      this.userPool.addTrigger(operations[name], fn);
      this.triggers.set(name, fn);
    }

    let google: cognito.UserPoolIdentityProviderGoogle | undefined;
    if (props.google) {
      google = new cognito.UserPoolIdentityProviderGoogle(this, 'Google', {
        userPool: this.userPool,
        clientId: props.google.clientId,
        clientSecretValue: props.google.clientSecret,
        scopes: ['openid', 'email', 'profile'],
        attributeMapping: {
          email: cognito.ProviderAttribute.GOOGLE_EMAIL,
          // Google says whether it verified the address; the API refuses unverified emails
          emailVerified: cognito.ProviderAttribute.GOOGLE_EMAIL_VERIFIED,
          fullname: cognito.ProviderAttribute.GOOGLE_NAME,
        },
      });
      const domain = this.userPool.addDomain('Domain', {
        cognitoDomain: { domainPrefix: props.domainPrefix ?? `chorus-${this.account}` },
      });
      new CfnOutput(this, 'UserPoolDomain', { value: domain.baseUrl(), description: 'Cognito hosted domain (Google sign-in)' });
      this.oauthDomain = `${domain.domainName}.auth.${this.region}.amazoncognito.com`;
    }

    this.userPoolClient = this.userPool.addClient('WebClient', {
      generateSecret: false,
      authFlows: { userPassword: true, userSrp: true, custom: true },
      // an email code lives 10 minutes (shared/auth/otp.rules.ts OTP_TTL_MS); the session must too
      authSessionValidity: Duration.minutes(10),
      preventUserExistenceErrors: true,
      enableTokenRevocation: true,
      accessTokenValidity: Duration.hours(1),
      idTokenValidity: Duration.hours(1),
      refreshTokenValidity: Duration.days(30),
      supportedIdentityProviders: google
        ? [cognito.UserPoolClientIdentityProvider.COGNITO, cognito.UserPoolClientIdentityProvider.GOOGLE]
        : [cognito.UserPoolClientIdentityProvider.COGNITO],
      ...(google
        ? {
            oAuth: {
              flows: { authorizationCodeGrant: true },
              scopes: [cognito.OAuthScope.OPENID, cognito.OAuthScope.EMAIL, cognito.OAuthScope.PROFILE],
              callbackUrls: props.callbackUrls,
              logoutUrls: props.logoutUrls,
            },
          }
        : { disableOAuth: true }),
    });
    // The client names GOOGLE as a provider, so the provider must exist first.
    if (google) this.userPoolClient.node.addDependency(google);

    new CfnOutput(this, 'UserPoolId', { value: this.userPool.userPoolId });
    new CfnOutput(this, 'UserPoolClientId', { value: this.userPoolClient.userPoolClientId });
  }
}
