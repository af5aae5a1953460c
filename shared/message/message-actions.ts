import { z } from 'zod';
import { RETRY, retryOnConflict } from '../db/retry.ts';
import { db } from '../db/service.ts';
import { AppError } from '../errors.ts';
import type { PublishInput } from '../../events/publish.ts';
import { commitWithEvents, type TxItem } from '../db/transaction.ts';
import { updateChatRow } from '../chat/chat-write.ts';
import { enqueue } from '../ports/commands.ts';
import { toChatWire, toMessageWire } from '../inbox/wire.ts';
import { applyStatuses } from '../inbox/statuses.ts';
import { retrySend, sendMessage } from '../inbox/send.ts';
import { getMessageItem } from './message.ts';
import { capabilitiesOf } from '../whatsapp/capabilities.ts';
import { phoneAccessToken } from '../phone/phone.ts';
import { sendToGraph, GraphApiError } from '../whatsapp/cloud/graph-client.ts';
import { reactionMessageBody } from '../whatsapp/cloud/reaction-body.ts';
import { identityOf, NO_SEND_TARGET, sendTargetOf, type SendTarget } from '../chat/send-target.rules.ts';
import { MESSAGE_ACTIONS, type ActionContext, type MessageAction } from './message-actions.rules.ts';
import { groupAdminContext, type GroupMetadata } from '../chat/group-metadata.rules.ts';
import { log } from '../log.ts';
import { forwardPlan } from './forward.rules.ts';
import type { StoredMedia } from '../media/media.ts';
import { applyReactionStatuses, writeReaction, type ReactionMap } from './reactions.ts';
import type { Actor } from '../auth/actor.ts';
import { chatGuard } from '../access/guard.ts';
import type { Chat } from '../chat/chat.schemas.ts';
import type { Message } from './message.schemas.ts';

/**
 * Message actions (issue 5; spec §5 rules, §7 message calls, §8 words): react, flag, pin, refresh,
 * forward. Every call builds the rule context from the table and asks
 * message-actions.rules.ts, so the API refuses exactly what the menu hides. Each change is
 * written with the message's (or chat's) optimistic `version` and published as `message.updated`
 * (and `chat.updated`-style snapshots through `message.updated` consumers). What is answered
 * passes the access guard's view (shared/access/guard.ts: masking); events carry the full wire
 * shape and are masked per recipient by the realtime fan-out. Times epoch **ms**.
 */

type MessageItem = Awaited<ReturnType<typeof getMessageItem>>;

/** Pin durations (issue 5: 24 hours, 7 days, 30 days). */
export const PIN_DURATIONS = { '24h': 24 * 3_600_000, '7d': 7 * 24 * 3_600_000, '30d': 30 * 24 * 3_600_000 } as const;

export const ReactionInput = z.object({
  /** one emoji; '' removes our reaction */
  reaction: z.string({ required_error: 'is required' }).max(32, 'must be one emoji'),
});
export const FlagInput = z.object({ flag_status: z.union([z.boolean(), z.null()], { errorMap: () => ({ message: 'must be true, false or null' }) }) });
export const PinInput = z.object({
  pin: z.boolean({ required_error: 'is required', invalid_type_error: 'must be true or false' }),
  duration: z.enum(['24h', '7d', '30d'], { errorMap: () => ({ message: 'must be 24h, 7d or 30d' }) }).default('7d'),
});
export const ForwardInput = z.object({
  chat_ids: z.array(z.string().min(1).max(200, 'is too long')).min(1, 'pick at least one chat').max(5, 'must be at most 5 chats'),
});

