/**
 * Per-chat access and phone masking (spec §6). Pure; used by the API (lists, reads, writes), the
 * realtime fan-out (events of a chat go only to members who may see it) and the web app.
 *
 * - `chat_access` is a map of member email -> boolean. Unset or empty: every member of the org
 *   may see the chat. Set: a member may see it only when their entry is `true`.
 * - Admins always see every chat: they are the ones who grant access (spec §6 'Admins pass all
 *   page gates'); the spec does not say otherwise.
 * - `mask_phone_numbers` (org preferences) hides customer numbers from non-admins.
 */

/** Who is looking: email and role in the chat's org. */
export interface Viewer {
  email: string;
  role: 'admin' | 'member';
}

/** Spec §6 title of a chat the member may not open. */
export const NO_CHAT_ACCESS_MESSAGE = 'You do not have access to this chat';

/** May `viewer` see the chat's content (name, messages, events)? */
export function canSeeChat(chat: { chat_access?: Record<string, boolean> | null }, viewer: Viewer): boolean {
  if (viewer.role === 'admin') return true;
  const access = chat.chat_access;
  if (!access || Object.keys(access).length === 0) return true;
  return access[viewer.email.toLowerCase()] === true || access[viewer.email] === true;
}

/** Must numbers be masked for this viewer? (spec §6: for non-admins when mask_phone_numbers is on) */
export const mustMask = (maskPhoneNumbers: boolean, viewer: Viewer): boolean => maskPhoneNumbers && viewer.role !== 'admin';

/**
 * Mask a phone number or WhatsApp id for display: keeps the country-code-ish first 2 digits and
 * the last 2, stars in between ('919876543210' -> '91********10'). A `@c.us` / `@g.us` suffix is kept.
 * Non-digit strings (names) are returned unchanged.
 */
export function maskPhone(value: string): string {
  const m = /^(\+?)(\d+)(@[a-z.]+)?$/.exec(value);
  if (!m) return value;
  const [, plus, digits, suffix = ''] = m;
  if (digits.length <= 4) return plus + '*'.repeat(digits.length) + suffix;
  return plus + digits.slice(0, 2) + '*'.repeat(digits.length - 4) + digits.slice(-2) + suffix;
}

/**
 * Mask who did something when that may be a customer: a bare number / WhatsApp id (maskPhone) or
 * 'whatsapp:<number>' (an edit or delete made on WhatsApp, message-edit.ts). Member emails and
 * 'system' are returned unchanged.
 */
export function maskIdentity(value: string): string {
  const m = /^whatsapp:(.*)$/.exec(value);
  return m ? `whatsapp:${maskPhone(m[1]!)}` : maskPhone(value);
}

/**
 * Mask every number written inside free text (7 or more digits, optionally with '+' and spaces or
 * dashes between groups): notification titles and bodies name an unnamed chat by its number.
 */
export function maskNumbersInText(text: string): string {
  return text.replace(/\+?\d[\d -]{5,}\d/g, (run) => {
    const digits = run.replace(/[ -]/g, '');
    return digits.replace(/^\+/, '').length >= 7 ? maskPhone(digits) : run;
  });
}

/** Org preferences the chat workflow reads (spec §3 org_metadata.preferences). */
export interface ChatPreferences {
  mask_phone_numbers?: boolean;
  member_permissions?: { chat_assignee?: boolean; analytics?: boolean; bulk_message?: boolean; rules?: boolean; contacts?: boolean };
}

/** Spec §6: non-admins may not change a chat's assignee when member_permissions.chat_assignee is false (unset = allowed). */
export const canChangeChatAssignee = (prefs: ChatPreferences | null | undefined, viewer: Viewer): boolean =>
  viewer.role === 'admin' || prefs?.member_permissions?.chat_assignee !== false;
