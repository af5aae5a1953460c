/**
 * The delivery pipeline (CDK Pipelines, `aws-cdk-lib/pipelines`): a self-mutating CodePipeline that
 * takes the repository, synthesizes this app, updates itself, then deploys the same application
 * twice, as stage `dev` and, after a manual approval, as stage `prod`. The test command runs as the
 * step before `dev` deploys, on the commit being deployed.
 *
 * Source, named by context (one of the two):
 *   pipelineConnectionArn + pipelineRepository   a CodeStar (CodeConnections) connection to GitHub,
 *                                               GitLab or Bitbucket, repository `owner/name`
 *   pipelineCodeCommitRepository                 a CodeCommit repository name
 * Optional context:
 *   pipelineBranch        branch to deploy (default 'main')
 *   pipelineTestCommand   the pre-deploy test command (default 'npm test')
 *   devAccount/devRegion, prodAccount/prodRegion   where each stage deploys (default: the
 *                         pipeline's own account and region); other accounts must be bootstrapped
 *                         with `cdk bootstrap --trust <pipeline account>`
 * Every other context key (infra/build.ts) applies to both stages; each stage gets its own stack
 * names (`dev-ChorusData`, `prod-ChorusData`) and event bus (`chorus-dev`, `chorus-prod`), so both
 * can share one account.
 *
 * The synth step repeats the pipeline context on its `cdk synth` command line, so the pipeline
 * rebuilds itself from the same source without the context being committed. Nothing here looks up
 * the account: the pipeline synthesizes offline.
 */
import { Stack, type StackProps, Stage, type StageProps } from 'aws-cdk-lib';
import * as codebuild from 'aws-cdk-lib/aws-codebuild';
import * as codecommit from 'aws-cdk-lib/aws-codecommit';
import * as pipelines from 'aws-cdk-lib/pipelines';
import type { Construct } from 'constructs';
import { buildApp, type ChorusAppProps, type ChorusStacks } from './build.ts';

/** The context keys that describe the pipeline (repeated on the synth step's command line). */
export const PIPELINE_CONTEXT_KEYS = [
  'pipelineConnectionArn',
  'pipelineRepository',
  'pipelineCodeCommitRepository',
  'pipelineBranch',
  'pipelineTestCommand',
  'devAccount',
  'devRegion',
  'prodAccount',
  'prodRegion',
] as const;

export type PipelineSource =
  | { readonly kind: 'connection'; readonly connectionArn: string; readonly repository: string; readonly branch: string }
  | { readonly kind: 'codecommit'; readonly repository: string; readonly branch: string };

export interface PipelineSettings {
  readonly source: PipelineSource;
  /** @default 'npm test' */
  readonly testCommand: string;
  /** where each stage deploys (undefined = the pipeline's account and region) */
  readonly stages: { readonly dev: StageProps['env']; readonly prod: StageProps['env'] };
  /** the context to repeat on the synth command line */
  readonly context: Record<string, string>;
}

/**
 * The pipeline settings in the context, or undefined when no pipeline source is named (then the
 * app deploys its stacks directly, `cdk deploy --all`).
 * @throws Error when the source is named by halves (a connection without repository or the reverse)
 */
export function pipelineFromContext(scope: Construct): PipelineSettings | undefined {
  const str = (key: string): string | undefined => {
    const v: unknown = scope.node.tryGetContext(key);
    return v === undefined || v === null || v === '' ? undefined : String(v);
  };
  const connectionArn = str('pipelineConnectionArn');
  const repository = str('pipelineRepository');
  const codeCommit = str('pipelineCodeCommitRepository');
  if (!connectionArn && !repository && !codeCommit) return undefined;
  const branch = str('pipelineBranch') ?? 'main';
  let source: PipelineSource;
  if (codeCommit) {
    if (connectionArn) throw new Error('Name one pipeline source: pipelineConnectionArn or pipelineCodeCommitRepository, not both');
    source = { kind: 'codecommit', repository: codeCommit, branch };
  } else {
    if (!connectionArn || !repository) throw new Error('A connection source needs both pipelineConnectionArn and pipelineRepository (owner/name)');
    if (!/^[^/\s]+\/[^/\s]+$/.test(repository)) throw new Error(`pipelineRepository must be owner/name, got "${repository}"`);
    source = { kind: 'connection', connectionArn, repository, branch };
  }
  const env = (stage: 'dev' | 'prod') => {
    const account = str(`${stage}Account`);
    const region = str(`${stage}Region`);
    return account || region ? { account, region } : undefined;
  };
  const context = Object.fromEntries(PIPELINE_CONTEXT_KEYS.flatMap((k) => (str(k) ? [[k, str(k)!]] : [])));
  return { source, testCommand: str('pipelineTestCommand') ?? 'npm test', stages: { dev: env('dev'), prod: env('prod') }, context };
}

