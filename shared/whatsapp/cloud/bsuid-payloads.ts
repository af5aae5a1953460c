import { createHash } from 'node:crypto';
import { parsePhoneNumberFromString } from 'libphonenumber-js';
import { envelope, newWamid, type PhoneMeta } from './payloads.ts';

/**
 * Builders of Cloud API webhook bodies in the 2026 shape, with business-scoped user ids (BSUID):
 * `contacts[].user_id`, `messages[].from_user_id`, `profile.username`, statuses'
 * `recipient_user_id`, and no number at all for a username user whose number Meta withholds
 * (Meta, "Business-scoped user IDs"; tests/fixtures/whatsapp-cloud/README.md has the sources and
 * 20–27 the documented examples). Used by `npm run simulate` and tests.
 */

/** A customer as a 2026 webhook names them. */
export interface WaUser {
  /** the number (digits, country code first); undefined when Meta withholds it */
  phone?: string;
  /** the BSUID: ISO 3166 alpha-2 country code, a dot, up to 128 alphanumerics (`US.13491208655302741918`) */
  userId: string;
  /** the parent BSUID (`US.ENT.…`), when the business has parent ids enabled */
  parentUserId?: string;
  /** the profile (display) name */
  name?: string;
  /** the WhatsApp username, without `@` (Meta allows letters, digits, `.` and `_`) */
  username?: string;
}

/** A username as Meta sends it: without the `@` people type before it. */
export const bareUsername = (u: string): string => u.trim().replace(/^@/, '');

/**
 * A stable, made-up BSUID for `seed` (a username or a number): the same seed always gives the same
 * id, so repeated simulator runs are the same person. The country is the number's when it has
 * one (libphonenumber-js), else `fallbackCountry`.
 * @example bsuidFor('username:ana', '16505551234') // 'US.' + 19 digits
 */
export function bsuidFor(seed: string, phone?: string, fallbackCountry = 'US'): string {
  const country = (phone && parsePhoneNumberFromString(`+${phone.replace(/\D/g, '')}`)?.country) || fallbackCountry;
  // 19 digits, the first not 0, like Meta's examples
  const n = (BigInt(`0x${createHash('sha256').update(seed).digest('hex').slice(0, 16)}`) % (9n * 10n ** 18n)) + 10n ** 18n;
  return `${country}.${n}`;
}

/** The `contacts[]` entry of a message webhook for `u`. */
function contactOf(u: WaUser) {
  return {
    profile: { name: u.name ?? 'Customer', ...(u.username ? { username: bareUsername(u.username) } : {}) },
    ...(u.phone ? { wa_id: u.phone } : {}),
    user_id: u.userId,
    ...(u.parentUserId ? { parent_user_id: u.parentUserId } : {}),
  };
}

/**
 * An inbound message of any type from `u` in the 2026 shape: `from` and `wa_id` only when the
 * number is known, `from_user_id` (and `from_parent_user_id`) always.
 * @param fields the type object as Meta names it, e.g. `{ text: { body } }`
 * @param opts.timestampS unix seconds (default now)
 */
export function inboundFromUser(phone: PhoneMeta, u: WaUser, type: string, fields: Record<string, unknown>, opts: { id?: string; timestampS?: number } = {}) {
  return envelope(phone, {
    contacts: [contactOf(u)],
    messages: [
      {
        ...(u.phone ? { from: u.phone } : {}),
        from_user_id: u.userId,
        ...(u.parentUserId ? { from_parent_user_id: u.parentUserId } : {}),
        id: opts.id ?? newWamid(),
        timestamp: String(opts.timestampS ?? Math.floor(Date.now() / 1000)),
        type,
        ...fields,
      },
    ],
  });
}

/** An inbound text from `u` (2026 shape). */
export const inboundTextFromUser = (phone: PhoneMeta, u: WaUser, body: string, opts: { id?: string; timestampS?: number } = {}) =>
  inboundFromUser(phone, u, 'text', { text: { body } }, opts);

/**
 * A status of an outbound wamid in the 2026 shape. `recipient_id` only when the message went to
 * a number; `recipient_user_id` always, except on a `failed` status of a message sent to a number;
 * `contacts[]` on every status but `failed`, with the username on `delivered` and `read` only.
 * @param opts.sentToNumber the send named the number (`to`) rather than the BSUID (`recipient`)
 * @param opts.timestampS unix seconds (default now)
 */
export function statusToUser(
  phone: PhoneMeta,
  opts: { id: string; status: 'sent' | 'delivered' | 'read' | 'failed' | 'played'; user: WaUser; sentToNumber: boolean; timestampS?: number; errors?: unknown[]; bizOpaqueCallbackData?: string },
) {
  const u = opts.user;
  const failed = opts.status === 'failed';
  return envelope(phone, {
    ...(failed
      ? {}
      : {
          contacts: [
            {
              ...((opts.status === 'delivered' || opts.status === 'read') && u.username ? { profile: { username: bareUsername(u.username) } } : {}),
              ...(u.phone ? { wa_id: u.phone } : {}),
              user_id: u.userId,
              ...(u.parentUserId ? { parent_user_id: u.parentUserId } : {}),
            },
          ],
        }),
    statuses: [
      {
        id: opts.id,
        status: opts.status,
        timestamp: String(opts.timestampS ?? Math.floor(Date.now() / 1000)),
        ...(opts.sentToNumber && u.phone ? { recipient_id: u.phone } : {}),
        ...(failed && opts.sentToNumber ? {} : { recipient_user_id: u.userId }),
        ...(u.parentUserId && !(failed && opts.sentToNumber) ? { recipient_parent_user_id: u.parentUserId } : {}),
        ...(opts.status === 'sent' ? { pricing: { billable: false, pricing_model: 'PMP', type: 'free_customer_service', category: 'service' } } : {}),
        ...(opts.errors ? { errors: opts.errors } : {}),
        ...(opts.bizOpaqueCallbackData ? { biz_opaque_callback_data: opts.bizOpaqueCallbackData } : {}),
      },
    ],
  });
}