/** The rule context of one message for `actor` (spec §5 rules, §6 masking, the number's capabilities, a group's admins from `Chat.group_metadata`). @throws AppError 404 chat/message; 403 chat.no_access (the guard) */
export async function context(actor: Actor, chatId: string, uniqueId: string): Promise<{ ctx: ActionContext; message: MessageItem; chat: NonNullable<Awaited<ReturnType<typeof loadChat>>> }> {
  const [message, chat, org, phones] = await Promise.all([
    getMessageItem(actor.org_id, chatId, uniqueId),
    chatGuard(actor).then((g) => g.requireChat(chatId)),
    db().entities.organization.get({ org_id: actor.org_id }).go().then((r) => r.data),
    db().entities.phone.query.byOrg({ org_id: actor.org_id }).go({ pages: 'all' }).then((r) => r.data),
  ]);
  const phone = phones.find((p) => p.phone_id === message.phone_id);
  const prefs = (org?.org_metadata as { preferences?: { mask_phone_numbers?: boolean } } | undefined)?.preferences;
  const ctx: ActionContext = {
    message: { ...message, flag_status: message.flag_status ?? null, pinned_until: message.pinned_until ?? null, media: message.media as ActionContext['message']['media'] },
    chat: { chat_type: chat.chat_type },
    actor: { email: actor.email, role: actor.role },
    maskPhoneNumbers: !!prefs?.mask_phone_numbers,
    capabilities: capabilitiesOf(phone?.connection_type),
    ownPhones: phones.map((p) => p.org_phone),
    // spec §5 delete in groups: from the group's admins kept on the chat (group-metadata.rules.ts)
    ...(chat.chat_type === 'group' ? { group: groupAdminContext(chat.group_metadata as GroupMetadata | undefined, phone?.org_phone ?? message.org_phone, message.sender_phone) } : {}),
    chatTickets: [],
    now: Date.now(),
  };
  return { ctx, message, chat };
}

export const loadChat = (orgId: string, chatId: string) => db().entities.chat.get({ org_id: orgId, chat_id: chatId }).go().then((r) => r.data);

/** A spec §5 rule's refusal of an action on the message named by the path: 400 with `{ field: 'params.unique_id', reason }`. */
export const refusedOn = (code: string, reason: string) => new AppError(code, reason, { status: 400, details: [{ field: 'params.unique_id', reason }] });

/** @throws AppError 400 `message.<action>_refused` with the rule's reason (details on params.unique_id) */
export function allow(ctx: ActionContext, action: MessageAction): void {
  const r = MESSAGE_ACTIONS[action](ctx);
  if (!r.allowed) throw refusedOn(`message.${action}_refused`, r.reason ?? 'This action is not allowed on this message.');
}

export const keyOf = (m: MessageItem) => ({ org_id: m.org_id, chat_id: m.chat_id, timestamp: m.timestamp, unique_id: m.unique_id });

/** The `message.updated` event of a message snapshot (its wire shape). */
export function messageUpdated(actor: Actor, m: Record<string, unknown>): PublishInput {
  const wire = toMessageWire(m);
  return { name: 'message.updated', properties: { org_id: actor.org_id, chat_id: wire.chat_id, message: wire }, actor: actorName(actor) };
}

/** The `chat.updated` event of a chat snapshot. */
export function chatUpdated(actor: Actor, chat: Chat, changes: string[]): PublishInput {
  return { name: 'chat.updated', properties: { org_id: actor.org_id, chat, changes }, actor: actorName(actor) };
}

const actorName = (actor: Actor) => (actor.email === 'system' ? 'system' : `user:${actor.email}`);

/**
 * Patch a message under its version, with its `message.updated` (the new snapshot: `set` over
 * the stored item, `remove`d attributes null, version + 1) in the same transaction (the outbox).
 * Retried by the caller on a lost race.
 * @returns the message's new wire shape, or null when another write won
 */
