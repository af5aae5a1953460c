import { z } from 'zod';
import { ConflictRetriesExhausted, RETRY, retryOnConflict } from '../db/retry.ts';
import { db } from '../db/service.ts';
import { AppError } from '../errors.ts';
import { log } from '../log.ts';
import { toChatWire, toMessageWire } from '../inbox/wire.ts';
import { getMessageItem, messageKey } from './message.ts';
import { MessageBody, type Message } from './message.schemas.ts';
import { deletePrivateNote } from './private-note.ts';
import { allow, chatUpdated, context, loadChat, patchMessage } from './message-actions.ts';
import { updateChatRow, type ChatRow } from '../chat/chat-write.ts';
import { sendWaWebCommand, type WaWebCommand, type WaWebCommandResult } from '../whatsapp/web/commands.ts';
import { editRefusal, isAuthor, revokeRefusal, type ProtocolChange } from '../whatsapp/web/protocol.rules.ts';
import type { Actor } from '../auth/actor.ts';
import { chatGuard } from '../access/guard.ts';
import type { Chat } from '../chat/chat.schemas.ts';

/**
 * Edit and delete for everyone (issue 5 items 3 and 4; spec §5 message actions, §8 delete words;
 * whatsapp-protocols.md B.9 and C). Only numbers whose connection can do it (capabilities: a linked
 * WhatsApp Web number, 'wa_web'; never the Cloud API) and only what the rules allow
 * (message-actions.rules.ts: edit own sent messages within 15 minutes, delete within 48 hours…).
 *
 * Our own edit or delete is written at once, marked `edit_status` / `delete_status: 'pending'`,
 * and handed to the number's session worker as a command (shared/whatsapp/web/commands.ts). The
 * worker reports back through `onEditResult` / `onDeleteResult`: confirmed ('sent'), or refused
 * ('failed': the edit is reverted to the previous body, the delete undone, with the reason on the
 * message so its author is told). Edits and deletes made on WhatsApp (the customer's, or ours from
 * the phone) arrive through `applyInboundEdit` / `applyInboundDelete`.
 *
 * Nothing is ever removed: an edit keeps the bodies before it in `edit_history`
 * ([{ body, edited_at, edited_by }], oldest first), a deleted message keeps its body for the team's
 * audit (`is_deleted`, `deleted_at`, `deleted_by`). Every change is published as `message.updated`
 * (and `chat.updated` when it is the chat's latest message), so open screens update live.
 * Times are epoch **ms**.
 *
 * Cloud API numbers: Meta sends a customer's edit as a new message of type `unsupported` with
 * `unsupported.type: "edit"` and no content and no reference to the edited message (Meta's
 * "Unsupported messages webhook reference": from, id, timestamp, errors, unsupported.type only), so
 * it cannot be matched to the message it changed: it stays stored as its own unsupported message.
 */

export const EditMessageInput = z.object({ body: MessageBody });

export interface EditEntry {
  /** the body the message had before this edit */
  body: string | null;
  /** epoch ms */
  edited_at: number;
  /** member email, or 'whatsapp:<number>' for edits made on WhatsApp */
  edited_by: string | null;
}

type MessageItem = Awaited<ReturnType<typeof getMessageItem>>;
const system = (orgId: string): Actor => ({ email: 'system', user_id: 'system', org_id: orgId, role: 'admin' });
const MEDIA_TYPES = new Set(['image', 'video', 'document']);
const busy = () => new AppError('message.busy', 'This message is changing right now. Please try again.', { status: 409 });

/** The text an edit replaces: the body (for media, also the caption, which is the same text). */
function withBody(m: MessageItem, body: string | null): Record<string, unknown> {
  const set: Record<string, unknown> = { body };
  if (MEDIA_TYPES.has(m.message_type) && m.media) set.media = { ...(m.media as Record<string, unknown>), caption: body };
  return set;
}

/**
 * Keep the chat row's preview (`latest_message`) in step when the changed message is the chat's
 * latest one, and publish `chat.updated` (changes ['latest_message']). Retried on a lost race.
 */
async function syncChatPreview(actor: Actor, m: MessageItem, change: { body?: string | null; is_deleted?: boolean }): Promise<void> {
  // through chat-write.ts (version check, retried on a lost race), its event in the same transaction
  await updateChatRow(
    m.org_id,
    m.chat_id,
    (chat) => {
      const latest = chat.latest_message as (Record<string, unknown> & { unique_id?: string }) | undefined;
      if (latest?.unique_id !== m.unique_id) return null;
      return { ...chat, latest_message: { ...latest, ...change } } as ChatRow;
    },
    undefined,
    (_b, after) => [chatUpdated(actor, toChatWire(after) as Chat, ['latest_message'])],
  ).catch((e) => {
    if (!(e instanceof ConflictRetriesExhausted)) throw e;
  });
}

