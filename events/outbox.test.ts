import { describe, expect, it } from 'vitest';
import { ZodError } from 'zod';
import { outboxRecords, outboxRows, shardOf } from './outbox.ts';
import { OUTBOX_SHARDS } from '../shared/outbox/outbox-event.entity.ts';

/** The outbox's pure parts: records built (and validated) before anything is written, and their shards. */
const chat = { chat_id: '1@c.us', org_id: 'o', latest_message_timestamp: 1, chat_type: 'user' };

describe('outbox records', () => {
  it('keep a deterministic id, stamp metadata and written_at, and land on a stable shard', () => {
    const [r] = outboxRecords([{ name: 'chat.read', properties: { org_id: 'o', chat, email: 'a@b.c' } as never, actor: 'user:a@b.c', id: 'chat.read:o:1' }], 1_790_000_000_000);
    expect(r).toMatchObject({ event_id: 'chat.read:o:1', written_at: 1_790_000_000_000, shard: shardOf('chat.read:o:1') });
    expect(r!.entry).toMatchObject({ source: 'chorus', 'detail-type': 'chat.read', detail: { metadata: { id: 'chat.read:o:1', version: 1, actor: 'user:a@b.c' } } });
  });

  it('give an event without an id `<name>:<ULID>`', () => {
    const [r] = outboxRecords([{ name: 'chat.read', properties: { org_id: 'o', chat, email: 'a@b.c' } as never, actor: 'system' }]);
    expect(r!.event_id).toMatch(/^chat\.read:[0-9A-HJKMNP-TV-Z]{26}$/);
  });

  it('refuse properties that break the contract (thrown before the transaction is sent)', () => {
    expect(() => outboxRecords([{ name: 'chat.read', properties: { org_id: 'o' } as never, actor: 'system' }])).toThrow(ZodError);
  });

  it('go in one row per commit, in order, keyed by the first, and in further rows only past ~300 KB of events', () => {
    const read = (n: number, email: string) => ({ name: 'chat.read' as const, properties: { org_id: 'o', chat: { ...chat, chat_id: `${n}@c.us` }, email } as never, actor: 'system' });
    const small = outboxRecords(Array.from({ length: 40 }, (_, n) => read(n, 'a@b.c')));
    const rows = outboxRows(small);
    expect(rows).toHaveLength(1);
    expect(rows[0]!.map((r) => r.event_id)).toEqual(small.map((r) => r.event_id));
    // ~20 KB each: 300 KB holds 14 of them
    const big = outboxRecords(Array.from({ length: 30 }, (_, n) => read(n, `${'x'.repeat(20_000)}@b.c`)));
    const split = outboxRows(big);
    expect(split.length).toBe(3);
    expect(split.flat().map((r) => r.event_id)).toEqual(big.map((r) => r.event_id));
    for (const row of split) expect(row.reduce((n, r) => n + JSON.stringify(r.entry.detail).length, 0)).toBeLessThanOrEqual(300_000);
    // deterministic: the relay deletes the keys the transaction wrote
    expect(outboxRows(big).map((r) => r[0]!.event_id)).toEqual(split.map((r) => r[0]!.event_id));
  });

  it('spread ids over every shard, each id always on the same one', () => {
    const shards = new Set(Array.from({ length: 200 }, (_, i) => shardOf(`e${i}`)));
    expect([...shards].sort()).toEqual(Array.from({ length: OUTBOX_SHARDS }, (_, i) => i));
    expect(shardOf('x')).toBe(shardOf('x'));
  });
});
