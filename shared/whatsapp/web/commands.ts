import { createHash } from 'node:crypto';
import { enqueue } from '../../ports/commands.ts';

/**
 * Contract between the inbox and the session worker of a linked WhatsApp Web number
 * (connection_type 'wa_web', whatsapp-protocols.md §B.11 and §C). A Lambda cannot hold the
 * number's socket, so the API and consumers hand work to the worker that owns the number's
 * session as commands (one ordered queue per number: SQS FIFO with MessageGroupId = phone_id in
 * AWS), and the worker reports each result back through the functions named below.
 *
 * Ids: `unique_id` is our id of the message (ULID); `message_id` is WhatsApp's id of it
 * (Baileys `key.id`), known once the message was sent. Times are epoch **ms**.
 *
 * Who implements what:
 * - `sendWaWebCommand` and the worker that consumes the commands: the WhatsApp Web connector
 *   (shared/whatsapp/web/*, the session worker).
 * - What an edit or delete result or an inbound edit/delete does to the stored message:
 *   shared/message/message-edit.ts (`onEditResult`, `onDeleteResult`, `applyInboundEdit`,
 *   `applyInboundDelete`), which the worker calls.
 */
export type WaWebCommand =
  /** send a stored outbound message (the worker reads it by org_id/chat_id/unique_id) */
  | { kind: 'send'; org_id: string; phone_id: string; chat_id: string; unique_id: string }
  /** edit our own sent text message to `body` (spec §5: within 15 minutes; checked before enqueueing and again by the worker) */
  | { kind: 'edit'; org_id: string; phone_id: string; chat_id: string; unique_id: string; message_id: string; body: string; requested_by: string; requested_at: number }
  /** delete a message for everyone (spec §5: within 48 hours) */
  | { kind: 'delete'; org_id: string; phone_id: string; chat_id: string; unique_id: string; message_id: string; requested_by: string; requested_at: number }
  /**
   * react to a message; null removes our reaction. `at` (epoch ms, when the member reacted) and
   * `previous` (what was there before, restored if WhatsApp refuses) come from the reaction flow
   * (message-actions.ts ReactionCommand).
   */
  | { kind: 'react'; org_id: string; phone_id: string; chat_id: string; unique_id: string; message_id: string; reaction: string | null; at?: number; previous?: { reaction: string; timestamp: number; by?: string | null; ack?: number | null } | null }
  /**
   * download the file of a received media message that is stored now (the wa-web-inbound consumer
   * sends it after storing the message): only the session can download it. `raw` is the Baileys
   * `{ key, message }` of the message as BufferJSON text (inbound-queue.ts mediaRawOf).
   */
  | { kind: 'download-media'; org_id: string; phone_id: string; chat_id: string; message_id: string; raw: string }
  /** read the group's metadata (subject, admins) through the session and keep it on the chat (sent when it is missing or older than an hour) */
  | { kind: 'group-metadata'; org_id: string; phone_id: string; chat_id: string }
  /**
   * create a WhatsApp group from a group template (issue 15 item 6; shared/group-template):
   * `participants` are person jids (`<digits>@s.whatsapp.net`), `picture_path` a blob key (JPEG/PNG).
   * The worker records the outcome on the GroupRequest `request_id` (group-template.ts).
   */
  | { kind: 'create-group'; org_id: string; phone_id: string; request_id: string; subject: string; description: string; participants: string[]; only_admins_send: boolean; only_admins_edit_info: boolean; picture_path?: string };

export type WaWebCommandKind = WaWebCommand['kind'];

/** What the worker reports after trying a command. `reason` is in words a person understands. */
export type WaWebCommandResult = { ok: true; at_ms: number } | { ok: false; reason: string; retryable: boolean };

/**
 * Hand a command to the session worker that owns the number: the 'wa-web-commands' queue
 * (events/catalog.ts WORKER_QUEUES; SQS FIFO in AWS) with MessageGroupId = phone_id, so one number's
 * commands run in order, and a deduplication id per command (a retried enqueue of the same command
 * within SQS's 5-minute window is dropped). Resolves once the queue has accepted it.
 */
export async function sendWaWebCommand(cmd: WaWebCommand): Promise<void> {
  await enqueue('wa-web-commands', cmd, { groupId: cmd.phone_id, dedupeId: commandDedupeId(cmd) });
}

/** A stable id of one command (FIFO deduplication): its kind, message and the request's own fields. */
export function commandDedupeId(cmd: WaWebCommand): string {
  const h = createHash('sha256').update(JSON.stringify(cmd)).digest('hex').slice(0, 40);
  const id = 'unique_id' in cmd ? cmd.unique_id : 'message_id' in cmd ? cmd.message_id : 'request_id' in cmd ? cmd.request_id : cmd.chat_id;
  // FIFO deduplication ids allow alphanumerics and !"#$%&'()*+,-./:;<=>?@[\]^_`{|}~ only
  return `${cmd.kind}-${id}-${h}`.replace(/[^\w!-/:-@[-`{-~]/g, '_').slice(0, 128);
}
