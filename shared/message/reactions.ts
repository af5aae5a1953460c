import { db } from '../db/service.ts';
import { commitWithEvents, type TxItem } from '../db/transaction.ts';
import { toMessageWire } from '../inbox/wire.ts';
import { nextAck, statusToAck } from './ack.rules.ts';
import { getMessageItem, messageKey } from './message.ts';
import { log } from '../log.ts';
import { reactionRefusal } from '../whatsapp/web/protocol.rules.ts';
import type { Actor } from '../auth/actor.ts';
import { chatGuard } from '../access/guard.ts';
import { withCursor } from '../db/paging.ts';
import type { ReactionEntry, ReactionsQuery, ReactionsResponse } from './reaction.schemas.ts';
import { isConflictError, RETRY, retryOnConflict } from '../db/retry.ts';
import { parkChange, replayParked } from '../inbox/parked.ts';

/**
 * Reactions as rows (spec §3 Reaction; shared/message/reaction.entity.ts) kept in step with the
 * message's `reactions` map: every change writes both in one transaction under the message's
 * optimistic `version`, so the thread's summary and the 'who reacted' list never disagree.
 * Times epoch **ms**.
 */

/** One sender's entry in a message's `reactions` map (ours also carry `by` and `ack`). */
export interface ReactionMapEntry {
  reaction: string;
  timestamp: number;
  by?: string | null;
  ack?: number | null;
}
export type ReactionMap = Record<string, ReactionMapEntry>;

/** What a message item must have for a reaction write. */
export interface ReactedMessage {
  org_id: string;
  chat_id: string;
  unique_id: string;
  timestamp: number;
  version: number;
  org_phone: string;
  message_id?: string | null;
  reactions?: unknown;
}

/** Row fields that are not in the map entry. */
export interface ReactionRowExtra {
  from_me: boolean;
  /** the customer's profile name (inbound) */
  sender_name?: string | null;
  /** the reaction's own wamid, when known */
  reaction_id?: string | null;
}

/**
 * Set (`entry`) or remove (null) one sender's reaction on a message: the map and the Reaction row
 * in one transaction, conditioned on the message's version.
 * @param opts.set / opts.remove further message attributes to set or remove in the same write
 * @param opts.actor who made the change (`system`, `user:<email>`): the transaction also holds the
 *   message's `message.updated` (the new snapshot; the outbox), published once it commits
 * @param opts.announce a reaction a customer or a member made (not an ack or a revert): the same
 *   transaction also holds `message.reaction` (issue 17: the rules' 'a reaction is received' trigger)
 * @returns the message's new `reactions` map, or null when another write won (re-read and retry)
 */
export async function writeReaction(
  msg: ReactedMessage,
  senderId: string,
  entry: ReactionMapEntry | null,
  extra: ReactionRowExtra,
  opts: { set?: Record<string, unknown>; remove?: string[]; actor?: string; announce?: boolean } = {},
): Promise<ReactionMap | null> {
  const reactions: ReactionMap = { ...((msg.reactions as ReactionMap | undefined) ?? {}) };
  if (entry) reactions[senderId] = entry;
  else delete reactions[senderId];
  const key = { org_id: msg.org_id, chat_id: msg.chat_id, timestamp: msg.timestamp, unique_id: msg.unique_id };
  const rowKey = { org_id: msg.org_id, chat_id: msg.chat_id, unique_id: msg.unique_id, sender_id: senderId };
  const snapshot = { ...msg, ...(opts.set ?? {}), ...Object.fromEntries((opts.remove ?? []).map((k) => [k, null])), reactions, version: msg.version + 1 };
  const ok = await commitWithEvents(({ message: me, reaction: re }) => {
    let patch = me.patch(key).set({ ...(opts.set ?? {}), reactions, version: msg.version + 1 } as never);
    if (opts.remove?.length) patch = patch.remove(opts.remove as never) as typeof patch;
    const wire = toMessageWire(snapshot);
    const actor = opts.actor ?? 'system';
    return {
      events: [
        ...(opts.actor ? [{ name: 'message.updated' as const, properties: { org_id: msg.org_id, chat_id: msg.chat_id, message: wire }, actor }] : []),
        ...(opts.announce
          ? [{ name: 'message.reaction' as const, properties: { org_id: msg.org_id, chat_id: msg.chat_id, message: wire, reaction: { sender_id: senderId, emoji: entry?.reaction || null, from_me: extra.from_me, timestamp: entry?.timestamp ?? Date.now() } }, actor }]
          : []),
      ],
      items: [
        patch.where(({ version }, { eq }) => eq(version, msg.version)).commit() as TxItem,
        entry
          ? re
              .put({
                ...rowKey,
                reaction: entry.reaction,
                timestamp: entry.timestamp,
                org_phone: msg.org_phone,
                from_me: extra.from_me,
                ack: entry.ack ?? 0,
                read: false,
                ...(msg.message_id ? { message_id: msg.message_id } : {}),
                ...(entry.by ? { by: entry.by } : {}),
                ...(extra.sender_name ? { sender_name: extra.sender_name } : {}),
                ...(extra.reaction_id ? { reaction_id: extra.reaction_id } : {}),
              })
              .commit() as TxItem
          : (re.delete(rowKey).commit() as TxItem),
      ],
    };
  });
  return ok ? reactions : null;
}