export interface ChorusStageProps extends StageProps {
  /** the app's props (infra/build.ts); `env` comes from the stage */
  readonly app: ChorusAppProps;
}

/** One deployment of the whole application (all Chorus stacks) as a pipeline stage. */
export class ChorusStage extends Stage {
  readonly stacks: ChorusStacks;

  constructor(scope: Construct, id: string, props: ChorusStageProps) {
    super(scope, id, props);
    this.stacks = buildApp(this, {
      // cdk-nag runs once, on the whole app (infra/app.ts), pipeline stack and stages together
      nag: false,
      ...props.app,
      env: props.env,
      // one bus per stage, so dev and prod can share an account
      eventBusName: `${props.app.eventBusName ?? 'chorus'}-${id}`,
    });
  }
}

export interface PipelineStackProps extends StackProps {
  readonly settings: PipelineSettings;
  /** the app's props for both stages */
  readonly app: ChorusAppProps;
}

/** The self-mutating pipeline: Source -> Build (synth) -> UpdatePipeline -> Assets -> dev -> approval -> prod. */
export class PipelineStack extends Stack {
  readonly pipeline: pipelines.CodePipeline;
  readonly dev: ChorusStage;
  readonly prod: ChorusStage;

  constructor(scope: Construct, id: string, props: PipelineStackProps) {
    super(scope, id, props);
    const { source: src, testCommand } = props.settings;
    const input =
      src.kind === 'connection'
        ? pipelines.CodePipelineSource.connection(src.repository, src.branch, { connectionArn: src.connectionArn })
        : pipelines.CodePipelineSource.codeCommit(codecommit.Repository.fromRepositoryName(this, 'Repository', src.repository), src.branch);
    const contextArgs = Object.entries(props.settings.context)
      .map(([k, v]) => `-c ${k}=${shellQuote(v)}`)
      .join(' ');

    // stages in other accounts read the artifacts with a KMS key (rotated yearly)
    const stageAccounts = [props.settings.stages.dev?.account, props.settings.stages.prod?.account];
    const crossAccount = stageAccounts.some((a) => a !== undefined && a !== props.env?.account);
    this.pipeline = new pipelines.CodePipeline(this, 'Pipeline', {
      pipelineName: 'chorus',
      selfMutation: true,
      crossAccountKeys: crossAccount,
      enableKeyRotation: crossAccount,
      // Docker for the WhatsApp Web worker image asset
      dockerEnabledForSynth: true,
      // Node 20 (package.json engines; the local runtime's version) on every CodeBuild step
      codeBuildDefaults: {
        buildEnvironment: { buildImage: codebuild.LinuxBuildImage.STANDARD_7_0 },
        partialBuildSpec: codebuild.BuildSpec.fromObject({ phases: { install: { 'runtime-versions': { nodejs: '20' } } } }),
      },
      synth: new pipelines.ShellStep('Synth', {
        input,
        installCommands: ['npm ci'],
        commands: ['npm run build:web', `npx cdk synth --quiet ${contextArgs}`.trim()],
        primaryOutputDirectory: 'cdk.out',
      }),
    });

    // a stage without its own account/region deploys where the pipeline runs
    this.dev = new ChorusStage(this, 'dev', { env: props.settings.stages.dev ?? props.env, app: props.app });
    this.pipeline.addStage(this.dev, {
      pre: [
        new pipelines.ShellStep('Test', {
          input,
          installCommands: ['npm ci'],
          commands: [testCommand],
        }),
      ],
    });
    this.prod = new ChorusStage(this, 'prod', { env: props.settings.stages.prod ?? props.env, app: props.app });
    this.pipeline.addStage(this.prod, {
      pre: [new pipelines.ManualApprovalStep('PromoteToProd', { comment: 'Deploy this commit, tested and running in dev, to prod?' })],
    });
  }
}

/** Single-quote a value for the synth step's shell. */
function shellQuote(value: string): string {
  return /^[\w.:/@=,+-]+$/.test(value) ? value : `'${value.replace(/'/g, `'\\''`)}'`;
}
