/**
 * CDK entry point (cdk.json: `npx tsx infra/app.ts`). Reads the context and builds the stacks;
 * everything else is in infra/build.ts.
 *
 *   npx cdk synth --quiet
 *   npx cdk deploy --all -c whatsappAppSecret=... -c whatsappVerifyToken=... -c whatsappAccessToken=...
 *   npx cdk deploy ChorusPipeline -c pipelineConnectionArn=... -c pipelineRepository=owner/name   (infra/pipeline.ts)
 */
import { App } from 'aws-cdk-lib';
import { buildApp, propsFromContext } from './build.ts';
import { addNagChecks } from './nag.ts';
import { PipelineStack, pipelineFromContext } from './pipeline.ts';

const app = new App();
const pipeline = pipelineFromContext(app);
if (pipeline) {
  // the pipeline (infra/pipeline.ts) deploys the same stacks as stages dev and prod
  const env = { account: process.env.CDK_DEFAULT_ACCOUNT, region: process.env.CDK_DEFAULT_REGION };
  new PipelineStack(app, 'ChorusPipeline', { env, settings: pipeline, app: propsFromContext(app), description: 'Chorus: delivery pipeline (dev, then prod after approval)' });
  addNagChecks(app);
} else {
  buildApp(app, propsFromContext(app));
}
app.synth();