/**
 * An inbound reaction (webhook, add or remove; whatsapp-protocols.md A.6) on the message it
 * targets: the sender's map entry and Reaction row set or removed together, with `message.reaction` (issue 17). A reaction whose
 * target has not arrived yet is parked and replayed when it is stored (shared/inbox/parked.ts;
 * `opts.park` false: drop it instead, for the replay itself). An older reaction event arriving after a newer one is ignored; one naming a message of
 * another chat than its own (`r.chat_id`) is dropped. Idempotent: a reaction already on the message
 * (same emoji and timestamp), or a removal with nothing to remove, writes and publishes nothing, so
 * a replay can apply it again safely. Once decided (applied, ignored or refused; not parked), the
 * reaction's own ref loses `reaction_pending`, so a redelivered webhook applies it again only if
 * a crash came between storing and deciding it. Publishes `message.updated`.
 * @param r.chat_id the chat the reaction was sent in; r.sender_phone its sender (the stanza's, never the payload's)
 * @param r.target_message_id the reacted wamid; r.emoji null or '' = removed
 */
export async function applyInboundReaction(
  orgId: string,
  r: { chat_id: string; target_message_id: string; emoji: string | null; sender_phone: string; timestamp: number; reaction_id: string; sender_name?: string | null },
  opts: { park?: boolean } = {},
): Promise<void> {
  const ref = (await db().entities.waMessageRef.get({ org_id: orgId, message_id: r.target_message_id }).go()).data;
  if (!ref?.chat_id || !ref.unique_id || ref.timestamp == null) {
    if (opts.park === false) return;
    // the target has not arrived yet: the reaction waits for it (issue 23 item 2, shared/inbox/parked.ts)
    await parkChange(orgId, r.target_message_id, { kind: 'reaction', sender_phone: r.sender_phone, reaction: { chat_id: r.chat_id, emoji: r.emoji || null, timestamp: r.timestamp, reaction_id: r.reaction_id, sender_name: r.sender_name ?? null } });
    // stored meanwhile by another writer (no per-chat order between two runtimes): replay now
    const now = (await db().entities.waMessageRef.get({ org_id: orgId, message_id: r.target_message_id }).go()).data;
    if (now?.chat_id) await replayParked(orgId, [r.target_message_id]);
    return;
  }
  // a reaction counts only on a message of the chat it was sent in (whatsapp/web/protocol.rules.ts):
  // WhatsApp ids are chosen by the sending client, so the id alone does not place the target
  if (reactionRefusal({ chat_id: ref.chat_id }, r)) {
    log('warn', 'reaction.other_chat', { org_id: orgId, target: r.target_message_id, chat_id: r.chat_id });
  } else {
    await applyToTarget(orgId, { chat_id: ref.chat_id, timestamp: ref.timestamp, unique_id: ref.unique_id }, r);
  }
  // decided: a redelivery of this reaction's webhook no longer applies it (reaction_pending)
  await db()
    .entities.waMessageRef.patch({ org_id: orgId, message_id: r.reaction_id })
    .remove(['reaction_pending'])
    .go({ response: 'none' })
    .catch((e: unknown) => {
      if (!isConflictError(e)) throw e; // no ref (a reaction never stored as a row): nothing to settle
    });
}

/** The reaction on its target message (applyInboundReaction, once the target is placed). */
async function applyToTarget(orgId: string, ref: { chat_id: string; timestamp: number; unique_id: string }, r: Parameters<typeof applyInboundReaction>[1]): Promise<void> {
  const key = { org_id: orgId, chat_id: ref.chat_id, timestamp: ref.timestamp, unique_id: ref.unique_id };
  await retryOnConflict(`message ${ref.unique_id} (reaction ${r.reaction_id})`, async () => {
    const msg = (await db().entities.message.get(key).go()).data;
    if (!msg) return;
    const prev = (msg.reactions as ReactionMap | undefined)?.[r.sender_phone];
    if (prev && prev.timestamp > r.timestamp) return; // an older reaction event arrived late
    const entry = r.emoji ? { reaction: r.emoji, timestamp: r.timestamp } : null;
    // already applied (a redelivery after a crash, or a replay): no second write, no second event
    if (entry ? prev?.timestamp === entry.timestamp && prev.reaction === entry.reaction : !prev) return;
    const reactions = await writeReaction(msg, r.sender_phone, entry, { from_me: false, sender_name: r.sender_name, reaction_id: r.reaction_id }, { actor: 'system', announce: true });
    if (!reactions) return RETRY;
  });
}

