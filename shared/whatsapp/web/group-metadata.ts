import { db } from '../../db/service.ts';
import { publish } from '../../../events/publish.ts';
import { toChatWire } from '../../inbox/wire.ts';
import { groupMetadataOf, groupMetadataStale, type BaileysParticipant, type GroupMetadata } from '../../chat/group-metadata.rules.ts';
import { retryOnConflict } from '../../db/retry.ts';

/**
 * Keep a group chat's `group_metadata` (subject, admins) as WhatsApp has it, read through the
 * number's session (Baileys `groupMetadata(jid)`), for the spec §5 delete rule. The session worker
 * calls this for a 'group-metadata' command (commands.ts), which the wa-web-inbound consumer sends
 * after storing a group message when the chat's metadata is missing or older than an hour.
 */
export type GroupMetadataOutcome = 'stored' | 'fresh' | 'no_chat';

/**
 * Read the group's metadata through `fetch` and store it on the chat (a patch under the chat's
 * `version`, so a concurrent whole-row write of the chat retries instead of dropping it), then
 * publish `chat.updated` (changes ['group_metadata']). A chat without a name takes the subject.
 * @returns 'fresh' when the stored metadata is younger than an hour (nothing read), 'no_chat' when the chat is not stored
 * @throws the transport's error (the command is retried) and infrastructure errors
 */
export async function refreshGroupMetadata(orgId: string, chatId: string, fetch: () => Promise<{ subject?: string | null; participants?: BaileysParticipant[] | null; isCommunity?: boolean | null }>, now: number): Promise<GroupMetadataOutcome> {
  const first = (await db().entities.chat.get({ org_id: orgId, chat_id: chatId }).go()).data;
  if (!first) return 'no_chat';
  if (!groupMetadataStale(first.group_metadata as GroupMetadata | undefined, now)) return 'fresh';
  const gm = groupMetadataOf(await fetch(), now);
  return retryOnConflict(`chat ${chatId} (group metadata)`, async (attempt): Promise<GroupMetadataOutcome> => {
    const chat = attempt === 0 ? first : (await db().entities.chat.get({ org_id: orgId, chat_id: chatId }).go()).data;
    if (!chat) return 'no_chat';
    const v = chat.version;
    const set = { group_metadata: gm, ...(!chat.chat_name && gm.subject ? { chat_name: gm.subject } : {}), version: v + 1 };
    await db().entities.chat.patch({ org_id: orgId, chat_id: chatId }).set(set).where(({ version }, { eq }) => eq(version, v)).go();
    await publish('chat.updated', { org_id: orgId, chat: toChatWire({ ...chat, ...set }), changes: ['group_metadata', ...('chat_name' in set ? ['chat_name'] : [])] }, { actor: 'system' });
    return 'stored';
  });
}
