/**
 * Template assertions of the auth stack's identity settings (issue 11 §7, §8, §9): the API keys
 * users on the Cognito `sub` and requires `email_verified` (shared/auth/identity.ts, jwt.ts), which
 * only holds if the pool verifies emails and keeps the old email until a new one is verified; the
 * email code triggers hash codes with a deployment secret; and `cdk synth` refuses to build without
 * the app URL that invitation links use.
 *
 *   npx vitest run infra/auth.test.ts
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { App } from 'aws-cdk-lib';
import { Match, Template } from 'aws-cdk-lib/assertions';
import { beforeAll, describe, expect, it } from 'vitest';
import { AUTH_TRIGGERS } from '../functions/auth-triggers.ts';
import { buildApp, propsFromContext } from './build.ts';
import { COGNITO_RATE_LIMIT_PER_5_MIN } from './stacks/auth-stack.ts';
import { cdkContext, tempDirs } from './test-support.ts';

const tmp = tempDirs();

/** The stacks as `cdk synth` builds them from the context (propsFromContext), without bundling. */
function synth(context: Record<string, unknown>) {
  const app = new App({ outdir: tmp('chorus-auth-out-'), context: { ...cdkContext, ...context } });
  const webDist = tmp('chorus-auth-web-');
  fs.writeFileSync(path.join(webDist, 'index.html'), '<!doctype html><title>Chorus</title>');
  return buildApp(app, { ...propsFromContext(app), bundle: false, webDist });
}

let auth: Template;
let triggers: Array<{ Properties: { Description?: string; Environment?: { Variables?: Record<string, unknown> } } }>;

beforeAll(() => {
  const built = synth({ appUrl: 'https://app.example.com', googleClientId: 'google-client', googleClientSecret: 'google-secret' });
  auth = Template.fromStack(built.auth);
  triggers = Object.values(auth.findResources('AWS::Lambda::Function')) as typeof triggers;
});

describe('user pool identity settings', () => {
  it('verifies emails itself and keeps the original email until a change is verified', () => {
    auth.hasResourceProperties('AWS::Cognito::UserPool', {
      AutoVerifiedAttributes: ['email'],
      UserAttributeUpdateSettings: { AttributesRequireVerificationBeforeUpdate: ['email'] },
      UsernameAttributes: ['email'],
      UsernameConfiguration: { CaseSensitive: false },
    });
  });

  it('maps Google’s email_verified, so federated users carry it too', () => {
    auth.hasResourceProperties('AWS::Cognito::UserPoolIdentityProvider', {
      ProviderType: 'Google',
      AttributeMapping: Match.objectLike({ email: 'email', email_verified: 'email_verified' }),
    });
  });
});

describe('per client address', () => {
  it('a WAF rate-based rule on the pool blocks an IP past its calls per 5 minutes (triggers do not see IPs)', () => {
    auth.hasResourceProperties('AWS::WAFv2::WebACL', {
      Scope: 'REGIONAL',
      DefaultAction: { Allow: {} },
      Rules: [
        Match.objectLike({
          Action: { Block: {} },
          Statement: { RateBasedStatement: { Limit: COGNITO_RATE_LIMIT_PER_5_MIN, AggregateKeyType: 'IP', EvaluationWindowSec: 300 } },
        }),
      ],
    });
    const poolId = Object.keys(auth.findResources('AWS::Cognito::UserPool'))[0]!;
    auth.hasResourceProperties('AWS::WAFv2::WebACLAssociation', { ResourceArn: { 'Fn::GetAtt': [poolId, 'Arn'] } });
  });
});

describe('email code hashes', () => {
  it('come from a generated secret, given to every auth trigger as OTP_HMAC_KEY', () => {
    auth.resourceCountIs('AWS::SecretsManager::Secret', 1);
    auth.hasResourceProperties('AWS::SecretsManager::Secret', { GenerateSecretString: Match.objectLike({ PasswordLength: 64 }) });
    const secretId = Object.keys(auth.findResources('AWS::SecretsManager::Secret'))[0]!;
    for (const handler of Object.values(AUTH_TRIGGERS)) {
      const fn = triggers.find((f) => String(f.Properties.Description).endsWith(handler));
      expect(fn, handler).toBeDefined();
      const key = JSON.stringify(fn!.Properties.Environment?.Variables?.OTP_HMAC_KEY);
      expect(key, handler).toContain('resolve:secretsmanager:');
      expect(key, handler).toContain(secretId);
    }
  });
});

describe('invitation links', () => {
  it('synth fails with a clear message without appUrl', () => {
    expect(() => synth({ appUrl: undefined })).toThrow(/Context appUrl is required: the web app's address used in invitation and sign-in emails, e\.g\. -c appUrl=https:\/\/app\.example\.com/);
    expect(() => synth({ appUrl: 'app.example.com' })).toThrow(/appUrl is required/);
  });

  it('gives APP_URL from the context to the functions that send mail', () => {
    const built = synth({ appUrl: 'https://app.example.com' });
    // HTTP handlers live in the route stacks by area (infra/api-areas.ts)
    const fns = Object.values(built.apiRoutes).flatMap((st) => Object.values(Template.fromStack(st).findResources('AWS::Lambda::Function'))) as typeof triggers;
    const invite = fns.find((f) =>
      String(f.Properties.Description).endsWith('functions/http/team/invite-member.ts#handler'),
    );
    expect(invite?.Properties.Environment?.Variables?.APP_URL).toBe('https://app.example.com');
  });
});