const STATUS_ORDER = ['sent', 'delivered', 'read', 'played', 'failed'] as const;

/**
 * Statuses recorded on the wamid ref of one of our reactions (`reaction_of`) moved onto its
 * Reaction row and the map entry (monotonic, ack.rules.ts). A reaction replaced since (its row
 * now has another `reaction_id`, or none) is left alone. Publishes `message.updated` on a change.
 * @param ref the ref item: { message_id, reaction_of: { chat_id, unique_id, sender_id }, status_<name> }
 */
export async function applyReactionStatuses(orgId: string, ref: Record<string, unknown>): Promise<void> {
  const of = ref.reaction_of as { chat_id: string; unique_id: string; sender_id: string } | undefined;
  const key = of ? messageKey(orgId, of.chat_id, of.unique_id) : undefined;
  if (!of || !key) return;
  // a reaction that kept changing is left as it is: its next status applies the order again
  await retryOnConflict(`message ${of.unique_id} (reaction statuses)`, async () => {
    const [row, msg] = await Promise.all([
      db().entities.reaction.get({ org_id: orgId, chat_id: of.chat_id, unique_id: of.unique_id, sender_id: of.sender_id }).go().then((r) => r.data),
      db().entities.message.get(key).go().then((r) => r.data),
    ]);
    if (!row || !msg || row.reaction_id !== ref.message_id) return;
    let ack = row.ack;
    for (const s of STATUS_ORDER) {
      const incoming = ref[`status_${s}`] ? statusToAck(s) : undefined;
      if (incoming != null) ack = nextAck(ack, incoming);
    }
    if (ack === row.ack) return;
    const reactions: ReactionMap = { ...((msg.reactions as ReactionMap | undefined) ?? {}) };
    const mine = reactions[of.sender_id];
    if (mine && mine.timestamp === row.timestamp) reactions[of.sender_id] = { ...mine, ack };
    const ok = await commitWithEvents(({ message: me, reaction: re }) => ({
      items: [
        me.patch(key).set({ reactions, version: msg.version + 1 }).where(({ version }, { eq }) => eq(version, msg.version)).commit() as TxItem,
        re
          .patch({ org_id: orgId, chat_id: of.chat_id, unique_id: of.unique_id, sender_id: of.sender_id })
          .set({ ack })
          .where(({ reaction_id }, { eq }) => eq(reaction_id, ref.message_id as string))
          .commit() as TxItem,
      ],
      events: [{ name: 'message.updated', properties: { org_id: orgId, chat_id: of.chat_id, message: toMessageWire({ ...msg, reactions, version: msg.version + 1 }) }, actor: 'system' }],
    }));
    if (!ok) return RETRY;
  }, { onExhausted: () => undefined });
}

/**
 * GET …/messages/{unique_id}/reactions: who reacted to a message, one page of its Reaction rows
 * (one Query, ACCESS_PATTERNS.md 47) in sender order. Names: the customer's profile name (or the
 * chat's member name), the member's email for ours; numbers masked for members when the org
 * masks them (spec §6).
 * Access and masking through the guard (shared/access/guard.ts).
 * @throws AppError 404 message.not_found when the message is not in the actor's org; 403 chat.no_access; 400 query.cursor
 */
export async function listReactions(actor: Actor, chatId: string, uniqueId: string, q: ReactionsQuery): Promise<ReactionsResponse> {
  const guard = await chatGuard(actor);
  const [chat] = await Promise.all([guard.requireChat(chatId), getMessageItem(actor.org_id, chatId, uniqueId)]);
  const page = await withCursor(q.cursor, () => db().entities.reaction.query.byMessage({ org_id: actor.org_id, chat_id: chatId, unique_id: uniqueId }).go({ limit: q.limit, cursor: q.cursor ?? null }));
  const members = (chat.members as Record<string, { contact_name?: string }> | undefined) ?? {};
  const reactions: ReactionEntry[] = page.data.map((r) => {
    const name = r.from_me ? (r.by ?? null) : (r.sender_name ?? members[r.sender_id]?.contact_name ?? null);
    return {
      sender_id: guard.mask(r.sender_id),
      name: r.from_me ? name : guard.mask(name),
      reaction: r.reaction,
      timestamp: r.timestamp,
      from_me: r.from_me,
      ack: r.ack,
    };
  });
  return { reactions, cursor: page.cursor ?? null };
}