/**
 * PATCH …/messages/{unique_id} `{ body }`: edit our own sent message (spec §5: own, sent, within
 * 15 minutes, not deleted, not a contact card; the number must be able to edit). The new body is
 * shown at once with `edit_status: 'pending'`; the previous one goes to `edit_history`.
 * The same body again changes nothing.
 * @throws AppError 400 message.edit_refused (the rule's reason, e.g. 'Messages can be edited only
 *   within 15 minutes.' or 'This number cannot edit sent messages.'), 404 chat/message,
 *   409 message.edit_pending while the previous edit is still on its way, 409 message.busy
 */
export async function editMessage(actor: Actor, chatId: string, uniqueId: string, body: string): Promise<Message> {
  return retryOnConflict(`message ${uniqueId} (edit)`, async () => {
    const { ctx, message } = await context(actor, chatId, uniqueId);
    allow(ctx, 'edit');
    const guard = await chatGuard(actor);
    if (message.body === body) return guard.viewMessage(toMessageWire(message));
    if (message.edit_status === 'pending') throw new AppError('message.edit_pending', 'The last edit of this message is still being sent. Please wait a moment.', { status: 409 });
    const now = Date.now();
    const edit_history: EditEntry[] = [...((message.edit_history as EditEntry[] | undefined) ?? []), { body: message.body ?? null, edited_at: now, edited_by: actor.email }];
    const set = { ...withBody(message, body), edit_history, edited_at: now, edit_status: 'pending' };
    // published (with the write) before the command is handed over, so a fast result can never be overtaken by this 'pending' snapshot
    const wire = await patchMessage(actor, message, set, ['edit_error']);
    if (!wire) return RETRY;
    await syncChatPreview(actor, message, { body });
    const cmd: WaWebCommand = { kind: 'edit', org_id: actor.org_id, phone_id: message.phone_id, chat_id: chatId, unique_id: uniqueId, message_id: message.message_id!, body, requested_by: actor.email, requested_at: now };
    try {
      await sendWaWebCommand(cmd);
    } catch (e) {
      log('error', 'message.edit_enqueue_failed', { org_id: actor.org_id, unique_id: uniqueId, error: String((e as Error).message) });
      await onEditResult(cmd, { ok: false, reason: 'The edit could not be handed to the number’s WhatsApp session.', retryable: true });
      throw new AppError('message.edit_unavailable', 'The edit could not be sent right now. Please try again.', { status: 503 });
    }
    return guard.viewMessage(wire);
  }, { attempts: 5, onExhausted: () => {
    throw busy();
  } });
}

/**
 * DELETE …/messages/{unique_id}: delete a message for everyone (spec §5: not older than 48 hours
 * — 'Cannot delete messages older than 48 hrs' —, not deleted, ack not negative; in groups only as
 * a group admin, for an admin's message or our own; the number must be able to delete). The team
 * keeps seeing it as deleted, with its body for the audit. A private note is deleted as a note
 * (its author only; shared/message/private-note.ts).
 * @throws AppError 400 message.delete_refused (the rule's reason), 404 chat/message, 409 message.busy
 */
export async function deleteMessage(actor: Actor, chatId: string, uniqueId: string): Promise<Message> {
  return retryOnConflict(`message ${uniqueId} (delete)`, async () => {
    const { ctx, message } = await context(actor, chatId, uniqueId);
    const guard = await chatGuard(actor);
    if (message.is_private_note) return guard.viewMessage(await deletePrivateNote(actor, chatId, uniqueId));
    allow(ctx, 'delete');
    const now = Date.now();
    const set = { is_deleted: true, deleted_at: now, deleted_by: actor.email, delete_status: 'pending' };
    // published (with the write) before the command is handed over (see editMessage)
    const wire = await patchMessage(actor, message, set, ['delete_error']);
    if (!wire) return RETRY;
    await syncChatPreview(actor, message, { is_deleted: true });
    const cmd: WaWebCommand = { kind: 'delete', org_id: actor.org_id, phone_id: message.phone_id, chat_id: chatId, unique_id: uniqueId, message_id: message.message_id!, requested_by: actor.email, requested_at: now };
    try {
      await sendWaWebCommand(cmd);
    } catch (e) {
      log('error', 'message.delete_enqueue_failed', { org_id: actor.org_id, unique_id: uniqueId, error: String((e as Error).message) });
      await onDeleteResult(cmd, { ok: false, reason: 'The delete could not be handed to the number’s WhatsApp session.', retryable: true });
      throw new AppError('message.delete_unavailable', 'Error while deleting message', { status: 503 });
    }
    return guard.viewMessage(wire);
  }, { attempts: 5, onExhausted: () => {
    throw busy();
  } });
}

