/**
 * Auth stack: the Cognito user pool and the web app's public client.
 *
 * Cognito identifies the user; Chorus decides what they may do (membership and role live in the
 * table). Sign-in: email + password (USER_PASSWORD_AUTH for Amplify parity with cognito-local,
 * SRP for the real pool) with refresh tokens. Google sign-in is added only when a Google OAuth
 * client is configured (context `googleClientId` + secret); it then needs a Cognito domain and
 * OAuth callback URLs (the web app's `/login/callback`). The pool is RETAINed: it holds the users.
 * Password policy from the product spec: min 6 characters, a digit, an upper- and a lowercase letter.
 */
import { CfnOutput, Duration, RemovalPolicy, type SecretValue, Stack, type StackProps } from 'aws-cdk-lib';
import * as cognito from 'aws-cdk-lib/aws-cognito';
import type { Construct } from 'constructs';

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
}

export class AuthStack extends Stack {
  readonly userPool: cognito.UserPool;
  readonly userPoolClient: cognito.UserPoolClient;
  /** JWT issuer of the pool: https://cognito-idp.{region}.amazonaws.com/{userPoolId} */
  readonly issuer: string;

  constructor(scope: Construct, id: string, props: AuthStackProps) {
    super(scope, id, props);

    this.userPool = new cognito.UserPool(this, 'UserPool', {
      selfSignUpEnabled: true,
      signInAliases: { email: true },
      signInCaseSensitive: false,
      autoVerify: { email: true },
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

    let google: cognito.UserPoolIdentityProviderGoogle | undefined;
    if (props.google) {
      google = new cognito.UserPoolIdentityProviderGoogle(this, 'Google', {
        userPool: this.userPool,
        clientId: props.google.clientId,
        clientSecretValue: props.google.clientSecret,
        scopes: ['openid', 'email', 'profile'],
        attributeMapping: {
          email: cognito.ProviderAttribute.GOOGLE_EMAIL,
          fullname: cognito.ProviderAttribute.GOOGLE_NAME,
        },
      });
      const domain = this.userPool.addDomain('Domain', {
        cognitoDomain: { domainPrefix: props.domainPrefix ?? `chorus-${this.account}` },
      });
      new CfnOutput(this, 'UserPoolDomain', { value: domain.baseUrl(), description: 'Cognito hosted domain (Google sign-in)' });
    }

    this.userPoolClient = this.userPool.addClient('WebClient', {
      generateSecret: false,
      authFlows: { userPassword: true, userSrp: true },
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
