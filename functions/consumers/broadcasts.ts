import { z } from 'zod';
import { sqsHandler } from '../lib/sqs.ts';
import { parseCommandRecord } from '../lib/records.ts';
import { runBroadcastStep } from '../../shared/broadcast/broadcast.ts';
import { entitledOrLog } from '../lib/entitled.ts';

/** A step of a broadcast on the broadcasts queue (shared/broadcast/broadcast.ts). */
const Step = z.object({ org_id: z.string(), broadcast_id: z.string(), seq: z.number().int().min(0) });

/**
 * broadcasts consumer: runs one engine step (sends paced for up to one step budget, then enqueues the next). Stale steps do nothing.
 * Issue 42: after an end the month's credits read 0 (entitlements.rules.ts broadcastCredits), so the
 * step pauses the broadcast (it can be resumed once the subscription is renewed); the refusal is
 * logged here, and any send already queued is failed with the reason at the outbound chokepoint.
 */
export const handler = sqsHandler('broadcasts', async (record) => {
  const step = parseCommandRecord(record, Step);
  await entitledOrLog(step.org_id, 'write', 'broadcasts.step', { broadcast_id: step.broadcast_id });
  await runBroadcastStep(step);
});
