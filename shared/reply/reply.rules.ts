/**
 * Quick-reply rules (issue 15 item 5), pure and browser-safe: the variables a reply's text may hold,
 * filling them when a reply is inserted, the '/' query of the composer and the picker's filter.
 *
 * Variables (case-insensitive names, spaces inside the braces allowed):
 * - `{{contact.name}}`, `{{contact.first_name}}`: the chat's contact as the member sees it
 *   (masked numbers stay masked: the name comes from the guard's chat view);
 * - `{{member.name}}`: the member inserting the reply (their name, else their email);
 * - `{{property.<property name>}}`: the chat's custom property value (dropdowns: the option label).
 * A known variable without a value becomes ''; the text keeps nothing unknown (saving refuses it).
 */

const VAR_RE = /\{\{\s*([^{}]+?)\s*\}\}/g;
const FIXED = new Set(['contact.name', 'contact.first_name', 'member.name']);

/** The variable names in a text, as written (trimmed). */
export function variablesIn(text: string): string[] {
  return [...text.matchAll(VAR_RE)].map((m) => m[1]!);
}

/** Why a text's variables are wrong ('uses an unknown variable {{x}}'), or null. */
export function variableProblem(text: string): string | null {
  for (const v of variablesIn(text)) {
    const k = v.toLowerCase();
    if (FIXED.has(k)) continue;
    if (k.startsWith('property.') && v.slice('property.'.length).trim()) continue;
    return `uses an unknown variable {{${v}}} (known: {{contact.name}}, {{contact.first_name}}, {{member.name}}, {{property.<name>}})`;
  }
  return null;
}

export interface FillContext {
  contactName?: string | null;
  memberName?: string | null;
  /** property name -> value as shown (option labels for dropdowns) */
  properties?: Record<string, string>;
}

/** The text with its variables filled (see the module doc). */
export function fillVariables(text: string, ctx: FillContext): string {
  const props = new Map(Object.entries(ctx.properties ?? {}).map(([k, v]) => [k.trim().toLowerCase(), v]));
  return text.replace(VAR_RE, (whole, raw: string) => {
    const k = raw.toLowerCase();
    if (k === 'contact.name') return ctx.contactName?.trim() ?? '';
    if (k === 'contact.first_name') return ctx.contactName?.trim().split(/\s+/)[0] ?? '';
    if (k === 'member.name') return ctx.memberName?.trim() ?? '';
    if (k.startsWith('property.')) return props.get(k.slice('property.'.length).trim()) ?? '';
    return whole;
  });
}

/**
 * The composer's '/' query: the text starts with '/' and the caret is still in that first word
 * (no space or line break typed yet). @returns the query after '/', or null when no picker shows.
 */
export function slashQuery(text: string, caret: number): string | null {
  if (!text.startsWith('/')) return null;
  const head = text.slice(1, caret);
  if (caret < 1 || /\s/.test(head)) return null;
  const rest = text.slice(caret);
  if (rest && !/^\s/.test(rest)) return null;
  return head.toLowerCase();
}

/**
 * Replies matching a query: shortcut prefix first, then shortcut containing it, then text
 * containing it (case-insensitive); ties by shortcut. An empty query lists all by shortcut.
 */
export function filterReplies<R extends { shortcut: string; text: string }>(replies: readonly R[], query: string): R[] {
  const q = query.trim().toLowerCase();
  const rank = (r: R) => (!q || r.shortcut.startsWith(q) ? 0 : r.shortcut.includes(q) ? 1 : r.text.toLowerCase().includes(q) ? 2 : 3);
  return replies
    .map((r) => ({ r, k: rank(r) }))
    .filter((x) => x.k < 3)
    .sort((a, b) => a.k - b.k || a.r.shortcut.localeCompare(b.r.shortcut))
    .map((x) => x.r);
}
