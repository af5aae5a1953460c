import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { REPO_ROOT } from '../../scripts/local/handlers.ts';
import type { OutboundCommand } from '../../shared/inbox/send.ts';
import type { TestRuntime } from './runtime.ts';

/**
 * Deliver one queued outbound message in a child process against `rt`'s table and Graph stand-in,
 * killed by SIGKILL right after the Graph API accepted it and before its wamid is recorded
 * (CHORUS_OUTBOUND_CRASH_AFTER_GRAPH=1, tests/fixtures/outbound-crash-child.ts). Pause the runtime's
 * whatsapp-outbound queue first, or its own consumer sends the message. Resolves with how it ended.
 */
export function runOutboundCrashChild(rt: TestRuntime, cmd: OutboundCommand): Promise<{ code: number | null; signal: NodeJS.Signals | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', join(REPO_ROOT, 'tests/fixtures/outbound-crash-child.ts'), JSON.stringify(cmd)], {
      cwd: REPO_ROOT,
      env: { ...process.env, ...rt.env, CHORUS_OUTBOUND_CRASH_AFTER_GRAPH: '1', LOG_LEVEL: 'silent' },
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
