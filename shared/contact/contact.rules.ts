/**
 * Pure rules of contacts (issue 15): the shown name and its sort key, the facet rows that make the
 * /contacts filters and word search key lookups, when an inbound message moves last-seen, number
 * normalisation (libphonenumber-js, default country IN as the house style says) and CSV cells safe
 * against formula injection (OWASP 'CSV Injection').
 */
import { parsePhoneNumberFromString, type CountryCode } from 'libphonenumber-js';

/** Last-seen moves only when a message is at least this much newer (ms): one contact write per 15 min per person at most. */
export const LAST_SEEN_STEP_MS = 15 * 60_000;

/** Most words of one contact kept for search (name + text property values). */
export const MAX_WORDS = 24;

export interface ContactLike {
  contact_id: string;
  contact_name?: string | null;
  edited_name?: string | null;
  phone?: string | null;
  numbers?: string[] | null;
  label_ids?: string[] | null;
  phone_ids?: string[] | null;
  custom_properties?: Record<string, unknown> | null;
  /** issue 41: the WhatsApp username (searchable like a name) */
  username?: string | null;
}

/** The name shown for a contact: the edited name, else the WhatsApp profile name, else null (show the number). */
export const displayName = (c: Pick<ContactLike, 'contact_name' | 'edited_name'>): string | null => c.edited_name?.trim() || c.contact_name?.trim() || null;

/** Sort key of the by-name index: the shown name lower-cased; unnamed contacts sort last ('~' + number). */
export function nameKey(c: ContactLike): string {
  const n = displayName(c);
  return n ? n.toLowerCase().slice(0, 200) : `~${c.contact_id}`;
}

/** Lower-cased words of a text (letters and digits of any script), unique, in order. */
export function words(text: string | null | undefined): string[] {
  if (!text) return [];
  const out = new Set<string>();
  for (const w of text.toLowerCase().normalize('NFKC').split(/[^\p{L}\p{M}\p{N}]+/u)) if (w) out.add(w.slice(0, 40));
  return [...out];
}

/** A property value as stored and indexed (trimmed text; null/empty = unset). */
export function propertyValueText(v: unknown): string | null {
  if (v === null || v === undefined) return null;
  const s = String(v).trim();
  return s ? s.slice(0, 500) : null;
}

/**
 * The facet rows a contact should have, as `facet|key` strings (see ContactFacetEntity):
 * one per label, per org number, per set property value (`prop#<id>#<value>`), one per set property
 * whatever its value (`pset#<id>`: the contacts carrying a property, for the definition jobs), and
 * one `tok` row per search word of the shown name, the profile name, the username (issue 41) and the property values.
 */
export function facetsOf(c: ContactLike): string[] {
  const id = c.contact_id;
  const out = new Set<string>();
  for (const l of c.label_ids ?? []) out.add(`label#${l}|${id}`);
  for (const p of c.phone_ids ?? []) out.add(`phone#${p}|${id}`);
  const texts: string[] = [c.edited_name ?? '', c.contact_name ?? '', c.username ?? ''];
  for (const [pid, raw] of Object.entries(c.custom_properties ?? {})) {
    const v = propertyValueText(raw);
    if (!v) continue;
    out.add(`prop#${pid}#${v.toLowerCase()}|${id}`);
    out.add(`pset#${pid}|${id}`);
    texts.push(v);
  }
  const ws = words(texts.join(' ')).slice(0, MAX_WORDS);
  for (const w of ws) out.add(`tok|${w}#${id}`);
  return [...out];
}

/** Split a `facet|key` string. */
export function splitFacet(f: string): { facet: string; key: string } {
  const i = f.indexOf('|');
  return { facet: f.slice(0, i), key: f.slice(i + 1) };
}

/** Rows to delete and to put when a contact's facets change from `before` to `after`. */
export function facetDiff(before: string[], after: string[]): { remove: string[]; add: string[] } {
  const b = new Set(before);
  const a = new Set(after);
  return { remove: before.filter((f) => !a.has(f)), add: after.filter((f) => !b.has(f)) };
}

/** Does an inbound message at `at` (epoch ms) move a last-seen of `prev` (epoch ms, or none)? */
export const lastSeenDue = (prev: number | null | undefined, at: number): boolean => !prev || at - prev >= LAST_SEEN_STEP_MS;

/** Does contact `c` match every word of a search (each a prefix of one of its words)? */
export function matchesWords(c: ContactLike, query: string[]): boolean {
  if (!query.length) return true;
  const mine = facetsOf(c)
    .filter((f) => f.startsWith('tok|'))
    .map((f) => f.slice(4, f.lastIndexOf('#')));
  return query.every((q) => mine.some((w) => w.startsWith(q)));
}

/** A search text that is a number (digits with optional '+', spaces, dashes, brackets): its digits, else null. */
export function numberQuery(q: string): string | null {
  const t = q.trim();
  if (!/^\+?[\d\s\-()]{3,}$/.test(t)) return null;
  const d = t.replace(/\D/g, '');
  return d.length >= 3 ? d : null;
}

/**
 * A typed or imported number as E.164 digits (no '+'), or null when it is not a phone number.
 * Numbers without a country code are read as `country` (default IN, house style). A number
 * libphonenumber-js knows as assigned (isValid) is preferred; otherwise one of a possible length
 * for its country (isPossible) is taken, as inbound does: WhatsApp's `wa_id` is stored as sent,
 * without checking ranges, so a contact must not be refused for a number whose messages are
 * accepted (issue 49 item 6: Ofcom's range +44 7700 900000–900999, reserved for fiction and used
 * as test numbers, is possible but not valid to libphonenumber-js, yet messages from it are stored). Text that is not a number of a possible length stays null.
 * Bare digits of 11–15 (a country code included) are read as international when both readings are
 * only possible.
 */
export function normalizeNumber(input: string, country: CountryCode = 'IN'): string | null {
  const raw = input.trim();
  if (!raw) return null;
  // '00' international prefix and bare digits long enough to carry a country code
  const text = raw.startsWith('00') ? `+${raw.slice(2)}` : raw;
  const local = parsePhoneNumberFromString(text, country);
  const intl = /^\d{11,15}$/.test(text) ? parsePhoneNumberFromString(`+${text}`) : undefined;
  // bare digits of international length are read with their own country code first when only possible
  const p = [local, intl].find((r) => r?.isValid()) ?? [intl, local].find((r) => r?.isPossible());
  return p ? p.number.replace(/^\+/, '') : null;
}

/**
 * One CSV cell (RFC 4180 quoting), safe against formula injection: a value starting with
 * `=`, `+`, `-`, `@`, tab or carriage return is prefixed with `'` so spreadsheets show it as text.
 */
export function csvCell(value: unknown): string {
  let s = value === null || value === undefined ? '' : String(value);
  if (/^[=+\-@\t\r]/.test(s)) s = `'${s}`;
  return /[",\n\r]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
}
