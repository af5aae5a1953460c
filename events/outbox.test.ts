import { describe, expect, it } from 'vitest';
import { ZodError } from 'zod';
import { outboxRecords, shardOf } from './outbox.ts';
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

  it('spread ids over every shard, each id always on the same one', () => {
    const shards = new Set(Array.from({ length: 200 }, (_, i) => shardOf(`e${i}`)));
    expect([...shards].sort()).toEqual(Array.from({ length: OUTBOX_SHARDS }, (_, i) => i));
    expect(shardOf('x')).toBe(shardOf('x'));
  });
});
