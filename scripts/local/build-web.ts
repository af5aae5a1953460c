import { existsSync, statSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { execFileSync } from 'node:child_process';
import { REPO_ROOT } from './handlers.ts';

/** Build web/dist with Vite when any web source is newer than the bundle (npm start, tests). */
function newestMtime(dir: string): number {
  let newest = 0;
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    const p = join(dir, e.name);
    newest = Math.max(newest, e.isDirectory() ? newestMtime(p) : statSync(p).mtimeMs);
  }
  return newest;
}

export function buildWebIfStale(): void {
  const index = join(REPO_ROOT, 'web', 'dist', 'index.html');
  const inputs = [newestMtime(join(REPO_ROOT, 'web', 'src')), newestMtime(join(REPO_ROOT, 'shared')), statSync(join(REPO_ROOT, 'web', 'index.html')).mtimeMs, statSync(join(REPO_ROOT, 'web', 'vite.config.ts')).mtimeMs];
  if (existsSync(index) && statSync(index).mtimeMs >= Math.max(...inputs)) return;
  console.log('Building the web app (vite build)...');
  execFileSync(process.execPath, [join(REPO_ROOT, 'node_modules', 'vite', 'bin', 'vite.js'), 'build', '--config', 'web/vite.config.ts', '--logLevel', 'warn'], { cwd: REPO_ROOT, stdio: 'inherit' });
}