export async function patchMessage(actor: Actor, m: MessageItem, set: Record<string, unknown>, remove: string[] = []): Promise<Message | null> {
  const next = { ...m, ...set, ...Object.fromEntries(remove.map((k) => [k, null])), version: m.version + 1 };
  const ok = await commitWithEvents((e) => {
    let q = e.message.patch(keyOf(m)).set({ ...set, version: m.version + 1 } as never);
    if (remove.length) q = q.remove(remove as never) as typeof q;
    return { items: [q.where(({ version }, { eq }) => eq(version, m.version)).commit() as TxItem], events: [messageUpdated(actor, next)] };
  });
  return ok ? toMessageWire(next) : null;
}

/** Outbound reaction command on the whatsapp-outbound queue (kind 'reaction'). */
export interface ReactionCommand {
  kind: 'reaction';
  org_id: string;
  chat_id: string;
  unique_id: string;
  /** what we set ('' = removed) and what was there before (restored if WhatsApp refuses) */
  reaction: string;
  previous: { reaction: string; timestamp: number; by?: string | null; ack?: number | null } | null;
  /** epoch ms of this reaction (a newer one supersedes it) */
  at: number;
}

/**
 * POST …/messages/{unique_id}/reaction: our reaction (one per number, WhatsApp's rule), shown at
 * once (ack 0) and sent through the outbound queue; if WhatsApp refuses it, the reaction is put
 * back as it was and `reaction_error` tells the UI ('Failed to send reaction!', spec §8).
 * The message's `reactions` map and our Reaction row (keyed by the chat's number) are written in
 * one transaction (shared/message/reactions.ts).
 * @throws AppError 400 message.react_refused (spec §5 / capabilities), 404 chat/message
 */
export async function reactToMessage(actor: Actor, chatId: string, uniqueId: string, reaction: string): Promise<Message> {
  return retryOnConflict(`message ${uniqueId} (reaction)`, async () => {
    const { ctx, message, chat } = await context(actor, chatId, uniqueId);
    allow(ctx, 'react');
    const key = chat.org_phone;
    const previous = ((message.reactions as ReactionMap | undefined) ?? {})[key] ?? null;
    const at = Date.now();
    const entry = reaction ? { reaction, timestamp: at, by: actor.email, ack: 0 } : null;
    const reactions = await writeReaction(message, key, entry, { from_me: true }, { remove: ['reaction_error'], actor: `user:${actor.email}`, announce: true });
    if (!reactions) return RETRY;
    const cmd: ReactionCommand = { kind: 'reaction', org_id: actor.org_id, chat_id: chatId, unique_id: uniqueId, reaction, previous, at };
    await enqueue('whatsapp-outbound', cmd);
    return (await chatGuard(actor)).viewMessage(toMessageWire({ ...message, reactions, reaction_error: null, version: message.version + 1 }));
  }, { attempts: 5, onExhausted: () => {
    throw new AppError('message.busy', 'This message is changing right now. Please try again.', { status: 409 });
  } });
}

/**
 * How a reaction reaches WhatsApp when it is not the Graph API: the WhatsApp Web session worker
 * passes its connector here (shared/whatsapp/web/session-worker.ts). Refusals must be thrown as
 * GraphApiError (its `reason` and `retryable` are what this flow reads).
 */
export type ReactionSender = (message: MessageItem) => Promise<{ wamid: string }>;

/**
 * whatsapp-outbound consumer, kind 'reaction': send it through the Graph API; on success mark it
 * sent (ack 1) with its wamid on our Reaction row, and keep a wamid ref (`reaction_of`) so the
 * status webhooks move its ack further (delivered, read); on a refusal (or the last attempt of a
 * retryable error) restore the previous reaction and record `reaction_error`. A reaction
 * superseded by a newer one is not sent.
 * @throws GraphApiError when retryable and attempts remain
 */
