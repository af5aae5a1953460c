import { canSeeChat, maskIdentity, maskPhone, mustMask, type Viewer } from './chat-access.rules.ts';
import type { Chat } from './chat.schemas.ts';
import { toChatWire } from '../inbox/wire.ts';
import { maskGroupMetadata } from './group-metadata.rules.ts';
import { chatNumberOf, type CustomerIdentity } from '../contact/identity.rules.ts';
import type { Message } from '../message/message.schemas.ts';

/**
 * What one member is given of a chat or message (spec §6): nothing of a chat they may not see
 * (a stub with `has_access: false` so the list can show it dimmed), customer numbers masked for
 * non-admins when the org masks them, and their own pin / 'close for me'. Applied by every list,
 * read and realtime push, so no path hands out more than another.
 *
 * A 1:1 chat stored before 2026 is keyed by WhatsApp's `{number}@c.us`: for a masked viewer every
 * answer and socket frame carries it sealed (`cht__…`, shared/chat/chat-id-seal.ts, applied where all
 * answers pass), and the masked number rides in `identity.wa_id`.
 */

/** The viewer's own state of a chat (MemberChatState). Times epoch ms. */
export interface MemberState {
  pinned_at?: number | null;
  closed_for_me_at?: number | null;
  /** unique_id of the latest message when closed for me (isClosedFor) */
  closed_for_me_message?: string | null;
}

export interface ViewContext {
  viewer: Viewer;
  /** org preference mask_phone_numbers */
  maskPhoneNumbers: boolean;
  /** the viewer's own chat states by chat_id (absent: none) */
  states?: Map<string, MemberState>;
}

/** A chat (stored row or wire snapshot) for this viewer. */
export function viewChat(row: Record<string, unknown>, ctx: ViewContext): Chat {
  const c = toChatWire(row);
  if (!canSeeChat(c, ctx.viewer)) {
    return {
      org_id: c.org_id,
      chat_id: c.chat_id,
      chat_type: c.chat_type,
      org_phone: c.org_phone,
      phone_id: c.phone_id,
      latest_message_timestamp: c.latest_message_timestamp,
      inbox_state: c.inbox_state,
      has_access: false,
    };
  }
  // without the viewer's states (realtime pushes) the per-member fields are left out: clients keep theirs
  const st = ctx.states?.get(c.chat_id);
  const closedForMe = st?.closed_for_me_message != null && st.closed_for_me_message === (c.latest_message?.unique_id ?? '');
  const out: Chat = ctx.states ? { ...c, has_access: true, is_pinned: !!st?.pinned_at, closed_for_me_at: closedForMe ? (st?.closed_for_me_at ?? null) : null } : { ...c, has_access: true };
  if (!mustMask(ctx.maskPhoneNumbers, ctx.viewer)) return out;
  const masked = out.chat_type === 'user' ? maskNumberOf(out) : null;
  return {
    ...out,
    // a chat without a name would be shown by its number (from chat_id): give the masked one instead
    chat_name: out.chat_name ? maskPhone(out.chat_name) : out.chat_type === 'user' ? masked : out.chat_name,
    // the masked number rides in identity (the chat id itself is sealed for this viewer: shared/chat/chat-id-seal.ts)
    ...(masked ? { identity: { ...(out.identity ?? {}), wa_id: masked } } : {}),
    members: out.members
      ? Object.fromEntries(Object.entries(out.members).map(([k, v]) => [maskPhone(k), { contact_name: v.contact_name ? maskPhone(v.contact_name) : v.contact_name, contact_id: maskPhone(v.contact_id) }]))
      : out.members,
    latest_message: out.latest_message ? { ...out.latest_message, author: out.latest_message.author ? maskPhone(out.latest_message.author) : out.latest_message.author } : out.latest_message,
    // customers' numbers among the admins masked like senders (the menu compares the two); ours kept
    group_metadata: out.group_metadata ? maskGroupMetadata(out.group_metadata, [out.org_phone, ...(out.chat_org_phones ?? [])], maskPhone) : out.group_metadata,
  };
}

/** The masked number of a 1:1 chat, or null when WhatsApp has not shared it (issue 41: an opaque `cht_…` chat). */
function maskNumberOf(c: Chat): string | null {
  const n = chatNumberOf(c.chat_id, c.identity as CustomerIdentity | null | undefined);
  return n ? maskPhone(n) : null;
}

/**
 * A message for this viewer (the chat's access is checked by the caller, through the guard in
 * shared/access/guard.ts). Masked when the org masks numbers: sender_phone, author, the quoted
 * message's author, reactions (keys and `by`), `deleted_by` and `edit_history[].edited_by` when
 * they are 'whatsapp:<number>', a forwarded/private quote's author.
 */
export function viewMessage(m: Message, ctx: Pick<ViewContext, 'viewer' | 'maskPhoneNumbers'>): Message {
  if (!mustMask(ctx.maskPhoneNumbers, ctx.viewer)) return m;
  const q = m.quoted_message as { author?: string | null } | null | undefined;
  return {
    ...m,
    sender_phone: m.sender_phone ? maskPhone(m.sender_phone) : m.sender_phone,
    author: m.author ? maskPhone(m.author) : m.author,
    ...(q ? { quoted_message: { ...q, author: q.author ? maskPhone(q.author) : q.author } as Message['quoted_message'] } : {}),
    ...(m.reactions ? { reactions: Object.fromEntries(Object.entries(m.reactions).map(([k, v]) => [maskPhone(k), { ...v, by: v.by ? maskPhone(v.by) : v.by }])) } : {}),
    ...(m.deleted_by ? { deleted_by: maskIdentity(m.deleted_by) } : {}),
    ...(m.edit_history ? { edit_history: m.edit_history.map((e) => ({ ...e, edited_by: e.edited_by ? maskIdentity(e.edited_by) : e.edited_by })) } : {}),
  };
}
