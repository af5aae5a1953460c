import { db } from '../db/service.ts';
import type { SearchDoc, SearchIndexName, SearchPort } from '../ports/search.ts';
import { chatChange, contactDoc, merge, messageChange, ticketChange, type SearchChange } from './search-docs.ts';

/**
 * Rebuild one org's search documents from the table (issue 14, `npm run reindex`): key and index
 * Queries only, never a Scan — the org's chats (primary key), each chat's messages and notes
 * (byChat, paged), the org's tickets and contacts (primary key). Documents are built by the same
 * builders as the indexing consumer, so a reindex gives what the events gave.
 */
export interface ReindexProgress {
  /** chats done / total */
  chats: number;
  totalChats: number;
  /** documents written so far */
  docs: number;
}

const PAGE = 1000;

/** Write every document of `orgId` into `port`. `onProgress` after each chat. @returns documents written */
export async function reindexOrg(orgId: string, port: SearchPort, onProgress?: (p: ReindexProgress) => void): Promise<number> {
  let docs = 0;
  const write = async (change: SearchChange) => {
    const by = new Map<SearchIndexName, SearchDoc[]>();
    for (const u of change.upsert) by.set(u.index, [...(by.get(u.index) ?? []), u.doc]);
    for (const [index, list] of by) {
      await port.upsert(index, list);
      docs += list.length;
    }
  };
  const chats = (await db().entities.chat.query.byId({ org_id: orgId }).go({ pages: 'all' })).data as unknown as Array<Record<string, unknown>>;
  const tickets = (await db().entities.ticket.query.byId({ org_id: orgId }).go({ pages: 'all' })).data as unknown as Array<Record<string, unknown>>;
  await write(merge(tickets.map(ticketChange)));
  const contacts = (await db().entities.contact.query.byOrg({ org_id: orgId }).go({ pages: 'all' })).data as unknown as Array<Record<string, unknown>>;
  await write({ upsert: contacts.map((c) => ({ index: 'contacts' as const, doc: contactDoc(orgId, c) })), remove: [] });
  let done = 0;
  for (const chat of chats) {
    const changes: SearchChange[] = [chatChange(orgId, chat)];
    let cursor: string | null = null;
    do {
      const res: { data: unknown[]; cursor: string | null } = await db().entities.message.query.byChat({ org_id: orgId, chat_id: String(chat.chat_id) }).go({ cursor, limit: PAGE });
      for (const m of res.data) changes.push(messageChange(orgId, m as Record<string, unknown>));
      cursor = res.cursor;
    } while (cursor);
    await write(merge(changes));
    onProgress?.({ chats: ++done, totalChats: chats.length, docs });
  }
  if (!chats.length) onProgress?.({ chats: 0, totalChats: 0, docs });
  return docs;
}

/** Every org's documents of one index, for rebuilding a lost local index (the local runtime only). */
export async function allOrgIds(): Promise<string[]> {
  // the organization rows: one per org (local rebuild only, never on a request path)
  const res = await db().entities.organization.scan.go({ pages: 'all', attributes: ['org_id'] });
  return res.data.map((o) => o.org_id);
}
