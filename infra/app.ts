/**
 * CDK entry point (cdk.json: `npx tsx infra/app.ts`). Reads the context and builds the stacks;
 * everything else is in infra/build.ts.
 *
 *   npx cdk synth --quiet
 *   npx cdk deploy --all -c whatsappAppSecret=... -c whatsappVerifyToken=... -c whatsappAccessToken=...
 */
import { App } from 'aws-cdk-lib';
import { buildApp, propsFromContext } from './build.ts';

const app = new App();
buildApp(app, propsFromContext(app));
app.synth();
