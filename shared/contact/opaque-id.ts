import { createHash } from 'node:crypto';
import { OPAQUE_CHAT_PREFIX, OPAQUE_CONTACT_PREFIX } from './identity.rules.ts';

/**
 * Opaque ids of customers first seen without a number (issue 41 §3): derived from the BSUID by
 * SHA-256, so they are stable (a redelivery finds the same chat with no lookup row yet) and tell
 * nothing of the person.
 */

const B32 = '0123456789abcdefghjkmnpqrstvwxyz';

/** 26 Crockford base32 characters (130 bits) of the SHA-256 of `input`. */
function hash26(input: string): string {
  const bytes = createHash('sha256').update(input).digest();
  let out = '';
  let acc = 0;
  let bits = 0;
  for (const b of bytes) {
    acc = (acc << 8) | b;
    bits += 8;
    while (bits >= 5 && out.length < 26) {
      out += B32[(acc >>> (bits - 5)) & 31];
      bits -= 5;
    }
    acc &= (1 << bits) - 1;
    if (out.length >= 26) break;
  }
  return out;
}

/**
 * The chat id of a customer first seen by BSUID alone: `cht_` + 26 base32 characters derived from
 * the BSUID, so a redelivered first message lands on the same chat with no lookup row yet (the
 * ingest stays idempotent without a read-then-create race). It tells nothing of the number.
 */
export const opaqueChatIdFor = (userId: string): string => OPAQUE_CHAT_PREFIX + hash26(`customer|${userId}`);

/** The contact id of a customer first seen by BSUID alone: `ctc_` + the same 26 characters as its chat's `cht_` id. */
export const opaqueContactIdFor = (userId: string): string => OPAQUE_CONTACT_PREFIX + hash26(`customer|${userId}`);

/** Both opaque ids of a BSUID, as identity.rules.ts `resolveCustomer` takes them. */
export const opaqueIdsFor = (userId: string): { chat_id: string; contact_id: string } => ({ chat_id: opaqueChatIdFor(userId), contact_id: opaqueContactIdFor(userId) });