export async function deliverReaction(cmd: ReactionCommand, attempt: number, maxAttempts: number, send?: ReactionSender): Promise<void> {
  const message = await getMessageItem(cmd.org_id, cmd.chat_id, cmd.unique_id).catch(() => null);
  const chat = await loadChat(cmd.org_id, cmd.chat_id);
  if (!message || !chat || !message.message_id) return;
  const sender = chat.org_phone;
  const mine = () => (message.reactions as ReactionMap | undefined)?.[sender];
  if (cmd.reaction && mine()?.timestamp !== cmd.at) return; // superseded
  try {
    const { wamid } = send ? await send(message) : await sendToGraph(message.phone_id, reactionMessageBody(graphTargetOf(cmd.chat_id, chat), message.message_id, cmd.reaction), await phoneAccessToken(message.phone_id));
    if (!cmd.reaction) return;
    for (let i = 0; i < 5; i++) {
      const m = await getMessageItem(cmd.org_id, cmd.chat_id, cmd.unique_id);
      const current = (m.reactions as ReactionMap | undefined)?.[sender];
      if (current?.timestamp !== cmd.at) return;
      const reactions = await writeReaction(m, sender, { ...current, ack: Math.max(1, current.ack ?? 0) }, { from_me: true, reaction_id: wamid }, { actor: 'system' });
      if (!reactions) continue;
      // statuses of the reaction's wamid (they may have beaten us here) move its ack from now on
      const ref = await db()
        .entities.waMessageRef.update({ org_id: cmd.org_id, message_id: wamid })
        .set({ reaction_of: { chat_id: cmd.chat_id, unique_id: cmd.unique_id, sender_id: sender }, expires_at: Math.floor(Date.now() / 1000) + 30 * 24 * 3600 })
        .go({ response: 'all_new' });
      await applyReactionStatuses(cmd.org_id, ref.data as Record<string, unknown>);
      return;
    }
  } catch (e) {
    if (!(e instanceof GraphApiError)) throw e;
    if (e.retryable && attempt < maxAttempts) throw e;
    log('warn', 'reaction.refused', { org_id: cmd.org_id, unique_id: cmd.unique_id, code: e.code });
    for (let i = 0; i < 5; i++) {
      const m = await getMessageItem(cmd.org_id, cmd.chat_id, cmd.unique_id);
      const current = (m.reactions as ReactionMap | undefined)?.[sender];
      if (cmd.reaction && current?.timestamp !== cmd.at) return; // superseded meanwhile
      const reaction_error = { reaction: cmd.reaction, reason: e.reason, at: Date.now() };
      const reactions = await writeReaction(m, sender, cmd.previous ?? null, { from_me: true }, { set: { reaction_error }, actor: 'system' });
      if (reactions) return;
    }
  }
}

/**
 * The Graph target of a reaction from the chat row already read (its `identity` names a customer
 * known only by BSUID, issue 41).
 * @throws GraphApiError (not retryable) when the chat names no number and no BSUID: the refusal path
 *   restores the previous reaction and shows why
 */
function graphTargetOf(chatId: string, chat: object): SendTarget {
  const target = sendTargetOf(chatId, identityOf(chat));
  if (!target) throw new GraphApiError(null, null, 'The chat has no phone number and no WhatsApp user id.', NO_SEND_TARGET, false, 0);
  return target;
}

/**
 * PUT …/flag (spec §7 flag update; §4 true / false / null). Flagging marks the chat as needing a
 * reply on that number (`flag_count_map`, `flagged_messages`) until a member answers
 * (answerFlags, on message.sent); false = answered, null = no flag.
 * @throws AppError 400 message.flag_refused / unflag / remove_flag per the rules
 */
