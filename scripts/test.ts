import { spawnSync } from 'node:child_process';
import { mkdirSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { buildWebIfStale } from './local/build-web.ts';
import { REPO_ROOT } from './local/handlers.ts';

/**
 * `npm test`: the whole suite, as CI runs it. Type check (tsc) and lint (eslint) count as one
 * check each; then vitest runs unit, integration and end-to-end tests (the web app is built
 * first for the browser tests). Ends with the plain line `N passed, N failed` that CI reads,
 * computed from vitest's JSON report. Extra args are passed to vitest (e.g. a file filter).
 */
const node = process.execPath;
const bin = (p: string) => join(REPO_ROOT, 'node_modules', p);
let passed = 0;
let failed = 0;

function check(name: string, args: string[]): void {
  const t = Date.now();
  const r = spawnSync(node, args, { cwd: REPO_ROOT, stdio: 'inherit' });
  const ok = r.status === 0;
  console.log(`${ok ? '✓' : '✗'} ${name} (${((Date.now() - t) / 1000).toFixed(1)} s)`);
  if (ok) passed++;
  else failed++;
}

const filter = process.argv.slice(2);
if (!filter.length) {
  check('typecheck (tsc --noEmit)', [bin('typescript/bin/tsc'), '--noEmit', '-p', 'tsconfig.json']);
  check('lint (eslint)', [bin('eslint/bin/eslint.js'), '.', '--max-warnings=0']);
}
try {
  buildWebIfStale();
} catch {
  console.log('✗ web build failed');
  failed++;
}
const out = join(REPO_ROOT, 'test-results', 'vitest.json');
mkdirSync(join(REPO_ROOT, 'test-results'), { recursive: true });
rmSync(out, { force: true });
spawnSync(node, [bin('vitest/vitest.mjs'), 'run', '--reporter=default', '--reporter=json', `--outputFile.json=${out}`, ...filter], { cwd: REPO_ROOT, stdio: 'inherit', env: { ...process.env, CI: process.env.CI ?? 'true' } });
try {
  const report = JSON.parse(readFileSync(out, 'utf8')) as { numPassedTests: number; numFailedTests: number; testResults: Array<{ status: string; assertionResults: unknown[]; name: string; message?: string }> };
  passed += report.numPassedTests;
  failed += report.numFailedTests;
  // a file that failed to load has no assertions but must still count
  for (const f of report.testResults) {
    if (f.status === 'failed' && f.assertionResults.length === 0) {
      console.log(`✗ ${f.name}: ${f.message ?? 'failed to run'}`);
      failed++;
    }
  }
} catch {
  console.log('✗ vitest produced no report');
  failed++;
}
console.log(`${passed} passed, ${failed} failed`);
process.exit(failed ? 1 : 0);
