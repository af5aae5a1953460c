import { createCipheriv, createDecipheriv, createHash, createHmac } from 'node:crypto';
import { config } from '../config.ts';

/**
 * Contact ids for viewers whose numbers are masked (spec §6; issue 15). A contact's key is its
 * WhatsApp id, i.e. the customer's number, so a masked member is handed `cx_<sealed>` instead:
 * deterministic authenticated encryption (AES-256-GCM with the IV derived by HMAC from the id,
 * the SIV construction of RFC 5297 §1.3.1 in spirit), the org id bound as AAD so an id sealed for
 * one org does not open in another. The key is derived from the server secret OTP_HMAC_KEY (or
 * PHONE_TOKEN_KEY): ids are stable for as long as that secret is.
 */
const PREFIX = 'cx_';

function keys(): { enc: Buffer; iv: Buffer } {
  const secret = config().OTP_HMAC_KEY || config().PHONE_TOKEN_KEY || `chorus-local-${config().TABLE_NAME}`;
  const root = createHash('sha256').update(`chorus-contact-id|${secret}`).digest();
  return { enc: createHmac('sha256', root).update('enc').digest(), iv: createHmac('sha256', root).update('iv').digest() };
}

/**
 * `id` sealed for org `orgId` behind `prefix` (deterministic: the same id gives the same sealed
 * form, so clients can key caches by it). Also used for chat ids (shared/chat/chat-id-seal.ts).
 */
export function sealRef(prefix: string, orgId: string, id: string): string {
  const k = keys();
  const iv = createHmac('sha256', k.iv).update(`${orgId}|${id}`).digest().subarray(0, 12);
  const c = createCipheriv('aes-256-gcm', k.enc, iv, { authTagLength: 16 });
  c.setAAD(Buffer.from(orgId, 'utf8'));
  const ct = Buffer.concat([c.update(id, 'utf8'), c.final()]);
  return prefix + Buffer.concat([iv, c.getAuthTag(), ct]).toString('base64url');
}

/** The masked form of `contactId` for org `orgId`. */
export const sealContactId = (orgId: string, contactId: string): string => sealRef(PREFIX, orgId, contactId);

/** Is this a sealed id? */
export const isSealedContactId = (id: string): boolean => id.startsWith(PREFIX);

/** The contact id inside a sealed id of `orgId`, or null when it is not one (tampered, other org). */
export const openContactId = (orgId: string, sealed: string): string | null => (isSealedContactId(sealed) ? openRef(PREFIX, orgId, sealed) : null);

/** The id inside `sealed` (made by sealRef with `prefix` for `orgId`), or null (tampered, other org, not one). */
export function openRef(prefix: string, orgId: string, sealed: string): string | null {
  if (!sealed.startsWith(prefix)) return null;
  try {
    const raw = Buffer.from(sealed.slice(prefix.length), 'base64url');
    if (raw.length < 29) return null;
    const d = createDecipheriv('aes-256-gcm', keys().enc, raw.subarray(0, 12), { authTagLength: 16 });
    d.setAAD(Buffer.from(orgId, 'utf8'));
    d.setAuthTag(raw.subarray(12, 28));
    return Buffer.concat([d.update(raw.subarray(28)), d.final()]).toString('utf8');
  } catch {
    return null;
  }
}
