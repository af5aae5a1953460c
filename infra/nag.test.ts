/**
 * cdk-nag AwsSolutions on every stack: no finding outside the accepted list of infra/nag.ts, every
 * accepted finding with a reason, no stale acceptance, and a synthesis that runs the checks as CDK
 * policy validation (what `npm run synth` does) passes.
 *
 *   npx vitest run infra/nag.test.ts
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { App } from 'aws-cdk-lib';
import { describe, expect, it } from 'vitest';
import { buildApp } from './build.ts';
import { ChorusNagChecks, NAG_ACCEPTANCES } from './nag.ts';
import { PipelineStack, pipelineFromContext } from './pipeline.ts';
import { cdkContext, tempDirs } from './test-support.ts';

const mkTmp = tempDirs();

function webDist(): string {
  const dir = mkTmp('chorus-nag-web-');
  fs.writeFileSync(path.join(dir, 'index.html'), '<!doctype html><title>Chorus</title>');
  return dir;
}

describe('cdk-nag AwsSolutions', () => {
  it('finds nothing outside the accepted findings in the stacks and the pipeline, and every acceptance is still needed', () => {
    const app = new App({ outdir: mkTmp('chorus-nag-'), context: cdkContext });
    buildApp(app, { bundle: false, webDist: webDist(), nag: false });
    const checks = new ChorusNagChecks(app);
    expect(checks.findings(app)).toEqual([]);
    // the pipeline, with a stage in another account (KMS key for its artifacts)
    const pipelineApp = new App({
      outdir: mkTmp('chorus-nag-'),
      context: { ...cdkContext, pipelineCodeCommitRepository: 'chorus', prodAccount: '333333333333' },
    });
    new PipelineStack(pipelineApp, 'ChorusPipeline', {
      env: { account: '111111111111', region: 'eu-west-1' },
      settings: pipelineFromContext(pipelineApp)!,
      app: { bundle: false, webDist: webDist() },
    }).pipeline.buildPipeline();
    expect(checks.findings(pipelineApp)).toEqual([]);
    const unused = NAG_ACCEPTANCES.filter((a) => !a.whenBundled && !checks.used.has(a)).map((a) => a.finding.source);
    expect(unused).toEqual([]);
  }, 120_000);

  it('flags what is not accepted (the checks really run)', () => {
    const app = new App({ outdir: mkTmp('chorus-nag-'), context: cdkContext });
    buildApp(app, { bundle: false, webDist: webDist(), nag: false });
    const rules = new Set(new ChorusNagChecks(app, []).findings(app).map((f) => f.rule.replace(/\[.*$/, '')));
    expect([...rules]).toEqual(expect.arrayContaining(['AwsSolutions-L1', 'AwsSolutions-IAM4', 'AwsSolutions-IAM5', 'AwsSolutions-OS1', 'AwsSolutions-APIG4']));
  }, 120_000);

  it('gives every acceptance a reason of its own', () => {
    for (const a of NAG_ACCEPTANCES) expect(a.reason.length, a.finding.source).toBeGreaterThan(60);
    expect(new Set(NAG_ACCEPTANCES.map((a) => a.reason)).size).toBe(NAG_ACCEPTANCES.length);
  });

  it('passes the policy validation of a full synthesis, with the findings of real cross-stack references', () => {
    const app = new App({ outdir: mkTmp('chorus-nag-'), context: cdkContext });
    buildApp(app, { bundle: false, webDist: webDist() });
    expect(() => app.synth()).not.toThrow();
  }, 120_000);
});
