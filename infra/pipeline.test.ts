/**
 * The delivery pipeline (infra/pipeline.ts), synthesized offline with placeholder code: source from
 * the context (CodeStar connection or CodeCommit), self-mutation, the test command before dev,
 * manual approval before prod, both stages the same set of stacks; cdk-nag passes on all of it.
 *
 *   npx vitest run infra/pipeline.test.ts
 */
import { App } from 'aws-cdk-lib';
import { Match, Template } from 'aws-cdk-lib/assertions';
import { beforeAll, describe, expect, it } from 'vitest';
import { propsFromContext } from './build.ts';
import { addNagChecks, ChorusNagChecks } from './nag.ts';
import { PipelineStack, pipelineFromContext } from './pipeline.ts';
import { cdkContext, tempDirs } from './test-support.ts';

const mkTmp = tempDirs();

const CONNECTION = 'arn:aws:codeconnections:eu-west-1:111111111111:connection/0f1e2d3c-aaaa-bbbb-cccc-123456789012';
const ENV = { account: '111111111111', region: 'eu-west-1' };

function buildPipeline(context: Record<string, unknown>): { app: App; stack: PipelineStack } {
  const app = new App({ outdir: mkTmp('chorus-pipeline-'), context: { ...cdkContext, ...context } });
  const settings = pipelineFromContext(app);
  if (!settings) throw new Error('no pipeline in the context');
  const stack = new PipelineStack(app, 'ChorusPipeline', { env: ENV, settings, app: { ...propsFromContext(app), bundle: false, webDist: '/nonexistent' } });
  return { app, stack };
}

type Action = { Name: string; RunOrder: number; ActionTypeId: { Category: string; Provider: string }; Configuration?: Record<string, any> };
type PipelineStage = { Name: string; Actions: Action[] };

