import type { CustomerIdentity } from '../contact/identity.rules.ts';

/**
 * Whom a Graph send addresses (issue 41 item 4). Pure and browser-safe: no I/O, type-only imports.
 *
 * Since May 2026 the Cloud API send body (`POST /{phone_number_id}/messages`) takes either `to`, a
 * phone number, or `recipient`, a business-scoped user id (BSUID, e.g. `BR.17730000000000000001`)
 * or parent BSUID; when both are present `to` wins, and Meta recommends the number whenever it is
 * known. One-tap, zero-tap and copy-code authentication templates still need a phone number (Meta
 * error 131062 "Business-scoped User ID recipients are not supported for this message").
 * Sources: Meta, "Business-scoped user IDs" (WhatsApp Business Platform docs, updated 2026-03-31,
 * mirrored at support.chatarchitect.com/books/meta-whatsapp/page/business-scoped-user-ids-developer-documentation);
 * dualhook.com/docs/contacts-bsuid-api-changes (request, response and 131062); 8x8 release note
 * 2026-07-21 "Business-Scoped User IDs" (precedence of the number); YCloud "Use business-scoped
 * user IDs"; whatsapp-protocols.md §E.1.
 */

/** The addressing part of a Graph send body: spread into text, media, reaction and template bodies. */
export type SendTarget =
  | { to: string; recipient_type: 'individual' }
  | { recipient: string; recipient_type: 'individual' }
  | { to: string; recipient_type: 'group' };

const present = (s: string | null | undefined): s is string => typeof s === 'string' && s.trim() !== '';

/**
 * The Graph target of a chat: a group (`<group_id>@g.us`) by its id; a person by number when one is
 * known, else by BSUID.
 * @param chatId `<digits>@c.us` (1:1 with a known number), `<group_id>@g.us` (group), or `cht_<26 base32>`
 *   (a customer known only by BSUID)
 * @param identity the chat row's `identity` (absent on rows written before 2026-04): `wa_id` digits
 *   without '+', `user_id` the BSUID. `identity.wa_id` (the number WhatsApp last gave for this
 *   customer) wins over the digits of the chat id, as in contact/identity.rules.ts chatNumberOf.
 * @returns `{ to: digits, recipient_type: 'individual' }` when the number is known;
 *   `{ recipient: BSUID, recipient_type: 'individual' }` when only the BSUID is; `{ to: group_id,
 *   recipient_type: 'group' }` for a group; null when the chat names neither (nothing to send to)
 */
export function sendTargetOf(chatId: string, identity?: Pick<CustomerIdentity, 'wa_id' | 'user_id'> | null): SendTarget | null {
  if (chatId.endsWith('@g.us')) {
    const group = chatId.slice(0, -'@g.us'.length);
    return present(group) ? { to: group, recipient_type: 'group' } : null;
  }
  if (present(identity?.wa_id)) return { to: identity.wa_id, recipient_type: 'individual' };
  if (chatId.endsWith('@c.us')) {
    const digits = chatId.slice(0, -'@c.us'.length);
    if (present(digits)) return { to: digits, recipient_type: 'individual' };
  }
  if (present(identity?.user_id)) return { recipient: identity.user_id, recipient_type: 'individual' };
  return null;
}

/**
 * The `identity` of a stored chat row (an `any` attribute; absent on rows written before 2026-04),
 * keeping only string `wa_id` and `user_id`.
 */
export function identityOf(row: object | null | undefined): Pick<CustomerIdentity, 'wa_id' | 'user_id'> | undefined {
  const id = (row as { identity?: unknown } | null | undefined)?.identity;
  if (!id || typeof id !== 'object') return undefined;
  const { wa_id, user_id } = id as Record<string, unknown>;
  return { ...(typeof wa_id === 'string' ? { wa_id } : {}), ...(typeof user_id === 'string' ? { user_id } : {}) };
}

/** Whether the target is a person's phone number (what authentication templates need). */
export const hasPhoneNumber = (target: SendTarget | null): boolean => target != null && target.recipient_type === 'individual' && 'to' in target;

/** Template category whose sends need a phone number (Meta's category name, any case). */
export const isAuthenticationCategory = (category: string | null | undefined): boolean => category?.toUpperCase() === 'AUTHENTICATION';

/** What a member reads when a send has no target (sendTargetOf is null). */
export const NO_SEND_TARGET = 'Chorus knows neither a phone number nor a WhatsApp user id for this chat, so WhatsApp cannot deliver to it.';

/** What a member reads when an authentication template cannot go to a customer without a number. */
export const PHONE_NUMBER_NEEDED = 'This customer has not shared their phone number, and WhatsApp needs one for authentication templates.';

/**
 * Why a template of `category` cannot be sent to `target`, in plain words, or null when it can.
 * Only authentication templates are refused, and only for a person without a known number (a
 * BSUID-only target, or none); groups are left to Meta.
 */
export function templateTargetProblem(category: string | null | undefined, target: SendTarget | null): string | null {
  if (!isAuthenticationCategory(category)) return null;
  if (target?.recipient_type === 'group' || hasPhoneNumber(target)) return null;
  return PHONE_NUMBER_NEEDED;
}
