import { db } from '../db/service.ts';
import { isConflictError, retryOnConflict } from '../db/retry.ts';
import { log } from '../log.ts';
import type { ProtocolChange } from '../whatsapp/web/protocol.rules.ts';
import { applyInboundReaction } from '../message/reactions.ts';
import { applyInboundDelete, applyInboundEdit } from '../message/message-edit.ts';

/**
 * Changes that arrive before the message they target wait here (issue 23 item 2): WhatsApp may
 * deliver a reaction, an edit or a delete before the message itself (separate webhooks, a retry of
 * the message's webhook, or a WhatsApp Web history batch). They are kept under the target's wamid
 * (shared/message/parked-change.entity.ts) and replayed by ingest right after the message is stored
 * (`replayParked` in shared/inbox/ingest.ts), so the order of arrival does not lose them.
 * Times are epoch ms unless named `_s`.
 */

/** A reaction waiting for its target: the newest per sender wins. */
export interface ParkedReaction {
  chat_id: string;
  emoji: string | null;
  /** epoch ms */
  timestamp: number;
  reaction_id: string;
  sender_name?: string | null;
}
export interface ParkedEdit {
  chat_id: string;
  body: string;
  at_ms: number;
  phone_id: string;
  from: ProtocolChange;
}
export interface ParkedDelete {
  chat_id: string;
  at_ms: number;
  phone_id: string;
  from: ProtocolChange;
}
export type ParkedChange = { kind: 'reaction'; sender_phone: string; reaction: ParkedReaction } | { kind: 'edit'; edit: ParkedEdit } | { kind: 'delete'; delete: ParkedDelete };

export interface ParkedItem {
  org_id: string;
  message_id: string;
  reactions?: Record<string, ParkedReaction>;
  edit?: ParkedEdit;
  delete?: ParkedDelete;
  version: number;
}

/** How long a parked change waits for its message: 7 days, as long as Meta retries a webhook. */
export const PARKED_TTL_S = 7 * 24 * 3600;

/**
 * Keep `change` until the message `targetWamid` is stored. Idempotent: a reaction older than the
 * sender's parked one, or an edit older than the parked edit, changes nothing.
 */
export async function parkChange(orgId: string, targetWamid: string, change: ParkedChange): Promise<void> {
  await retryOnConflict(`parked change for ${targetWamid}`, async () => {
    const key = { org_id: orgId, message_id: targetWamid };
    const cur = (await db().entities.parkedChange.get(key).go()).data as ParkedItem | null;
    const next: ParkedItem = { reactions: {}, ...(cur ?? {}), org_id: orgId, message_id: targetWamid, version: (cur?.version ?? 0) + 1 };
    if (change.kind === 'reaction') {
      const prev = next.reactions?.[change.sender_phone];
      if (prev && prev.timestamp >= change.reaction.timestamp) return 'same';
      next.reactions = { ...(next.reactions ?? {}), [change.sender_phone]: change.reaction };
    } else if (change.kind === 'edit') {
      if (next.edit && next.edit.at_ms >= change.edit.at_ms) return 'same';
      next.edit = change.edit;
    } else {
      if (next.delete) return 'same';
      next.delete = change.delete;
    }
    const put = db().entities.parkedChange.put({ ...next, expires_at: Math.floor(Date.now() / 1000) + PARKED_TTL_S } as never);
    // a lost race throws a conditional-check failure: retryOnConflict reads again
    await (cur ? put.where(({ version }, { eq }) => eq(version, cur.version)) : put.where(({ version }, { notExists }) => notExists(version))).go();
    log('info', 'ingest.change_parked', { org_id: orgId, target: targetWamid, kind: change.kind });
    return 'parked';
  });
}

/** The parked changes of these wamids (one BatchGet per 100), for the messages just stored. */
export async function parkedFor(orgId: string, wamids: readonly string[]): Promise<ParkedItem[]> {
  if (!wamids.length) return [];
  const res = await db()
    .entities.parkedChange.get(wamids.map((message_id) => ({ org_id: orgId, message_id })))
    .go({ concurrency: 4 });
  if (res.unprocessed.length) throw new Error(`parked changes: ${res.unprocessed.length} keys unprocessed`);
  return res.data as ParkedItem[];
}

/** Delete a replayed item, unless a change was parked on it meanwhile (then it is replayed next time). */
export async function dropParked(item: ParkedItem): Promise<void> {
  await db()
    .entities.parkedChange.delete({ org_id: item.org_id, message_id: item.message_id })
    .where(({ version }, { eq }) => eq(version, item.version))
    .go()
    .catch((e) => {
      if (!isConflictError(e)) throw e;
      log('info', 'ingest.parked_changed_meanwhile', { org_id: item.org_id, target: item.message_id });
    });
}

/**
 * Replay what was parked for messages just stored (`wamids`): reactions, then the newest edit, then
 * a delete, each through its usual use case (which checks the chat and the author again), then
 * drop the item. Idempotent: a crash before the drop replays again on the message's redelivery.
 */
export async function replayParked(orgId: string, wamids: readonly string[]): Promise<void> {
  for (const item of await parkedFor(orgId, wamids)) {
    for (const [sender_phone, r] of Object.entries(item.reactions ?? {})) {
      await applyInboundReaction(orgId, { chat_id: r.chat_id, target_message_id: item.message_id, emoji: r.emoji, sender_phone, timestamp: r.timestamp, reaction_id: r.reaction_id, sender_name: r.sender_name ?? null }, { park: false });
    }
    if (item.edit) await applyInboundEdit({ org_id: orgId, phone_id: item.edit.phone_id, chat_id: item.edit.chat_id, message_id: item.message_id, body: item.edit.body, at_ms: item.edit.at_ms, from: item.edit.from });
    if (item.delete) await applyInboundDelete({ org_id: orgId, phone_id: item.delete.phone_id, chat_id: item.delete.chat_id, message_id: item.message_id, at_ms: item.delete.at_ms, from: item.delete.from });
    log('info', 'ingest.parked_replayed', { org_id: orgId, target: item.message_id, reactions: Object.keys(item.reactions ?? {}).length, edit: !!item.edit, delete: !!item.delete });
    await dropParked(item);
  }
}
