import type { Actor } from '../auth/actor.ts';
import { listChatLabels } from '../chat/chat-workflow.ts';
import { listProperties } from '../property/property.ts';
import { listContactBook } from './contact.ts';
import { csvCell } from './contact.rules.ts';
import type { ContactListQuery, ContactView } from './contact.schemas.ts';

/**
 * GET /contacts/export.csv (issue 15 item 3): the contacts of a /contacts filter as CSV (RFC 4180,
 * CRLF, UTF-8), read page by page (200 a page, the list's own cursor: key lookups, never a Scan)
 * through `listContactBook`, so the file holds exactly what the list shows the viewer: the same
 * access rule (contacts whose chat they may not open are left out), numbers masked for members when
 * the org masks them (spec §6), merged-away contacts left out. Every cell goes through `csvCell`
 * (formula injection: a cell starting with = + - @ tab CR is prefixed with '). One column per custom
 * property (by name; dropdowns as the option label). Times ISO-8601 UTC. At most MAX_CONTACT_EXPORT rows.
 */
export const MAX_CONTACT_EXPORT = 100_000;
const FIXED = ['phone', 'name', 'whatsapp_name', 'numbers', 'labels', 'notes', 'last_seen_at', 'created_at'] as const;

const iso = (ms: number | null | undefined): string => (ms ? new Date(ms).toISOString() : '');

/** The export as text chunks: the header, then one chunk per page. @throws AppError 400/403 as listContactBook */
export async function* exportContactsCsv(actor: Actor, filter: Omit<ContactListQuery, 'limit' | 'cursor'>): AsyncGenerator<string> {
  const [{ labels }, props] = await Promise.all([listChatLabels(actor), listProperties(actor.org_id)]);
  const labelNames = new Map(labels.map((l) => [l.label_id, l.name]));
  // first page before the header: a refusal (403/400) answers as an error, not as a half file
  let page = await listContactBook(actor, { ...filter, limit: 200 });
  yield `${[...FIXED, ...props.map((p) => p.property_name)].map(csvCell).join(',')}\r\n`;
  const line = (c: ContactView) =>
    [
      c.phone ? `+${c.phone}` : '',
      c.edited_name ?? c.display_name ?? '',
      c.contact_name ?? '',
      c.numbers.map((n) => `+${n}`).join('; '),
      c.label_ids.map((l) => labelNames.get(l) ?? l).join('; '),
      c.notes ?? '',
      iso(c.last_seen_at),
      iso(c.created_at),
      ...props.map((p) => {
        const v = c.custom_properties[p.property_id] ?? '';
        return p.property_value_type === 'dropdown' ? (p.property_value[v] ?? v) : v;
      }),
    ]
      .map(csvCell)
      .join(',');
  let rows = 0;
  for (;;) {
    let out = '';
    for (const c of page.contacts) {
      if (rows >= MAX_CONTACT_EXPORT) break;
      out += `${line(c)}\r\n`;
      rows++;
    }
    if (out) yield out;
    if (!page.cursor || rows >= MAX_CONTACT_EXPORT) return;
    page = await listContactBook(actor, { ...filter, limit: 200, cursor: page.cursor });
  }
}

/** File name: `contacts-{yyyy-mm-dd}.csv` (UTC date). */
export const contactExportFileName = (now = Date.now()): string => `contacts-${new Date(now).toISOString().slice(0, 10)}.csv`;