describe('pipeline from a CodeStar connection', () => {
  let app: App;
  let stack: PipelineStack;
  let t: Template;
  let stages: PipelineStage[];
  beforeAll(() => {
    ({ app, stack } = buildPipeline({ pipelineConnectionArn: CONNECTION, pipelineRepository: 'acme/chorus', pipelineBranch: 'release', devAccount: '222222222222', devRegion: 'eu-west-1' }));
    addNagChecks(app);
    t = Template.fromStack(stack);
    const pipeline = Object.values(t.findResources('AWS::CodePipeline::Pipeline'))[0] as { Properties: { Stages: PipelineStage[] } };
    stages = pipeline.Properties.Stages;
  }, 180_000);

  it('runs Source, Build, UpdatePipeline, Assets, dev, prod in that order', () => {
    expect(stages.map((s) => s.Name)).toEqual(['Source', 'Build', 'UpdatePipeline', 'Assets', 'dev', 'prod']);
  });

  it('takes the repository and branch from the connection named in the context', () => {
    const [source] = stages[0]!.Actions;
    expect(source!.ActionTypeId).toMatchObject({ Category: 'Source', Provider: 'CodeStarSourceConnection' });
    expect(source!.Configuration).toMatchObject({ ConnectionArn: CONNECTION, FullRepositoryId: 'acme/chorus', BranchName: 'release' });
  });

  it('synthesizes with the pipeline context on the command line and mutates itself', () => {
    const synth = Object.values(t.findResources('AWS::CodeBuild::Project')).map((p: any) => String(p.Properties.Source.BuildSpec)).find((b) => b.includes('cdk synth'))!;
    expect(synth).toContain('npm ci');
    expect(synth).toContain('npm run build:web');
    expect(synth).toContain(`-c pipelineConnectionArn=${CONNECTION}`);
    expect(synth).toContain('-c pipelineRepository=acme/chorus');
    expect(stages[2]!.Actions.map((a) => a.Name)).toEqual(['SelfMutate']);
    const selfMutate = Object.values(t.findResources('AWS::CodeBuild::Project')).map((p: any) => String(p.Properties.Source.BuildSpec)).find((b) => b.includes('cdk -a . deploy'));
    expect(selfMutate).toContain('ChorusPipeline');
  });

  it('runs the test command before any dev stack deploys', () => {
    const dev = stages[4]!.Actions;
    const test = dev.find((a) => a.Name === 'Test')!;
    expect(test.ActionTypeId.Provider).toBe('CodeBuild');
    const deploys = dev.filter((a) => a.ActionTypeId.Category === 'Deploy');
    expect(deploys.length).toBeGreaterThan(0);
    for (const d of deploys) expect(d.RunOrder).toBeGreaterThan(test.RunOrder);
    const projectRef = JSON.stringify(test.Configuration!.ProjectName);
    const [projectId] = Object.entries(t.findResources('AWS::CodeBuild::Project')).find(([id]) => projectRef.includes(id))!;
    const spec = String((t.findResources('AWS::CodeBuild::Project')[projectId] as any).Properties.Source.BuildSpec);
    expect(spec).toContain('npm ci');
    expect(spec).toContain('npm test');
  });

  it('deploys prod only after a manual approval', () => {
    const prod = stages[5]!.Actions;
    const approval = prod.find((a) => a.ActionTypeId.Category === 'Approval')!;
    expect(approval).toMatchObject({ Name: 'PromoteToProd', ActionTypeId: { Provider: 'Manual' } });
    const deploys = prod.filter((a) => a.ActionTypeId.Category === 'Deploy');
    for (const d of deploys) expect(d.RunOrder).toBeGreaterThan(approval.RunOrder);
  });

  it('deploys the same stacks in dev and prod, each stage with its own stack names, bus and account', () => {
    const names = (s: PipelineStage) =>
      s.Actions.filter((a) => a.ActionTypeId.Category === 'Deploy' && a.Name.endsWith('.Deploy')).map((a) => a.Name.replace(/\.Deploy$/, '')).sort();
    const dev = names(stages[4]!);
    expect(dev).toEqual(names(stages[5]!));
    expect(dev).toEqual(expect.arrayContaining(['ChorusData', 'ChorusApi', 'ChorusApiInbox', 'ChorusApiMessages', 'ChorusApiWork', 'ChorusApiOrg', 'ChorusWorkers', 'ChorusWeb']));
    const devStack = stages[4]!.Actions.find((a) => a.Name === 'ChorusData.Deploy')!;
    expect(devStack.Configuration!.StackName).toBe('dev-ChorusData');
    expect(JSON.stringify(devStack)).toContain('222222222222');
    expect(stages[5]!.Actions.find((a) => a.Name === 'ChorusData.Deploy')!.Configuration!.StackName).toBe('prod-ChorusData');
    Template.fromStack(stack.dev.stacks.events).hasResourceProperties('AWS::Events::EventBus', { Name: 'chorus-dev' });
    Template.fromStack(stack.prod.stacks.events).hasResourceProperties('AWS::Events::EventBus', { Name: 'chorus-prod' });
  });

  it('passes cdk-nag on the pipeline stack and both stages', () => {
    expect(new ChorusNagChecks(app).findings(app)).toEqual([]);
    expect(() => app.synth()).not.toThrow();
  });
});

describe('pipeline from CodeCommit', () => {
  it('takes the repository from the context, branch main by default', () => {
    const { stack } = buildPipeline({ pipelineCodeCommitRepository: 'chorus' });
    const t = Template.fromStack(stack);
    t.hasResourceProperties('AWS::CodePipeline::Pipeline', {
      Stages: Match.arrayWith([
        Match.objectLike({
          Name: 'Source',
          Actions: [Match.objectLike({ ActionTypeId: Match.objectLike({ Provider: 'CodeCommit' }), Configuration: Match.objectLike({ RepositoryName: 'chorus', BranchName: 'main' }) })],
        }),
      ]),
    });
  }, 180_000);
});

describe('pipeline context', () => {
  const ctx = (c: Record<string, unknown>) => pipelineFromContext(new App({ context: c }));
  it('is off without a source, so cdk deploy --all deploys the stacks directly', () => {
    expect(ctx({})).toBeUndefined();
  });
  it('refuses half a connection and two sources', () => {
    expect(() => ctx({ pipelineConnectionArn: CONNECTION })).toThrow(/pipelineRepository/);
    expect(() => ctx({ pipelineConnectionArn: CONNECTION, pipelineRepository: 'not-a-repo' })).toThrow(/owner\/name/);
    expect(() => ctx({ pipelineConnectionArn: CONNECTION, pipelineRepository: 'a/b', pipelineCodeCommitRepository: 'c' })).toThrow(/not both/);
  });
  it('takes a test command from the context', () => {
    expect(ctx({ pipelineCodeCommitRepository: 'c', pipelineTestCommand: 'npm run test:unit' })?.testCommand).toBe('npm run test:unit');
  });
});
