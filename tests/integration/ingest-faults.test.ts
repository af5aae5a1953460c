import { describe, expect, it } from 'vitest';
import { DEFAULT_FAULT_OPTIONS, runIngestFaults } from '../../scripts/ingest-faults.ts';

/**
 * The ingest fault harness in its short CI form (issue 23 item 2; the full run is
 * `npm run bench:ingest-faults`): shuffled webhooks with 30% duplicates, reactions before their
 * messages and statuses out of order, and a kill -9 of the runtime in the middle. Counted from the
 * table and an admin WebSocket. The DynamoDB Local restart is left to the bench: in some loaded runs
 * the runtime process died after it (under investigation; the harness then fails with its stderr).
 */
describe('ingest under faults (short form)', () => {
  it('loses nothing, doubles nothing, keeps counters, reactions and acks exact', { timeout: 480_000 }, async () => {
    const r = await runIngestFaults({ ...DEFAULT_FAULT_OPTIONS, webhooks: 400, chats: 30, outbound: 8, ddbRestartAt: 0 });
    expect(r.killed).toBe(true);
    expect(r.answered_200).toBe(r.webhooks);
    expect({ lost: r.lost, duplicates_stored: r.duplicates_stored, unread_wrong: r.unread_wrong, reactions_missing: r.reactions_missing, acks_not_final: r.acks_not_final, acks_backwards: r.acks_backwards, dead_letters: r.dead_letters, socket_missing: r.socket_missing }).toEqual({
      lost: 0,
      duplicates_stored: 0,
      unread_wrong: 0,
      reactions_missing: 0,
      acks_not_final: 0,
      acks_backwards: 0,
      dead_letters: 0,
      socket_missing: 0,
    });
  });
});
