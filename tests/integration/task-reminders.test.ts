import { afterAll, describe, expect, it } from 'vitest';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startRuntime, type Runtime } from '../../scripts/local/runtime.ts';
import { freePort } from '../../scripts/local/ports.ts';
import { createTask, getTask, listTaskAudit } from '../../shared/task/task.ts';
import { CreateTaskInput } from '../../shared/task/task.schemas.ts';
import { occurrence } from '../../shared/task/task.rules.ts';
import { eventually } from '../factories/wait.ts';
import type { Actor } from '../../shared/auth/actor.ts';

/**
 * A reminder due while the local runtime is down fires right after it starts again (the local
 * scheduler keeps its wake-ups in a file), and a repeating one re-arms for its next occurrence.
 */
const dirs: string[] = [];
afterAll(async () => {
  for (const d of dirs) await rm(d, { recursive: true, force: true });
});

describe('task reminders across a restart', () => {
  it('fires after the restart and re-arms the repeat', async () => {
    const dataDir = await mkdtemp(join(tmpdir(), 'chorus-reminders-'));
    dirs.push(dataDir);
    const demo = { adminEmail: 'a@reminders.chorus', memberEmail: 'm@reminders.chorus', password: 'Chorus-demo-2026' };
    let rt: Runtime = await startRuntime({ dataDir, port: await freePort(), demo, logLevel: 'silent' });
    const actor: Actor = { email: demo.adminEmail, user_id: 'x', org_id: rt.orgId, role: 'admin' };
    const due = Date.now() + 2500;
    const tz = 'Europe/Berlin';
    const task = await createTask(actor, CreateTaskInput.parse({ title: 'Daily stand-up notes', due_date: due, reminder_setting: { remind_in: 'repeat', repeat: { frequency: 1, interval: 'days', end: 'never' } }, time_zone: tz }));
    expect(task.remind_at).toBe(due);
    await rt.stop();

    await new Promise((r) => setTimeout(r, Math.max(0, due - Date.now()) + 500));
    rt = await startRuntime({ dataDir, port: await freePort(), demo, logLevel: 'silent' });
    try {
      const next = occurrence(due, { frequency: 1, interval: 'days' }, 1, tz);
      await eventually(async () => (await getTask(actor, task.task_id)).remind_at === next, 15_000, 'the repeat re-armed');
      const audit = (await listTaskAudit(actor, task.task_id)).entries;
      expect(audit[0]).toMatchObject({ action: 'REMIND_AT_CHANGED', performed_by: 'system', old_record: { remind_at: due }, new_record: { remind_at: next } });
      const schedules = await readFile(join(dataDir, 'schedules.json'), 'utf8');
      expect(schedules).toContain(String(next));
      expect(schedules).not.toContain(`"at":${due}`);
    } finally {
      await rt.stop();
    }
  });
});
