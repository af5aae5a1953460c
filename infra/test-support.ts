/**
 * What the infra tests share: cdk.json's context (with the `appUrl` that synth requires, see
 * infra/build.ts propsFromContext) and temporary folders removed after the file's tests.
 */
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { afterAll } from 'vitest';
import { REPO_ROOT } from './constructs/handler-function.ts';

/** cdk.json's `context`, plus a placeholder `appUrl` (invitation links) when it has none. */
export const cdkContext: Record<string, unknown> = {
  appUrl: 'https://app.example.com',
  ...(JSON.parse(fs.readFileSync(path.join(REPO_ROOT, 'cdk.json'), 'utf8')).context as Record<string, unknown>),
};

/** `mkTmp(prefix)`: a new folder under the OS temp dir, removed with the others after the file's tests. */
export function tempDirs(): (prefix: string) => string {
  const dirs: string[] = [];
  afterAll(() => dirs.forEach((d) => fs.rmSync(d, { recursive: true, force: true })));
  return (prefix: string) => {
    const d = fs.mkdtempSync(path.join(os.tmpdir(), prefix));
    dirs.push(d);
    return d;
  };
}