export async function setMessageFlag(actor: Actor, chatId: string, uniqueId: string, flag: boolean | null): Promise<{ message: Message; chat: Chat }> {
  return retryOnConflict(`message ${uniqueId} (flag)`, async () => {
    const { ctx, message, chat } = await context(actor, chatId, uniqueId);
    allow(ctx, flag === true ? 'flag' : flag === false ? 'unflag' : 'remove_flag');
    const now = Date.now();
    const meta = (message.flag_metadata as Record<string, unknown> | undefined) ?? {};
    const flag_metadata = flag === true ? { status: true, flagged_by: actor.email, flagged_at: now, responded_by: null, responded_at: null } : flag === false ? { ...meta, status: false, responded_by: actor.email, responded_at: now } : { status: null };
    const flagged = { ...((chat.flagged_messages as Record<string, string>) ?? {}) };
    if (flag === true) flagged[uniqueId] = message.org_phone;
    else delete flagged[uniqueId];
    const flag_count_map = countFlags(flagged);
    const nextMessage = { ...message, flag_status: flag, flag_metadata, version: message.version + 1 };
    const chatWire = toChatWire({ ...chat, flagged_messages: flagged, flag_count_map, version: chat.version + 1 });
    // the message, the chat and both events in one transaction (the outbox)
    const ok = await commitWithEvents(({ message: m, chat: c }) => ({
      items: [
        (flag === null
          ? m.patch(keyOf(message)).set({ flag_metadata, version: message.version + 1 }).remove(['flag_status'])
          : m.patch(keyOf(message)).set({ flag_status: flag, flag_metadata, version: message.version + 1 })
        )
          .where(({ version }, { eq }) => eq(version, message.version))
          .commit() as TxItem,
        c
          .patch({ org_id: actor.org_id, chat_id: chatId })
          .set({ flagged_messages: flagged, flag_count_map, version: chat.version + 1 })
          .where(({ version }, { eq }) => eq(version, chat.version))
          .commit() as TxItem,
      ],
      events: [messageUpdated(actor, nextMessage), chatUpdated(actor, chatWire, ['flag_count_map', 'flagged_messages'])],
    }));
    if (!ok) return RETRY;
    const wire = toMessageWire(nextMessage);
    const guard = await chatGuard(actor);
    return { message: guard.viewMessage(wire), chat: guard.viewChat(chatWire) };
  }, { attempts: 5, onExhausted: () => {
    throw new AppError('message.busy', 'This message is changing right now. Please try again.', { status: 409 });
  } });
}

const countFlags = (flagged: Record<string, string>) => Object.values(flagged).reduce<Record<string, number>>((acc, phone) => ({ ...acc, [phone]: (acc[phone] ?? 0) + 1 }), {});

/**
 * Could a team message answer a flag? Not a private note, and the chat as the send stored it
 * (`sentWith`, the event's chat snapshot) holds a flag on the message's org number. Pure.
 */
export function flagWaitingFor(answer: { org_phone: string; is_private_note?: boolean | null }, sentWith: { flagged_messages?: Record<string, string> | null }): boolean {
  return !answer.is_private_note && Object.values(sentWith.flagged_messages ?? {}).includes(answer.org_phone);
}

/**
 * A member answered on a number (flag-responses consumer, on message.sent): every message
 * flagged on that number in the chat becomes answered (flag_status false, responded_by/at).
 * Idempotent: nothing flagged, nothing done.
 * @param sentWith the chat row as the send stored it (message.sent's `chat`, written in the same
 *   transaction as the message): when it holds no flag on that number, no flag was waiting when
 *   the answer went out, so nothing is read (issue 16: a broadcast's messages cost a chat read each here)
 */