/**
 * The session worker's result of an edit command. Confirmed: `edit_status: 'sent'`. Refused (every
 * `ok: false` reported here is final; the worker retries transient errors before reporting): the
 * edit is reverted — the body it replaced comes back from `edit_history`, `edited_at` goes back to
 * the edit before it (or away) — with `edit_status: 'failed'` and `edit_error: { body, reason, at }`
 * so the author's screen says so. Idempotent; a result for an edit that is no longer the pending
 * one (superseded, already settled, message gone) changes nothing.
 * @returns whether the message changed
 */
export async function onEditResult(cmd: Extract<WaWebCommand, { kind: 'edit' }>, result: WaWebCommandResult): Promise<boolean> {
  return retryOnConflict(`message ${cmd.unique_id} (settling its edit)`, async () => {
    const m = await getMessageItem(cmd.org_id, cmd.chat_id, cmd.unique_id).catch(() => null);
    if (!m || m.edit_status !== 'pending' || m.edited_at !== cmd.requested_at) return false;
    const actor = system(cmd.org_id);
    if (result.ok) {
      if (!(await patchMessage(actor, m, { edit_status: 'sent' }))) return RETRY;
      return true;
    }
    const history = [...((m.edit_history as EditEntry[] | undefined) ?? [])];
    const undone = history[history.length - 1]?.edited_at === cmd.requested_at ? history.pop() : undefined;
    const previous = history[history.length - 1];
    const body = undone ? undone.body : (m.body ?? null);
    const edit_error = { body: cmd.body, reason: result.reason, at: Date.now() };
    const set: Record<string, unknown> = { ...withBody(m, body), edit_history: history, edit_status: 'failed', edit_error };
    if (previous) set.edited_at = previous.edited_at;
    if (!(await patchMessage(actor, m, set, previous ? [] : ['edited_at']))) return RETRY;
    log('warn', 'message.edit_refused', { org_id: cmd.org_id, unique_id: cmd.unique_id, reason: result.reason });
    await syncChatPreview(actor, m, { body });
    return true;
  }, { attempts: 5 });
}

/**
 * The session worker's result of a delete command. Confirmed: `delete_status: 'sent'`. Refused:
 * the delete is undone (`is_deleted: false`, `deleted_at`/`deleted_by` removed) with
 * `delete_status: 'failed'` and `delete_error: { reason, at }` ('Error while deleting message' on
 * the author's screen). Idempotent like onEditResult.
 * @returns whether the message changed
 */
export async function onDeleteResult(cmd: Extract<WaWebCommand, { kind: 'delete' }>, result: WaWebCommandResult): Promise<boolean> {
  return retryOnConflict(`message ${cmd.unique_id} (settling its delete)`, async () => {
    const m = await getMessageItem(cmd.org_id, cmd.chat_id, cmd.unique_id).catch(() => null);
    if (!m || m.delete_status !== 'pending' || m.deleted_at !== cmd.requested_at) return false;
    const actor = system(cmd.org_id);
    if (result.ok) {
      if (!(await patchMessage(actor, m, { delete_status: 'sent' }))) return RETRY;
      return true;
    }
    const delete_error = { reason: result.reason, at: Date.now() };
    if (!(await patchMessage(actor, m, { is_deleted: false, delete_status: 'failed', delete_error }, ['deleted_at', 'deleted_by']))) return RETRY;
    log('warn', 'message.delete_refused', { org_id: cmd.org_id, unique_id: cmd.unique_id, reason: result.reason });
    await syncChatPreview(actor, m, { is_deleted: false });
    return true;
  }, { attempts: 5 });
}

/**
 * What an inbound edit or delete did: changed the message, had been applied already, was older than
 * what is shown, found no message, or was refused (from someone who may not make it, or naming a
 * message of another chat: whatsapp/web/protocol.rules.ts).
 */
export type InboundOutcome = 'applied' | 'duplicate' | 'stale' | 'unknown' | 'refused';

/**
 * The stored message with WhatsApp id `messageId` in the org, through its wa-message-ref item (one
 * GetItem each; never a scan). Undefined when the ref or the message is not there.
 */
async function byWamid(orgId: string, messageId: string): Promise<MessageItem | undefined> {
  const ref = (await db().entities.waMessageRef.get({ org_id: orgId, message_id: messageId }).go()).data;
  if (!ref?.chat_id || !ref.unique_id) return undefined;
  const key = ref.timestamp != null ? { org_id: orgId, chat_id: ref.chat_id, timestamp: ref.timestamp, unique_id: ref.unique_id } : messageKey(orgId, ref.chat_id, ref.unique_id);
  return key ? ((await db().entities.message.get(key).go()).data ?? undefined) : undefined;
}

