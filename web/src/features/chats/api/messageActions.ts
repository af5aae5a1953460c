/**
 * Pure helpers of the message actions in the browser: the rule context of
 * shared/message/message-actions.rules.ts built from what the app knows (the message, its chat,
 * the signed-in member, the org's phones, the chat's tickets), reactions grouped for the bubble,
 * the optimistic reaction, the chat's live pins, the 'needs reply' count and whether a message
 * event shows that the chat snapshot we hold is stale (flags and pins live on both).
 */
import type { Chat } from '#shared/chat/chat.schemas.ts';
import type { Message } from '#shared/message/message.schemas.ts';
import type { Ticket } from '#shared/ticket/ticket.schemas.ts';
import type { ActionContext, MessageAction } from '#shared/message/message-actions.rules.ts';
import { messageMenu } from '#shared/message/message-actions.rules.ts';
import { capabilitiesOf } from '#shared/whatsapp/capabilities.ts';
import { groupAdminContext } from '#shared/chat/group-metadata.rules.ts';
import { authorName, chatDisplayName, formatPhone } from '../../../lib/format.ts';

/** Common emoji offered by the reaction picker (WhatsApp's quick row). */
export const QUICK_REACTIONS = ['👍', '❤️', '😂', '😮', '😢', '🙏'] as const;

export interface ActorInfo {
  email: string;
  role: 'admin' | 'member';
  /** the org's phones (GET /api/me); `connection_type` once the API sends it */
  phones: ReadonlyArray<{ phone_id: string; org_phone: string; connection_type?: string | null }>;
  /** org preference mask_phone_numbers (GET /api/me) */
  maskPhoneNumbers?: boolean;
}

/**
 * The rule context of a message in the browser. In a group, `group` comes from the chat's
 * `group_metadata` (admins' digits; for a member who sees numbers masked, customers' admins come
 * masked like `sender_phone`, our numbers as they are), so the menu offers Delete exactly when
 * the API allows it (spec §5).
 */
export function actionContext(m: Message, chat: Pick<Chat, 'chat_type' | 'group_metadata'> | null, actor: ActorInfo, chatTickets: ReadonlyArray<Pick<Ticket, 'status'>> | null, now = Date.now()): ActionContext {
  const phone = actor.phones.find((p) => p.phone_id === m.phone_id);
  const chatType = chat?.chat_type ?? (m.chat_id.endsWith('@g.us') ? 'group' : 'user');
  const group = chatType === 'group' ? groupAdminContext(chat?.group_metadata, phone?.org_phone ?? m.org_phone, m.sender_phone) : undefined;
  return {
    message: {
      unique_id: m.unique_id,
      message_id: m.message_id ?? null,
      from_me: m.from_me,
      ack: m.ack,
      timestamp: m.timestamp,
      message_type: m.message_type,
      is_deleted: m.is_deleted ?? null,
      is_private_note: m.is_private_note ?? null,
      sender_phone: m.sender_phone ?? null,
      author: m.author ?? null,
      flag_status: m.flag_status ?? null,
      pinned_until: m.pinned_until ?? null,
      message_ticket_id: m.message_ticket_id ?? null,
      media: m.media ? { media_id: m.media.media_id ?? null, path: m.media.path ?? null } : null,
    },
    chat: { chat_type: chatType },
    actor: { email: actor.email, role: actor.role },
    maskPhoneNumbers: actor.maskPhoneNumbers ?? false,
    capabilities: capabilitiesOf(phone?.connection_type ?? 'wa_cloud'),
    ownPhones: actor.phones.map((p) => p.org_phone),
    ...(group ? { group } : {}),
    chatTickets: chatTickets ?? [],
    now,
  };
}

/** The actions the rules allow on a message (a set, for the menu to pick from). */
export function allowedActions(ctx: ActionContext): Set<MessageAction> {
  return new Set(messageMenu(ctx).filter((a) => a.allowed).map((a) => a.action));
}

export interface ReactionGroup {
  emoji: string;
  count: number;
  /** who reacted, in words (customer name or number; the member's email for ours) */
  who: string[];
  /** one of them is ours (the chat's number) */
  mine: boolean;
  /** ours is still being sent */
  pending: boolean;
}

