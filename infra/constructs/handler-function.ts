/**
 * Function defaults: one Lambda from a `file#export` handler reference (the format used by
 * functions/routes.ts and events/catalog.ts, paths relative to the repo root).
 *
 * Production path (`bundle: true`): `NodejsFunction`, Node 20 on arm64, bundled by the locally
 * installed esbuild (no Docker) as ESM with a `require` shim banner (some dependencies still call
 * `require`), minified, with source maps, using the repo-root tsconfig and lock file. The AWS SDK is
 * bundled too (`bundleAwsSDK`) so Lambda runs the exact SDK versions pinned in package-lock.json,
 * the same ones the local runtime and tests use.
 *
 * Test path (`bundle: false`): an inline placeholder with the same runtime, architecture,
 * environment and role, so Template assertions can run without every handler file existing and
 * without paying for one esbuild run per function. Never used by `cdk synth`/`cdk deploy`.
 */
import * as path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Duration, RemovalPolicy } from 'aws-cdk-lib';
import * as lambda from 'aws-cdk-lib/aws-lambda';
import { NodejsFunction, OutputFormat } from 'aws-cdk-lib/aws-lambda-nodejs';
import * as logs from 'aws-cdk-lib/aws-logs';
import type * as iam from 'aws-cdk-lib/aws-iam';
import type { Construct } from 'constructs';
import { pascalCase } from '../names.ts';

/** Repo root (infra/constructs/ -> ../..), where handler paths, tsconfig.json and package-lock.json live. */
export const REPO_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');

/** Shim so bundled CommonJS dependencies can still `require` Node built-ins from an ESM bundle. */
export const ESM_REQUIRE_BANNER =
  "import { createRequire } from 'module'; const require = createRequire(import.meta.url);";

/**
 * Lambda runs Node 22: AWS deprecated nodejs20.x on 2026-04-30 (creation blocked from
 * 2027-02-01). The code is built for node20 (the local machine's Node), which Node 22 runs
 * unchanged; the AWS SDK also wants Node >= 22 from 2027.
 */
export const LAMBDA_RUNTIME = lambda.Runtime.NODEJS_22_X;

/** Split `functions/http/me/get-me.ts#handler` into the entry file and the export name. */
export function parseHandlerRef(ref: string): { file: string; exportName: string } {
  const [file, exportName = 'handler', ...rest] = ref.split('#');
  if (!file || rest.length > 0 || !/^[A-Za-z_$][\w$]*$/.test(exportName)) {
    throw new Error(`Invalid handler reference "${ref}": expected "path/to/file.ts#exportName"`);
  }
  return { file, exportName };
}

/** A stable, readable construct id from a handler reference, e.g. `HttpMeGetMe`. */
export function handlerConstructId(ref: string): string {
  const { file, exportName } = parseHandlerRef(ref);
  const base = file.replace(/^functions\//, '').replace(/\.[cm]?[tj]sx?$/, '');
  return pascalCase(exportName === 'handler' ? base : `${base} ${exportName}`);
}

export interface HandlerFunctionProps {
  /** `file#export`, file relative to the repo root */
  readonly handler: string;
  /** false = inline placeholder code (tests only); true = real esbuild bundle */
  readonly bundle: boolean;
  readonly description?: string;
  readonly environment?: Record<string, string>;
  /** @default 10 seconds (API Gateway's HTTP integration limit is 30 s) */
  readonly timeout?: Duration;
  /** @default 512 MB: arm64 Node with the bundled SDK cold-starts noticeably faster than at 128-256 MB */
  readonly memorySize?: number;
  /**
   * packages shipped as installed node_modules instead of bundled (native add-ons such as sharp),
   * installed for Lambda's platform (linux, arm64, glibc) whatever machine synthesizes
   */
  readonly nodeModules?: string[];
  /** an execution role to use (shared by functions with the same access profile); default: a role of its own */
  readonly role?: iam.IRole;
}

/**
 * Never bundled: sharp is a native add-on (libvips) that esbuild cannot inline. Functions that
 * make thumbnails list it in `nodeModules`; elsewhere the media code's dynamic import fails and
 * it skips thumbnails (shared/media/media.ts), which only the media-download consumer makes.
 */
export const NATIVE_MODULES = ['sharp'] as const;

/** Create the Lambda for one handler reference with Chorus's defaults. */
export function createHandlerFunction(scope: Construct, id: string, props: HandlerFunctionProps): lambda.Function {
  const { file, exportName } = parseHandlerRef(props.handler);
  const common = {
    runtime: LAMBDA_RUNTIME,
    architecture: lambda.Architecture.ARM_64,
    description: props.description ?? props.handler,
    timeout: props.timeout ?? Duration.seconds(10),
    memorySize: props.memorySize ?? 512,
    environment: { NODE_OPTIONS: '--enable-source-maps', ...props.environment },
    // Explicit log group: bounded retention, and no orphaned group once the function is gone.
    logGroup: new logs.LogGroup(scope, `${id}Logs`, {
      retention: logs.RetentionDays.ONE_MONTH,
      removalPolicy: RemovalPolicy.DESTROY,
    }),
    tracing: lambda.Tracing.ACTIVE,
    ...(props.role ? { role: props.role } : {}),
  } satisfies Partial<lambda.FunctionProps>;

  if (!props.bundle) {
    return new lambda.Function(scope, id, {
      ...common,
      handler: `index.${exportName}`,
      code: lambda.Code.fromInline(`export const ${exportName} = async () => {};`),
    });
  }

  return new NodejsFunction(scope, id, {
    ...common,
    entry: path.join(REPO_ROOT, file),
    handler: exportName,
    projectRoot: REPO_ROOT,
    depsLockFilePath: path.join(REPO_ROOT, 'package-lock.json'),
    bundling: {
      forceDockerBundling: false,
      format: OutputFormat.ESM,
      banner: ESM_REQUIRE_BANNER,
      mainFields: ['module', 'main'],
      target: 'node20',
      minify: true,
      sourceMap: true,
      tsconfig: path.join(REPO_ROOT, 'tsconfig.json'),
      bundleAwsSDK: true,
      externalModules: [...NATIVE_MODULES],
      ...(props.nodeModules?.length
        ? {
            nodeModules: props.nodeModules,
            // npm picks optional platform packages (sharp's @img/sharp-linux-arm64) by these
            environment: { npm_config_os: 'linux', npm_config_cpu: 'arm64', npm_config_libc: 'glibc' },
          }
        : {}),
    },
  });
}
