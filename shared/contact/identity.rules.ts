/**
 * Customer identity rules (issue 41 §2–3). Pure: no I/O.
 *
 * WhatsApp identifies a customer by several ids that Chorus keeps apart (Meta, "Business-scoped
 * user IDs", WhatsApp Business Platform docs; whatsapp-protocols.md §E.1):
 * - `wa_id`: the phone number (digits), absent for a username user whose number Meta withholds;
 * - `user_id`: the business-scoped user id (BSUID, e.g. `BR.17730000000000000001`), in every
 *   `messages` webhook since April 2026; a new one when the user changes number;
 * - `parent_user_id`: the portfolio-level parent id (`BR.ENT.…`) when the business enabled it;
 * - `username`: shown to the team, never a key (a user may change it and keep the BSUID).
 */
export interface CustomerIdentity {
  /** phone number, digits without '+' */
  wa_id?: string;
  /** BSUID */
  user_id?: string;
  parent_user_id?: string;
  /** WhatsApp username as Meta sends it (e.g. `@ana`) */
  username?: string;
}

export type CustomerIdKind = 'phone' | 'bsuid' | 'parent_bsuid';

/** The sort key of an identifier's lookup row (CustomerIdEntity `id_key`). */
export const customerIdKey = (kind: CustomerIdKind, value: string): string => `${kind}#${value}`;

/** Prefix of an opaque 1:1 chat id (a customer first known without a number; shared/contact/opaque-id.ts). */
export const OPAQUE_CHAT_PREFIX = 'cht_';
/** Prefix of an opaque contact id. */
export const OPAQUE_CONTACT_PREFIX = 'ctc_';

/**
 * The 1:1 chat id a contact id (or one of its numbers or LIDs) names: `ctc_X` -> `cht_X`,
 * digits -> `<digits>@c.us`.
 */
export const chatIdOfContactId = (id: string): string => (id.startsWith(OPAQUE_CONTACT_PREFIX) ? OPAQUE_CHAT_PREFIX + id.slice(OPAQUE_CONTACT_PREFIX.length) : `${id}@c.us`);

/** The contact id of an opaque 1:1 chat (`cht_X` -> `ctc_X`), or null for any other chat id. */
export const contactIdOfOpaqueChat = (chatId: string): string | null => (chatId.startsWith(OPAQUE_CHAT_PREFIX) && !chatId.startsWith(`${OPAQUE_CHAT_PREFIX}_`) ? OPAQUE_CONTACT_PREFIX + chatId.slice(OPAQUE_CHAT_PREFIX.length) : null);

/** Is this a contact id of a customer first seen without a number (`ctc_…`)? */
export const isOpaqueContactId = (id: string): boolean => id.startsWith(OPAQUE_CONTACT_PREFIX);

/** Is this an opaque 1:1 chat id (`cht_…`)? */
export const isOpaqueChatId = (chatId: string): boolean => chatId.startsWith(OPAQUE_CHAT_PREFIX);

/**
 * The number of a 1:1 chat: the digits of a `<digits>@c.us` id, else the identity's `wa_id`.
 * @returns digits, or null when WhatsApp has not shared the customer's number
 */
export function chatNumberOf(chatId: string, identity?: CustomerIdentity | null): string | null {
  if (identity?.wa_id) return identity.wa_id;
  if (chatId.endsWith('@c.us')) return chatId.slice(0, -5) || null;
  return null;
}

/**
 * Where a customer message lands (issue 41 §2), from the lookup rows found for its identifiers:
 * the BSUID's row first (it follows the person across number changes announced to us), then the
 * number's row, then the number's own chat id (`<digits>@c.us`, as before 2026), and for a customer
 * with no number the opaque id derived from the BSUID.
 * @param rows chat and contact of each identifier that has a lookup row
 * @param opaqueFor the opaque chat and contact ids of a BSUID (shared/contact/opaque-id.ts)
 * @returns the chat and contact ids, and `conflict` when the number and the BSUID point at two
 *   different contacts (one person seen twice: the caller merges them)
 */
export function resolveCustomer(
  id: CustomerIdentity,
  rows: { bsuid?: { chat_id: string; contact_id: string }; phone?: { chat_id: string; contact_id: string } },
  opaqueFor: (userId: string) => { chat_id: string; contact_id: string },
): { chat_id: string; contact_id: string; conflict?: { keep: string; merge: string } } | null {
  const byUser = rows.bsuid;
  const byPhone = rows.phone;
  if (byUser) {
    const conflict = byPhone && byPhone.contact_id !== byUser.contact_id ? { keep: byUser.contact_id, merge: byPhone.contact_id } : undefined;
    return { chat_id: byUser.chat_id, contact_id: byUser.contact_id, ...(conflict ? { conflict } : {}) };
  }
  if (byPhone) return { chat_id: byPhone.chat_id, contact_id: byPhone.contact_id };
  if (id.wa_id) return { chat_id: `${id.wa_id}@c.us`, contact_id: id.wa_id };
  if (id.user_id) return opaqueFor(id.user_id);
  return null;
}

/**
 * The chat row's identity after a message: what the message carries wins over what the row had
 * (a new username, a number revealed); nothing the message does not carry is forgotten.
 * @returns the merged identity, and whether it differs from `before`
 */
export function mergeIdentity(before: CustomerIdentity | undefined, seen: CustomerIdentity): { identity: CustomerIdentity; changed: boolean } {
  const identity: CustomerIdentity = { ...(before ?? {}) };
  for (const k of ['wa_id', 'user_id', 'parent_user_id', 'username'] as const) if (seen[k]) identity[k] = seen[k];
  const changed = (['wa_id', 'user_id', 'parent_user_id', 'username'] as const).some((k) => identity[k] !== before?.[k]);
  return { identity, changed };
}
