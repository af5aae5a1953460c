import { db } from '../../db/service.ts';
import { getMessageItem } from '../../message/message.ts';
import type { OutboundCommand } from '../../inbox/send.ts';
import type { ReactionCommand } from '../../message/message-actions.ts';
import { sendWaWebCommand } from './commands.ts';

const TYPE_TTL_MS = 30_000;
const typeCache = new Map<string, { at: number; type: string | undefined }>();

/** A phone's connection type, cached 30 s per process (it is set when the phone is added and never changes). */
async function connectionType(orgId: string, phoneId: string): Promise<string | undefined> {
  const k = `${orgId}|${phoneId}`;
  const hit = typeCache.get(k);
  if (hit && Date.now() - hit.at < TYPE_TTL_MS) return hit.type;
  const type = (await db().entities.phone.get({ org_id: orgId, phone_id: phoneId }).go()).data?.connection_type;
  typeCache.set(k, { at: Date.now(), type });
  return type;
}

/**
 * Outbound dispatch by connection type (architecture.md §6: the inbox speaks the normalized model,
 * the number's connector does the sending). The whatsapp-outbound consumer asks this first: a
 * message or reaction of a linked WhatsApp Web number ('wa_web') cannot go through the Graph API,
 * so it is handed to the session worker that holds the number as a `send` / `react` command.
 * @param loaded the command's message when the caller read it already (null: gone), so it is read once
 * @returns true when handed over (the caller does nothing more), false for Cloud API numbers
 */
export async function handOverToWaWeb(cmd: OutboundCommand | ReactionCommand, loaded?: Awaited<ReturnType<typeof getMessageItem>> | null): Promise<boolean> {
  const message = loaded !== undefined ? loaded : await getMessageItem(cmd.org_id, cmd.chat_id, cmd.unique_id).catch(() => null);
  if (!message) return false;
  if ((await connectionType(cmd.org_id, message.phone_id)) !== 'wa_web') return false;
  const base = { org_id: cmd.org_id, phone_id: message.phone_id, chat_id: cmd.chat_id, unique_id: cmd.unique_id };
  if ('kind' in cmd && cmd.kind === 'reaction') {
    // nothing to react to before WhatsApp knows the message (the Cloud path drops these too)
    if (!message.message_id) return true;
    await sendWaWebCommand({ kind: 'react', ...base, message_id: message.message_id, reaction: cmd.reaction || null, at: cmd.at, previous: cmd.previous });
    return true;
  }
  if (message.message_id || message.ack === -1) return true; // already sent or failed: at-least-once redelivery
  await sendWaWebCommand({ kind: 'send', ...base });
  return true;
}