export async function answerFlags(orgId: string, chatId: string, answer: { org_phone: string; author?: string | null; timestamp: number; is_private_note?: boolean | null }, sentWith?: { flagged_messages?: Record<string, string> | null }): Promise<number> {
  if (answer.is_private_note || (sentWith && !flagWaitingFor(answer, sentWith))) return 0;
  const system: Actor = { email: 'system', user_id: 'system', org_id: orgId, role: 'admin' };
  let answered: string[] = [];
  // the chat through chat-write.ts (version check, retried on a lost race), its event in the same transaction
  const res = await updateChatRow(
    orgId,
    chatId,
    (chat) => {
      const flagged = { ...((chat.flagged_messages as Record<string, string>) ?? {}) };
      answered = Object.entries(flagged).filter(([, phone]) => phone === answer.org_phone).map(([id]) => id);
      if (!answered.length) return null;
      for (const id of answered) delete flagged[id];
      return { ...chat, flagged_messages: flagged, flag_count_map: countFlags(flagged) };
    },
    undefined,
    (_b, after) => [chatUpdated(system, toChatWire(after), ['flag_count_map', 'flagged_messages'])],
  );
  if (!res || res.after === res.before) return 0;
  for (const id of answered) {
    await retryOnConflict(`message ${id} (answered)`, async () => {
      const m = await getMessageItem(orgId, chatId, id).catch(() => null);
      if (!m || m.flag_status !== true) return;
      const flag_metadata = { ...((m.flag_metadata as Record<string, unknown>) ?? {}), status: false, responded_by: answer.author ?? null, responded_at: answer.timestamp };
      if (!(await patchMessage(system, m, { flag_status: false, flag_metadata }))) return RETRY;
    }, { attempts: 5 });
  }
  return answered.length;
}

/**
 * PUT …/pin (spec §7 pin/unpin; §3 Pinned message expires_at): pinned for 24 hours, 7 days or
 * 30 days; listed on the chat (`pinned_messages`) so the thread shows them on top until they
 * expire. Expired pins are dropped on the next pin write.
 */
export async function setMessagePin(actor: Actor, chatId: string, uniqueId: string, pin: boolean, duration: keyof typeof PIN_DURATIONS): Promise<{ message: Message; chat: Chat }> {
  return retryOnConflict(`message ${uniqueId} (pin)`, async () => {
    const { ctx, message, chat } = await context(actor, chatId, uniqueId);
    allow(ctx, pin ? 'pin' : 'unpin');
    const now = Date.now();
    const pins = Object.fromEntries(Object.entries((chat.pinned_messages as Record<string, { expires_at: number }>) ?? {}).filter(([, p]) => p.expires_at > now));
    const expires_at = now + PIN_DURATIONS[duration];
    if (pin) pins[uniqueId] = { expires_at, pinned_by: actor.email, pinned_at: now, body: (message.body ?? '').slice(0, 200) } as never;
    else delete pins[uniqueId];
    const nextMessage = { ...message, pinned_until: pin ? expires_at : null, version: message.version + 1 };
    const chatWire = toChatWire({ ...chat, pinned_messages: pins, version: chat.version + 1 });
    const ok = await commitWithEvents(({ message: m, chat: c }) => ({
      items: [
        (pin ? m.patch(keyOf(message)).set({ pinned_until: expires_at, version: message.version + 1 }) : m.patch(keyOf(message)).set({ version: message.version + 1 }).remove(['pinned_until']))
          .where(({ version }, { eq }) => eq(version, message.version))
          .commit() as TxItem,
        c
          .patch({ org_id: actor.org_id, chat_id: chatId })
          .set({ pinned_messages: pins, version: chat.version + 1 })
          .where(({ version }, { eq }) => eq(version, chat.version))
          .commit() as TxItem,
      ],
      events: [messageUpdated(actor, nextMessage), chatUpdated(actor, chatWire, ['pinned_messages'])],
    }));
    if (!ok) return RETRY;
    const wire = toMessageWire(nextMessage);
    const guard = await chatGuard(actor);
    return { message: guard.viewMessage(wire), chat: guard.viewChat(chatWire) };
  }, { attempts: 5, onExhausted: () => {
    throw new AppError('message.busy', 'This message is changing right now. Please try again.', { status: 409 });
  } });
}

/**
 * POST …/refresh (spec §7 refresh message: returns delivery_info): applies any statuses that
 * arrived for the message's wamid but were not applied yet, then returns the message.
 */
