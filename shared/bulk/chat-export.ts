import { listChats } from '../chat/chat-list.ts';
import { listChatLabels } from '../chat/chat-workflow.ts';
import { maskPhone, mustMask } from '../chat/chat-access.rules.ts';
import { isUnread } from '../chat/chat-state.rules.ts';
import { chatNumberOf, type CustomerIdentity } from '../contact/identity.rules.ts';
import { getOrgPreferences } from '../org/preferences.ts';
import type { Actor } from '../auth/actor.ts';
import type { Chat } from '../chat/chat.schemas.ts';
import { MAX_BULK_FILTER_CHATS, type BulkChatFilter } from './bulk-job.schemas.ts';

/**
 * GET /chats/export.csv (issue 4 part 11): the chats of a list filter as CSV (RFC 4180, CRLF,
 * UTF-8), read page by page from listChats (1,000 a page) so the export shows exactly what the
 * list shows the viewer: chats they may not open are left out, names masked for members when the
 * org masks numbers, and the chat id (a 1:1 chat's id may be the customer's number) sealed as in every
 * answer (shared/chat/chat-id-seal.ts).
 * The customer's number and username (issue 41) come last.
 * At most 100,000 rows. Times as ISO-8601 (UTC).
 */

export const EXPORT_COLUMNS = ['chat_id', 'chat_name', 'chat_type', 'org_phone', 'inbox_state', 'assigned_to', 'labels', 'unread', 'latest_message_timestamp', 'closed_at', 'customer_number', 'username'] as const;
/** Rows per export (the header not counted). */
export const MAX_EXPORT_ROWS = MAX_BULK_FILTER_CHATS;

/**
 * One CSV field: quoted when it holds a comma, quote or line break; a value a spreadsheet would
 * run as a formula (= + - @, tab, CR at the start: customer-chosen names) is prefixed with `'`.
 */
export function csvField(value: string | number | boolean | null | undefined): string {
  if (value === null || value === undefined) return '';
  let s = String(value);
  if (typeof value === 'string' && /^[=+\-@\t\r]/.test(s)) s = `'${s}`;
  return /[",\r\n]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
}

const iso = (ms: number | null | undefined): string => (ms ? new Date(ms).toISOString() : '');

/** A 1:1 chat's customer number as exported: digits, masked for masked viewers, '' when not shared or a group. */
function customerNumber(chat: Chat, maskIds: boolean): string {
  if (chat.chat_type !== 'user') return '';
  const n = chatNumberOf(chat.chat_id, chat.identity as CustomerIdentity | null | undefined);
  return n ? (maskIds ? maskPhone(n) : n) : '';
}

/** The CSV line of one chat (no line break). */
export function chatCsvLine(chat: Chat, labelNames: Map<string, string>, maskIds: boolean): string {
  const labels = (chat.label_ids ?? []).map((l) => labelNames.get(l) ?? l).join('; ');
  return [
    // a masked viewer's number chat ids are sealed where every answer passes (functions/lib/http.ts), like the API's
    chat.chat_id,
    chat.chat_name ?? '',
    chat.chat_type,
    chat.org_phone,
    chat.inbox_state ?? '',
    chat.assigned_to ?? '',
    labels,
    isUnread(chat) ? 'true' : 'false',
    iso(chat.latest_message_timestamp),
    iso(chat.closed_at),
    // issue 41: the customer's number (empty while WhatsApp has not shared it; masked like the id) and username
    customerNumber(chat, maskIds),
    chat.identity?.username ?? '',
  ]
    .map(csvField)
    .join(',');
}

/**
 * The export as text chunks: the header line, then one chunk per listChats page.
 * @param filter a list filter (state defaults to 'open' = 'All')
 * @throws AppError 400 as listChats does
 */
export async function* exportChatsCsv(actor: Actor, filter: BulkChatFilter): AsyncGenerator<string> {
  const [{ labels }, prefs] = await Promise.all([listChatLabels(actor), getOrgPreferences(actor.org_id)]);
  const names = new Map(labels.map((l) => [l.label_id, l.name]));
  const maskIds = mustMask(!!prefs.mask_phone_numbers, { email: actor.email, role: actor.role });
  yield `${EXPORT_COLUMNS.join(',')}\r\n`;
  let rows = 0;
  let cursor: string | undefined;
  do {
    const page = await listChats(actor, { ...filter, limit: 1000, ...(cursor ? { cursor } : {}) });
    let out = '';
    for (const chat of page.chats) {
      if (chat.has_access === false || rows >= MAX_EXPORT_ROWS) continue;
      out += `${chatCsvLine(chat, names, maskIds)}\r\n`;
      rows++;
    }
    if (out) yield out;
    cursor = page.cursor ?? undefined;
  } while (cursor && rows < MAX_EXPORT_ROWS);
}

/** File name of an export: `chats-{folder}-{yyyy-mm-dd}.csv` (UTC date). */
export const exportFileName = (filter: BulkChatFilter, now = Date.now()): string => `chats-${filter.state ?? 'open'}-${new Date(now).toISOString().slice(0, 10)}.csv`;