/** Who changed a message on WhatsApp: 'whatsapp:<number>' (the customer's, or ours when edited from the phone). */
const onWhatsApp = (m: MessageItem) => `whatsapp:${(m.from_me ? m.org_phone : m.sender_phone) ?? 'unknown'}`;

/**
 * An edit made on WhatsApp (called by the session worker; whatsapp-protocols.md B.4 `messages.update`
 * with `editedMessage`, B.8 `message_edit`): the body becomes `body`, the one before goes to
 * `edit_history`, `edited_at` = `at_ms`. At-least-once safe: the same edit again is 'duplicate', an
 * edit older than the last one applied is 'stale'. Our own edit echoed back by WhatsApp is a
 * duplicate (the body is already the new one). `message_id` is WhatsApp's id of the edited message.
 * Applies only when `from` (the edit's chat and sender) is the message's author in the message's
 * chat (protocol.rules.ts editRefusal); otherwise 'refused' and nothing changes.
 */
export async function applyInboundEdit(e: { org_id: string; phone_id: string; chat_id: string; message_id: string; body: string; at_ms: number; from: ProtocolChange }): Promise<InboundOutcome> {
  return retryOnConflict(`message ${e.message_id} (applying an edit)`, async () => {
    const m = await byWamid(e.org_id, e.message_id);
    if (!m) {
      log('info', 'message.inbound_edit_unknown', { org_id: e.org_id, phone_id: e.phone_id, message_id: e.message_id });
      return 'unknown';
    }
    const refusal = editRefusal(m, e.from);
    if (refusal) {
      log('warn', 'message.inbound_edit_refused', { org_id: e.org_id, phone_id: e.phone_id, message_id: e.message_id, reason: refusal });
      return 'refused';
    }
    if ((m.body ?? '') === e.body) return 'duplicate';
    if (m.edited_at != null && e.at_ms < m.edited_at) return 'stale';
    const edit_history: EditEntry[] = [...((m.edit_history as EditEntry[] | undefined) ?? []), { body: m.body ?? null, edited_at: e.at_ms, edited_by: onWhatsApp(m) }];
    const set = { ...withBody(m, e.body), edit_history, edited_at: e.at_ms };
    const actor = system(e.org_id);
    if (!(await patchMessage(actor, m, set))) return RETRY;
    await syncChatPreview(actor, m, { body: e.body });
    return 'applied' as const;
  }, { attempts: 5 });
}

/**
 * A delete for everyone made on WhatsApp (called by the session worker; B.4 `REVOKE`, B.8
 * `message_revoke_everyone`): the message is marked deleted (`is_deleted`, `deleted_at` = `at_ms`,
 * `deleted_by` 'whatsapp:<number>') and never removed; its body stays for the team's audit.
 * Idempotent ('duplicate' when already deleted). Our own delete echoed back confirms it. Applies
 * only when `from` (the revoke's chat and sender) is the message's author, or a group admin kept on
 * the group chat, in the message's chat (protocol.rules.ts revokeRefusal); otherwise 'refused'.
 * `deleted_by` names who revoked it ('whatsapp:<number>').
 */
export async function applyInboundDelete(e: { org_id: string; phone_id: string; chat_id: string; message_id: string; at_ms: number; from: ProtocolChange }): Promise<InboundOutcome> {
  return retryOnConflict(`message ${e.message_id} (applying a delete)`, async () => {
    const m = await byWamid(e.org_id, e.message_id);
    if (!m) {
      log('info', 'message.inbound_delete_unknown', { org_id: e.org_id, phone_id: e.phone_id, message_id: e.message_id });
      return 'unknown';
    }
    // the chat (its group admins) is read only when someone else than the author revokes
    const refusal = revokeRefusal(m, e.from, isAuthor(m, e.from) ? undefined : await loadChat(e.org_id, m.chat_id));
    if (refusal) {
      log('warn', 'message.inbound_delete_refused', { org_id: e.org_id, phone_id: e.phone_id, message_id: e.message_id, reason: refusal });
      return 'refused';
    }
    if (m.is_deleted && m.delete_status !== 'pending') return 'duplicate';
    const set = m.is_deleted ? { delete_status: 'sent' } : { is_deleted: true, deleted_at: e.at_ms, deleted_by: `whatsapp:${e.from.sender}` };
    const actor = system(e.org_id);
    if (!(await patchMessage(actor, m, set))) return RETRY;
    if (!m.is_deleted) await syncChatPreview(actor, m, { is_deleted: true });
    return m.is_deleted ? ('duplicate' as const) : ('applied' as const);
  }, { attempts: 5 });
}

