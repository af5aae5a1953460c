import { db } from '../../db/service.ts';
import { toChatWire } from '../../inbox/wire.ts';
import { groupMetadataOf, groupMetadataStale, type BaileysParticipant, type GroupMetadata } from '../../chat/group-metadata.rules.ts';
import { updateChatRow } from '../../chat/chat-write.ts';

/**
 * Keep a group chat's `group_metadata` (subject, admins) as WhatsApp has it, read through the
 * number's session (Baileys `groupMetadata(jid)`), for the spec §5 delete rule. The session worker
 * calls this for a 'group-metadata' command (commands.ts), which the wa-web-inbound consumer sends
 * after storing a group message when the chat's metadata is missing or older than an hour.
 */
export type GroupMetadataOutcome = 'stored' | 'fresh' | 'no_chat';

/**
 * Read the group's metadata through `fetch` and store it on the chat through updateChatRow
 * (chat-write.ts: the chat's `version` checked, a lost race re-read and retried), with
 * `chat.updated` (changes ['group_metadata']) in the same transaction. A chat without a name takes the subject.
 * Metadata read later than this one (`fetched_at`, epoch ms) that is already stored is left as it is.
 * @returns 'fresh' when the stored metadata is younger than an hour (nothing read), 'no_chat' when the chat is not stored
 * @throws the transport's error (the command is retried) and infrastructure errors
 */
export async function refreshGroupMetadata(orgId: string, chatId: string, fetch: () => Promise<{ subject?: string | null; participants?: BaileysParticipant[] | null; isCommunity?: boolean | null }>, now: number): Promise<GroupMetadataOutcome> {
  const first = (await db().entities.chat.get({ org_id: orgId, chat_id: chatId }).go()).data;
  if (!first) return 'no_chat';
  if (!groupMetadataStale(first.group_metadata as GroupMetadata | undefined, now)) return 'fresh';
  const gm = groupMetadataOf(await fetch(), now);
  // through chat-write.ts (version check, retried on a race) with its event in the same transaction
  const res = await updateChatRow(
    orgId,
    chatId,
    // a newer read stored meanwhile (another refresh that fetched later) is kept: the newest fetch wins, whatever order the writes land in
    (chat) => (((chat.group_metadata as GroupMetadata | undefined)?.fetched_at ?? 0) > gm.fetched_at ? null : { ...chat, group_metadata: gm, ...(!chat.chat_name && gm.subject ? { chat_name: gm.subject } : {}) }),
    undefined,
    (before, after) => [{ name: 'chat.updated', properties: { org_id: orgId, chat: toChatWire(after), changes: ['group_metadata', ...(after.chat_name !== before.chat_name ? ['chat_name'] : [])] }, actor: 'system' }],
  );
  return res ? 'stored' : 'no_chat';
}