/** Reactions of a message grouped by emoji, in first-reacted order. `ours` is the chat's org_phone. */
export function groupReactions(m: Pick<Message, 'reactions'>, chat: Pick<Chat, 'chat_name' | 'chat_type' | 'chat_id' | 'members'> | null, ours: string | null | undefined): ReactionGroup[] {
  const entries = Object.entries(m.reactions ?? {})
    .filter(([, r]) => r && r.reaction)
    .sort(([, a], [, b]) => a.timestamp - b.timestamp);
  const groups = new Map<string, ReactionGroup>();
  for (const [sender, r] of entries) {
    const mine = !!ours && sender === ours;
    let who: string;
    if (mine) who = r.by ? `${r.by} (you)` : 'Your team';
    else if (chat && chat.chat_type !== 'group') {
      // the customer: their name, with the number when the reaction names one (issue 41: a user id is not shown)
      const name = chatDisplayName(chat);
      const num = /^\d+$/.test(sender) ? formatPhone(sender) : null;
      who = num && num !== name ? `${name} (${num})` : name;
    } else who = chat ? authorName(chat, { author: sender, sender_phone: sender }) : formatPhone(sender);
    const g = groups.get(r.reaction) ?? { emoji: r.reaction, count: 0, who: [], mine: false, pending: false };
    g.count += 1;
    g.who.push(who);
    g.mine ||= mine;
    g.pending ||= mine && r.ack === 0;
    groups.set(r.reaction, g);
  }
  return [...groups.values()];
}

/** Our current reaction on a message ('' when none). */
export const ourReaction = (m: Pick<Message, 'reactions'>, ours: string | null | undefined): string => (ours ? (m.reactions?.[ours]?.reaction ?? '') : '');

/** The message with our reaction set ('' removes it), as the server will store it (ack 0 = sending). */
export function withOurReaction(m: Message, ours: string, reaction: string, by: string, at: number): Message {
  const reactions = { ...(m.reactions ?? {}) };
  if (reaction) reactions[ours] = { reaction, timestamp: at, by, ack: 0 };
  else delete reactions[ours];
  return { ...m, reactions };
}

/** The message with our reaction put back to what it was before an action. */
export function withReactionRestored(m: Message, ours: string, previous: NonNullable<Message['reactions']>[string] | null): Message {
  const reactions = { ...(m.reactions ?? {}) };
  if (previous) reactions[ours] = previous;
  else delete reactions[ours];
  return { ...m, reactions };
}

export interface PinnedEntry {
  unique_id: string;
  body: string;
  expires_at: number;
  pinned_by: string;
  pinned_at: number;
}

/** The chat's pins that have not expired, newest pin first. */
export function livePins(chat: Pick<Chat, 'pinned_messages'> | null, now = Date.now()): PinnedEntry[] {
  return Object.entries(chat?.pinned_messages ?? {})
    .filter(([, p]) => p && p.expires_at > now)
    .map(([unique_id, p]) => ({ unique_id, body: p.body ?? '', expires_at: p.expires_at, pinned_by: p.pinned_by, pinned_at: p.pinned_at }))
    .sort((a, b) => b.pinned_at - a.pinned_at);
}

/** Flagged messages in the chat still waiting for a reply (all numbers). */
export const needsReplyCount = (chat: Pick<Chat, 'flag_count_map'>): number => Object.values(chat.flag_count_map ?? {}).reduce((a, n) => a + (n > 0 ? n : 0), 0);

/**
 * Does this message snapshot disagree with the chat snapshot about its flag or pin? The server
 * changes the chat (flag_count_map, pinned_messages) with the message but only publishes the
 * message, so a disagreement means the chat we hold is stale and should be fetched again.
 */
export function chatIsStaleFor(chat: Pick<Chat, 'flagged_messages' | 'pinned_messages'>, m: Pick<Message, 'unique_id' | 'flag_status' | 'pinned_until'>, now = Date.now()): boolean {
  const flagged = m.flag_status === true;
  const listedFlag = !!chat.flagged_messages?.[m.unique_id];
  const pinned = m.pinned_until != null && m.pinned_until > now;
  const pin = chat.pinned_messages?.[m.unique_id];
  const listedPin = !!pin && pin.expires_at > now;
  return flagged !== listedFlag || pinned !== listedPin;
}

/** 'in 23 hours' style remaining time of a pin. */
export function pinRemaining(expiresAt: number, now = Date.now()): string {
  const ms = expiresAt - now;
  const h = Math.round(ms / 3_600_000);
  if (h < 1) return 'less than an hour left';
  if (h < 48) return `${h} hour${h === 1 ? '' : 's'} left`;
  const d = Math.round(h / 24);
  return `${d} days left`;
}

/** Bytes in words ('1.2 MB'). */
export function fileSize(bytes: number | null | undefined): string {
  if (bytes == null) return '';
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(bytes < 10 * 1024 ? 1 : 0)} KB`;
  return `${(bytes / 1024 / 1024).toFixed(1)} MB`;
}
