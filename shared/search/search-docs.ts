import { chatIdOfContactId, chatNumberOf, contactIdOfOpaqueChat, isOpaqueContactId, type CustomerIdentity } from '../contact/identity.rules.ts';
import type { SearchDoc, SearchIndexName } from '../ports/search.ts';
import { isMediaMessageType } from '../media/media.rules.ts';
import { toTicketWire } from '../ticket/ticket-wire.ts';

/**
 * Search documents of the inbox's rows (pure; issue 14). One builder per kind, used by the
 * indexing consumer (event snapshots) and by `npm run reindex` (table rows), so both give the
 * same documents. A change is a list of upserts and removals per index.
 *
 * Versions (SearchDoc.version, epoch ms): a message's is its newest of timestamp / edited_at /
 * deleted_at; a chat's its latest_message_timestamp or the event time; a ticket's last_updated_at.
 */

/**
 * Upserts and removals of one row, per index. A removal names its org: ids are unique only
 * within an org, and the port deletes by (org, id) (issue 41 §6).
 */
export interface SearchChange {
  upsert: Array<{ index: SearchIndexName; doc: SearchDoc }>;
  remove: Array<{ index: SearchIndexName; org_id: string; id: string; version?: number }>;
}

type Row = Record<string, unknown>;
const str = (v: unknown): string => (typeof v === 'string' ? v : '');
const num = (v: unknown): number => (typeof v === 'number' ? v : 0);

/** Id of a message, note or media document: `chat_id|unique_id` (public; engines key it with its org, search.rules.ts). */
export const messageDocId = (chatId: string, uniqueId: string) => `${chatId}|${uniqueId}`;

/** The version of a message row or snapshot (epoch ms). */
export const messageVersion = (m: Row): number => Math.max(num(m.timestamp), num(m.edited_at), num(m.deleted_at), num(m.version));

/**
 * A message, note or media row/snapshot -> its documents: a deleted message or note leaves every
 * index (a delete still 'pending' or 'failed' with WhatsApp keeps it); an edit replaces the text
 * (only the current body is indexed, never edit_history). Media messages also go to `media`
 * (file name and caption). Reactions and system messages without text are not indexed.
 */
export function messageChange(orgId: string, m: Row): SearchChange {
  const chatId = str(m.chat_id);
  const uniqueId = str(m.unique_id);
  const id = messageDocId(chatId, uniqueId);
  const version = messageVersion(m);
  const note = m.is_private_note === true;
  const type = str(m.message_type);
  const deleted = m.is_deleted === true && m.delete_status !== 'pending' && m.delete_status !== 'failed';
  const media = (m.media ?? {}) as Row;
  const body = str(m.body) || str(media.caption);
  const main: SearchIndexName = note ? 'notes' : 'messages';
  if (deleted) return { upsert: [], remove: [{ index: main, org_id: orgId, id, version }, ...(isMediaMessageType(type) ? [{ index: 'media' as const, org_id: orgId, id, version }] : [])] };
  const meta = {
    chat_id: chatId,
    unique_id: uniqueId,
    message_id: str(m.message_id) || undefined,
    timestamp: num(m.timestamp),
    sender_phone: str(m.sender_phone) || undefined,
    author: str(m.author) || undefined,
    phone_id: str(m.phone_id) || undefined,
    message_type: type,
  };
  const change: SearchChange = { upsert: [], remove: [] };
  if (body.trim() && type !== 'reaction') change.upsert.push({ index: main, doc: { id, org_id: orgId, fields: { body }, version, meta } });
  if (!note && isMediaMessageType(type)) {
    const text = [str(media.filename), str(media.caption) || str(m.body)].filter(Boolean).join(' — ');
    if (text) change.upsert.push({ index: 'media', doc: { id, org_id: orgId, fields: { body: text }, version, meta } });
  }
  return change;
}

/** A chat row/snapshot -> its `chats` document (name and number), and a contact document for a 1:1 chat. */
export function chatChange(orgId: string, c: Row, version?: number): SearchChange {
  const chatId = str(c.chat_id);
  const identity = (c.identity ?? undefined) as CustomerIdentity | undefined;
  // issue 41: an opaque chat (`cht_…`) has a number only once WhatsApp shared it; its username is searchable too
  const number = c.chat_type === 'group' ? chatId.replace(/@.*$/, '') : (chatNumberOf(chatId, identity) ?? '');
  const name = [str(c.chat_name), identity?.username].filter(Boolean).join(' ');
  const v = version ?? num(c.latest_message_timestamp);
  const meta = { chat_id: chatId, timestamp: num(c.latest_message_timestamp), phone_id: str(c.phone_id) || undefined, label_ids: Array.isArray(c.label_ids) ? (c.label_ids as string[]) : [], author: str(c.assigned_to) || undefined };
  const change: SearchChange = { upsert: [{ index: 'chats', doc: { id: chatId, org_id: orgId, fields: { name: [name, number].filter(Boolean).join(' ') }, version: v, meta } }], remove: [] };
  const contactId = contactIdOfOpaqueChat(chatId) ?? number;
  if (c.chat_type === 'user' && contactId) change.upsert.push({ index: 'contacts', doc: contactDoc(orgId, { contact_id: contactId, contact_name: name, phone: number }, chatId, v) });
  return change;
}

/** A contact row -> its `contacts` document (name and number); `chat_id` is its 1:1 chat. */
export function contactDoc(orgId: string, c: Row, chatId = chatIdOfContactId(str(c.contact_id)), version?: number): SearchDoc {
  const number = str(c.phone) || (isOpaqueContactId(str(c.contact_id)) ? '' : str(c.contact_id));
  return { id: str(c.contact_id), org_id: orgId, fields: { name: [str(c.contact_name), number].filter(Boolean).join(' ') }, version: version ?? num(c.updated_at), meta: { chat_id: chatId, sender_phone: number, author: str(c.contact_name) || undefined } };
}

/** A ticket row/snapshot -> its `tickets` document (subject; the Ticket wire as its `view`). */
export function ticketChange(t: Row): SearchChange {
  return {
    upsert: [
      {
        index: 'tickets',
        doc: { id: str(t.ticket_id), org_id: str(t.org_id), fields: { subject: str(t.subject) }, version: num(t.last_updated_at), meta: { chat_id: str(t.chat_id), timestamp: num(t.last_updated_at), status: str(t.status), phone_id: str(t.phone_id) || undefined, author: str(t.assignee) || undefined }, view: toTicketWire(t as never) },
      },
    ],
    remove: [],
  };
}

/** Join changes. */
export const merge = (changes: SearchChange[]): SearchChange => ({ upsert: changes.flatMap((c) => c.upsert), remove: changes.flatMap((c) => c.remove) });
