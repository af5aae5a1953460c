import { afterAll, describe, expect, it } from 'vitest';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startRuntime, type Runtime } from '../../scripts/local/runtime.ts';
import { freePort } from '../../scripts/local/ports.ts';
import { commitTransaction } from '../../shared/db/transaction.ts';
import { chatWriteTx, type ChatRow } from '../../shared/chat/chat-write.ts';
import { snoozeChats } from '../../shared/chat/chat-workflow.ts';
import { getChat } from '../../shared/chat/chat.ts';
import { eventually } from '../factories/wait.ts';
import type { Actor } from '../../shared/auth/actor.ts';

/**
 * A snooze that ends while the local runtime is down wakes right after it starts again: the local
 * scheduler keeps its wake-ups in a file (issue 4 part 3).
 */
const dirs: string[] = [];
afterAll(async () => {
  for (const d of dirs) await rm(d, { recursive: true, force: true });
});

describe('snooze across a restart', () => {
  it('the chat is back in the inbox after the restart', async () => {
    const dataDir = await mkdtemp(join(tmpdir(), 'chorus-snooze-'));
    dirs.push(dataDir);
    const demo = { adminEmail: 'a@snooze.chorus', memberEmail: 'm@snooze.chorus', password: 'Chorus-demo-2026' };
    let rt: Runtime = await startRuntime({ dataDir, port: await freePort(), demo, logLevel: 'silent' });
    const actor: Actor = { email: demo.adminEmail, user_id: 'x', org_id: rt.orgId, role: 'admin' };
    const chatId = '15553330001@c.us';
    const now = Date.now();
    const row = { org_id: rt.orgId, chat_id: chatId, chat_type: 'user', org_phone: '15550000000', phone_id: 'p', latest_message_timestamp: now - 1000, version: 0 } as unknown as ChatRow;
    expect(await commitTransaction((e) => chatWriteTx(e, null, row, now).items)).toBe(true);
    const until = Date.now() + 2500;
    const r = await snoozeChats(actor, [chatId], until);
    expect(r.chats[0].inbox_state).toBe('snoozed');
    expect(await readFile(join(dataDir, 'schedules.json'), 'utf8')).toContain(String(until));
    await rt.stop();

    await new Promise((res) => setTimeout(res, Math.max(0, until - Date.now()) + 500));
    rt = await startRuntime({ dataDir, port: await freePort(), demo, logLevel: 'silent' });
    try {
      const chat = await eventually(async () => {
        const c = await getChat(actor, chatId);
        return c.inbox_state === 'open' ? c : undefined;
      }, 15_000, 'the snooze wake-up after the restart');
      expect(chat.snooze_metadata ?? null).toBeNull();
      expect(await readFile(join(dataDir, 'schedules.json'), 'utf8')).not.toContain(String(until));
    } finally {
      await rt.stop();
    }
  });
});