export async function refreshMessage(actor: Actor, chatId: string, uniqueId: string): Promise<Message> {
  const { ctx, message } = await context(actor, chatId, uniqueId);
  allow(ctx, 'refresh');
  if (message.message_id) {
    const ref = (await db().entities.waMessageRef.get({ org_id: actor.org_id, message_id: message.message_id }).go()).data;
    if (ref) await applyStatuses(actor.org_id, ref as Record<string, unknown>);
  }
  return (await chatGuard(actor)).viewMessage(toMessageWire(await getMessageItem(actor.org_id, chatId, uniqueId)));
}

/**
 * POST …/retry (issue 23 item 4): send again one of our messages that WhatsApp refused or whose
 * send is uncertain ("may not have been sent"); the chat goes through the access guard first.
 * @returns the message, pending again, through the guard's masking
 * @throws AppError 404 chat/message; 403 chat.no_access; 400 message.retry_refused; 409 message.changed
 */
export async function retryMessage(actor: Actor, chatId: string, uniqueId: string): Promise<Message> {
  const { message } = await context(actor, chatId, uniqueId);
  const next = await retrySend(actor.org_id, chatId, toMessageWire(message));
  return (await chatGuard(actor)).viewMessage(next);
}

/** A chat a forward did not reach, and why (in words an agent understands). */
export interface ForwardFailure {
  chat_id: string;
  reason: string;
}

/**
 * POST …/forward: a copy of the message sent as a new message, marked `forwarded`, to each chosen
 * chat of the org (spec §5: not private notes or polls). Text goes as text; media is re-sent from
 * its stored file with its caption (forward.rules.ts: our upload's Meta media id is reused on the
 * same number while it is valid, otherwise the outbound consumer uploads the file again for the
 * target number). Each chat is tried on its own: one whose send is refused (e.g. it is busy, or the
 * file cannot go through its number) is reported in `failed`, the others are still sent.
 * @returns the new messages (in the order of `chatIds`) and the chats that failed
 * @throws AppError 400 message.forward_refused (the rules, or nothing about it can be sent); 404 the message, or a chat not in the org; 403 chat.no_access for a target the actor may not see
 */
export async function forwardMessage(actor: Actor, chatId: string, uniqueId: string, chatIds: string[]): Promise<{ messages: Message[]; failed: ForwardFailure[] }> {
  const { ctx, message } = await context(actor, chatId, uniqueId);
  allow(ctx, 'forward');
  const src = { message_type: message.message_type, body: message.body, from_me: message.from_me, media: message.media as StoredMedia | undefined };
  // refused for any number (type, file state): refuse the call itself, with the reason
  const probe = forwardPlan(src, '', Date.now());
  if (probe.kind === 'refused') throw refusedOn('message.forward_refused', probe.reason);
  const targets = [...new Set(chatIds)];
  const guard = await chatGuard(actor);
  // every target through the guard before anything is sent: a chat not in the org is a 404, one
  // the actor may not see a 403 (spec §6), and nothing is sent to any of them
  const chats = await Promise.all(targets.map((id) => guard.requireChat(id)));
  const messages: Message[] = [];
  const failed: ForwardFailure[] = [];
  for (const [i, target] of targets.entries()) {
    const chat = chats[i]!;
    const plan = forwardPlan(src, chat.phone_id, Date.now());
    try {
      if (plan.kind === 'refused') throw new AppError('message.forward_refused', plan.reason, { status: 400 });
      const sent =
        plan.kind === 'text'
          ? await sendMessage(actor, target, { body: plan.body }, { forwarded: 'forwarded' })
          : await sendMessage(actor, target, {}, { forwarded: 'forwarded', prepared: { message_type: plan.message_type, media: plan.media } });
      messages.push(guard.viewMessage(sent));
    } catch (e) {
      if (!(e instanceof AppError)) throw e;
      log('info', 'message.forward_failed', { org_id: actor.org_id, chat_id: target, code: e.code });
      failed.push({ chat_id: target, reason: e.message });
    }
  }
  return { messages, failed };
}
