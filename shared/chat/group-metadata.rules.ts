/**
 * Group metadata kept on a group chat (`Chat.group_metadata`), for the delete rule of spec §5
 * ('Delete: … in groups only if the phone is a group admin, the sender is admin, or the message is
 * own'). Pure: the shape, when it is stale, how a Baileys `groupMetadata` answer becomes it, what
 * the rule context needs of it, and what a masked member is given of it. Times are epoch **ms**.
 */

/** What a group chat stores about its group. */
export interface GroupMetadata {
  /** the group's name on WhatsApp */
  subject?: string | null;
  /** digits of the participants that are admins or the super admin (the creator) */
  admins: string[];
  /** the group is a community (its announcement group) */
  is_community?: boolean | null;
  /** epoch ms when it was read from WhatsApp */
  fetched_at: number;
}

/** Group metadata older than this is read again when the group's next message arrives. */
export const GROUP_METADATA_MAX_AGE_MS = 60 * 60_000;

/** Does the chat need its group metadata (re)read: missing, or older than an hour at `now`? */
export function groupMetadataStale(gm: Pick<GroupMetadata, 'fetched_at'> | null | undefined, now: number): boolean {
  return !gm || typeof gm.fetched_at !== 'number' || now - gm.fetched_at > GROUP_METADATA_MAX_AGE_MS;
}

/** A participant as Baileys' `groupMetadata(jid)` hands it over (v6: `id` is the phone jid; v7 may give a LID `id` with `phoneNumber`). */
export interface BaileysParticipant {
  id: string;
  admin?: string | null;
  phoneNumber?: string | null;
  jid?: string | null;
}

/** The digits of a jid (`15551234567:3@s.whatsapp.net` -> `15551234567`). */
const digitsOf = (jid: string): string => jid.split('@')[0]!.split(':')[0]!;

/**
 * Baileys `GroupMetadata` (`subject`, `participants[{ id, admin: 'admin' | 'superadmin' | null }]`,
 * `isCommunity`) as stored on the chat at `now`. A LID participant counts by its phone number when
 * Baileys gives one (`phoneNumber` / `jid`), else by the LID's digits (it then matches no sender).
 */
export function groupMetadataOf(meta: { subject?: string | null; participants?: BaileysParticipant[] | null; isCommunity?: boolean | null }, now: number): GroupMetadata {
  const admins = new Set<string>();
  for (const p of meta.participants ?? []) {
    if (p?.admin !== 'admin' && p?.admin !== 'superadmin') continue;
    const pn = p.id.endsWith('@lid') ? (p.phoneNumber ?? p.jid ?? p.id) : p.id;
    const d = digitsOf(pn);
    if (/^\d+$/.test(d)) admins.add(d);
  }
  return { subject: meta.subject ?? null, admins: [...admins].sort(), ...(meta.isCommunity ? { is_community: true } : {}), fetched_at: now };
}

/**
 * The `group` field of the message rule context (message-actions.rules.ts canDelete).
 * @param orgPhone digits of the number the message is on (the one that would delete it)
 * @param senderPhone digits of the message's sender (masked the same way as `gm.admins` for a masked viewer)
 * @returns undefined when the group's metadata is unknown (then only our own messages can be deleted)
 */
export function groupAdminContext(gm: GroupMetadata | null | undefined, orgPhone: string | null | undefined, senderPhone: string | null | undefined): { phoneIsAdmin: boolean; senderIsAdmin: boolean } | undefined {
  if (!gm || !Array.isArray(gm.admins)) return undefined;
  return { phoneIsAdmin: !!orgPhone && gm.admins.includes(orgPhone), senderIsAdmin: !!senderPhone && gm.admins.includes(senderPhone) };
}

/**
 * Group metadata for a member who sees numbers masked (spec §6): customers' numbers among the
 * admins are masked with `mask` (the one masking of senders, so the menu can still compare a
 * masked sender with them); the org's own numbers (`ownNumbers`, the chat's `chat_org_phones`)
 * stay as they are (they are not customers' and the menu needs them exactly).
 */
export function maskGroupMetadata(gm: GroupMetadata, ownNumbers: readonly string[], mask: (digits: string) => string): GroupMetadata {
  return { ...gm, admins: gm.admins.map((a) => (ownNumbers.includes(a) ? a : mask(a))) };
}
