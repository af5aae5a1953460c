import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startTestRuntime, type TestRuntime } from '../factories/runtime.ts';
import { eventually } from '../factories/wait.ts';
import { readDeadLetters, redriveDeadLetterFiles } from '../../scripts/local/queue.ts';
import { REPO_ROOT } from '../../scripts/local/handlers.ts';

/**
 * Dead letters a person can act on (issue 23 item 3): `npm run dlq -- list | show <id> |
 * redrive <queue>` against a running runtime (its dev routes) and against a stopped one's files.
 */
const run = promisify(execFile);
const dlq = (env: Record<string, string>, ...args: string[]) =>
  run(process.execPath, [join(REPO_ROOT, 'node_modules/tsx/dist/cli.mjs'), join(REPO_ROOT, 'scripts/dlq.ts'), ...args], { cwd: REPO_ROOT, env: { ...process.env, ...env } });

let rt: TestRuntime;
beforeAll(async () => {
  rt = await startTestRuntime();
}, 120_000);
afterAll(async () => rt?.cleanup());

describe('npm run dlq', () => {
  it('lists a dead letter with its reason in words, shows it, and redrives it onto its queue', async () => {
    const queue = rt.queues.get('chat-snooze')!;
    // a wake-up without its fields: the consumer's parser refuses it on every attempt
    await queue.send(JSON.stringify({ org_id: rt.orgId }));
    await eventually(async () => queue.deadLettered === 1, 30_000, 'the record to be dead-lettered');

    const env = { CHORUS_URL: rt.url };
    const list = (await dlq(env, 'list')).stdout;
    expect(list).toContain('chat-snooze gave up after 5 attempts. Last error: the record does not match its schema (body.chat_id: Required; body.snooze_until: Required)');
    expect(list).toContain('1 dead letter(s): chat-snooze 1');
    const id = list.split('\n')[0]!.split('\t')[1]!;

    const shown = (await dlq(env, 'show', id)).stdout;
    expect(shown).toContain(`id:               ${id}`);
    expect(shown).toContain('attempts:         5');
    expect(shown).toContain(`"org_id": "${rt.orgId}"`);

    const redriven = (await dlq(env, 'redrive', 'chat-snooze')).stdout;
    expect(redriven).toContain('1 record(s) of chat-snooze are back on the queue.');
    // back on the queue: delivered again (and, still unreadable, dead-lettered again)
    expect(queue.deadLettered).toBe(0);
    await eventually(async () => {
      const { dead_letters } = (await (await fetch(`${rt.url}/_local/dead-letters`)).json()) as { dead_letters: Array<{ id: string; receiveCount: number }> };
      return dead_letters.length === 1 && dead_letters[0]!.id === id && dead_letters[0]!.receiveCount === 5;
    }, 30_000, 'the redriven record to be delivered again');

    await expect(dlq(env, 'redrive', 'no-such-queue')).rejects.toMatchObject({ stderr: expect.stringContaining('There is no queue named no-such-queue.') });
  }, 90_000);

  it('works on a stopped runtime’s files: lists them, and a redrive puts them in the queue folder for the next start', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'chorus-dlq-'));
    try {
      const { mkdir, writeFile } = await import('node:fs/promises');
      await mkdir(join(dir, 'queues', 'media-download-dlq'), { recursive: true });
      await writeFile(join(dir, 'queues', 'media-download-dlq', '01JDLQ.json'), JSON.stringify({ id: '01JDLQ', body: '{}', receiveCount: 5, notBefore: 0, sentAt: 1, lastError: 'Graph API answered 500', deadLetteredAt: 2 }));
      // nothing listens on this port: the CLI reads the files
      const list = (await dlq({ CHORUS_URL: 'http://127.0.0.1:9', CHORUS_DATA_DIR: dir }, 'list')).stdout;
      expect(list).toContain('media-download\t01JDLQ\t1970-01-01 00:00:00 UTC\tmedia-download gave up after 5 attempts. Last error: Graph API answered 500');
      expect(await redriveDeadLetterFiles(dir, 'media-download')).toBe(1);
      expect(await readdir(join(dir, 'queues', 'media-download'))).toEqual(['01JDLQ.json']);
      expect(await readDeadLetters(dir)).toEqual([]);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  }, 60_000);
});
