import { openRef, sealRef } from '../contact/contact-id.ts';

/**
 * Chat ids for viewers whose numbers are masked (spec §6, issue 41 §5). A 1:1 chat stored before
 * 2026 is keyed by WhatsApp's `<number>@c.us`, so its id alone would show the number: a member of an
 * org that masks numbers is handed `cht__<sealed>` instead, everywhere (API answers, socket frames,
 * and so URLs), and every chat id a request names is opened back (params, query, body). The seal is
 * the contact ids' (shared/contact/contact-id.ts: deterministic AES-256-GCM, the org bound as AAD),
 * so the same chat always has the same sealed id for that org, and an id sealed for one org opens
 * in no other. Opaque (`cht_…`) and group (`…@g.us`) ids hold no customer number and stay as they are.
 * The `cht__` prefix makes a sealed id an opaque chat id to clients (identity.rules.ts isOpaqueChatId).
 */
const PREFIX = 'cht__';

/** A `<digits>@c.us` id anywhere in a text (a whole value, inside a message, or percent-encoded in a URL). */
const NUMBER_CHAT_ID = /\b(\d{5,20})(?:@|%40)c\.us\b/g;

/** The sealed form of a number chat id for org `orgId`. */
export const sealChatId = (orgId: string, chatId: string): string => sealRef(PREFIX, orgId, chatId);

/** Is this a sealed chat id? */
export const isSealedChatId = (id: string): boolean => id.startsWith(PREFIX);

/** The chat id inside a sealed one of `orgId`, or null (tampered, another org, not sealed). */
export const openChatId = (orgId: string, sealed: string): string | null => openRef(PREFIX, orgId, sealed);

/**
 * `value` with every number chat id in its strings (values, not keys) sealed for `orgId`: the last
 * step of what a masked viewer is sent (an API answer, a socket frame). Returns the same object
 * when nothing needed sealing. Walks plain JSON (objects, arrays, strings).
 */
export function sealChatIdsIn<T>(orgId: string, value: T): T {
  const walk = (v: unknown): unknown => {
    if (typeof v === 'string') return v.includes('c.us') ? v.replace(NUMBER_CHAT_ID, (_id, digits: string) => sealChatId(orgId, `${digits}@c.us`)) : v;
    if (Array.isArray(v)) {
      let changed = false;
      const out = v.map((x) => {
        const y = walk(x);
        if (y !== x) changed = true;
        return y;
      });
      return changed ? out : v;
    }
    if (v && typeof v === 'object') {
      let changed = false;
      const out: Record<string, unknown> = {};
      for (const [k, x] of Object.entries(v)) {
        const y = walk(x);
        if (y !== x) changed = true;
        out[k] = y;
      }
      return changed ? out : v;
    }
    return v;
  };
  return walk(value) as T;
}

/**
 * `value` (a request's path params, query or body) with every sealed chat id of `orgId` opened back
 * to the stored id, in string values at any depth. A sealed id that does not open for this org is
 * left as it is (the use case then answers 404 for an unknown chat).
 */
export function openChatIdsIn<T>(orgId: string, value: T): T {
  // requests name chats at most a few levels down (CHAT_REF_KEYS, task links); deeper input is left as sent
  const walk = (v: unknown, depth: number): unknown => {
    if (typeof v === 'string') return isSealedChatId(v) ? (openChatId(orgId, v) ?? v) : v;
    if (depth >= OPEN_DEPTH) return v;
    if (Array.isArray(v)) return v.map((x) => walk(x, depth + 1));
    if (v && typeof v === 'object') return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, walk(x, depth + 1)]));
    return v;
  };
  return walk(value, 0) as T;
}

/** How deep in a request's params, query or body sealed chat ids are opened. */
const OPEN_DEPTH = 6;
