import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { REPO_ROOT } from '../../scripts/local/handlers.ts';
import type { OutboundCommand } from '../../shared/inbox/send.ts';
import type { TestRuntime } from './runtime.ts';

export type ChildEnd = { code: number | null; signal: NodeJS.Signals | null; stdout: string; stderr: string };

/**
 * Run a fixture script (`tests/fixtures/…`) in a child process against `rt`'s table and stand-ins
 * (rt.env), with `crashEnv` set so that a crash hook kills it (SIGKILL) at its point; `job` goes in
 * as argv[2] (JSON). Resolves with how the child ended. Used by the kill tests.
 */
export function runCrashChild(rt: TestRuntime, fixture: string, job: unknown, crashEnv: Record<string, string>): Promise<ChildEnd> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', join(REPO_ROOT, fixture), JSON.stringify(job)], {
      cwd: REPO_ROOT,
      env: { ...process.env, ...rt.env, ...crashEnv, LOG_LEVEL: 'silent' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => (stdout += d));
    child.stderr.on('data', (d) => (stderr += d));
    child.on('error', reject);
    child.on('exit', (code, signal) => resolve({ code, signal, stdout, stderr }));
  });
}

/**
 * Deliver one queued outbound message in a child process, killed right after the Graph API accepted
 * it and before its wamid is recorded (CHORUS_OUTBOUND_CRASH_AFTER_GRAPH=1,
 * tests/fixtures/outbound-crash-child.ts). Pause the runtime's whatsapp-outbound queue first, or its
 * own consumer sends the message.
 */
export const runOutboundCrashChild = (rt: TestRuntime, cmd: OutboundCommand): Promise<ChildEnd> =>
  runCrashChild(rt, 'tests/fixtures/outbound-crash-child.ts', cmd, { CHORUS_OUTBOUND_CRASH_AFTER_GRAPH: '1' });
