import { config } from '../config.ts';
import { AppError } from '../errors.ts';

/**
 * Search port (architecture §3 'search'): Amazon OpenSearch Service in AWS
 * (shared/search/opensearch.ts), an embedded MiniSearch index in the local runtime
 * (scripts/local/search.ts), chosen at start like the other ports. Documents are tenant-scoped:
 * every search names the org, and an adapter never returns another org's ids.
 * Indexes are fed by the `search-indexing` consumer from domain events, so results trail
 * writes by the event delivery time (milliseconds locally, about a second in AWS).
 */

/**
 * The indexes (one per kind of the search API, issue 14) and their searchable text fields.
 * Ids: tickets `ticket_id`; messages, notes and media `chat_id|unique_id`; chats `chat_id`;
 * contacts `contact_id` (the customer's wa_id). An id is unique only within its org (the same
 * customer writing to two orgs gives both the same chat and contact ids): adapters store and
 * delete a document by (org, id) (shared/search/search.rules.ts searchDocId; issue 41 §6).
 */
export const SEARCH_INDEXES = {
  tickets: { fields: ['subject'] },
  messages: { fields: ['body'] },
  notes: { fields: ['body'] },
  chats: { fields: ['name'] },
  contacts: { fields: ['name'] },
  media: { fields: ['body'] },
} as const;
export type SearchIndexName = keyof typeof SEARCH_INDEXES;

/** Filterable and displayed values stored with a document (never scored). Times epoch ms. */
export interface SearchMeta {
  chat_id?: string;
  unique_id?: string;
  message_id?: string;
  /** epoch ms: the message's, the chat's latest message, the ticket's last update */
  timestamp?: number;
  sender_phone?: string;
  author?: string;
  phone_id?: string;
  message_type?: string;
  label_ids?: string[];
  status?: string;
}

export interface SearchDoc {
  /** the entity id (see SEARCH_INDEXES), unique within `org_id` only; hits carry it as is */
  id: string;
  org_id: string;
  /** text per field of SEARCH_INDEXES[index].fields */
  fields: Record<string, string>;
  /**
   * Monotonic version of the source row (message/chat `version`, ticket `last_updated_at`):
   * an upsert or remove with a lower version than the stored document's is ignored, so an
   * older event delivered late never overwrites a newer document. Absent: always applied.
   */
  version?: number;
  meta?: SearchMeta;
  /**
   * What a results list shows of the entity as of `version`, stored with the document and never
   * indexed (OpenSearch keeps the whole document unindexed in `doc`; the local index keeps it in
   * memory). Tickets: the Ticket wire (shared/ticket/ticket-wire.ts), so a results page needs no
   * read of the rows. Absent on documents indexed before it was kept: the caller reads those rows.
   */
  view?: Record<string, unknown>;
}

/** Exact filters applied inside the engine (all optional; `from`/`to` epoch ms, inclusive). */
export interface SearchFilter {
  phone_id?: string;
  /** sender_phone or author equal to this (case-insensitive) */
  sender?: string;
  message_type?: string;
  from?: number;
  to?: number;
  /** only documents of these chats */
  chat_ids?: string[];
  /**
   * Tickets only: the ticket's status (meta.status) and assignee (meta.author, compared
   * case-insensitively; 'none' = unassigned). A document stored before its meta carried a status
   * passes both (the caller checks the ticket row anyway), so no reindex is needed for them.
   */
  status?: string;
  assignee?: string;
}

export interface SearchOptions {
  filter?: SearchFilter;
  /** hits to skip (the API's cursor) */
  offset?: number;
}

export interface SearchHit {
  /** the document's public id (SearchDoc.id), never the engine's org-prefixed key */
  id: string;
  /** relevance, higher is better (adapter-specific scale) */
  score: number;
  /** the stored document (text and meta), when the adapter keeps it */
  doc?: SearchDoc;
  /** the matched words as found in the text (for snippets), when the adapter knows them */
  terms?: string[];
}

export interface SearchPort {
  /** Add or replace documents (idempotent). */
  upsert(index: SearchIndexName, docs: SearchDoc[]): Promise<void>;
  /**
   * Remove the org's documents by id (unknown ids are ignored; another org's documents with the
   * same ids are untouched, issue 41 §6); with `version`, only when it is not older than the
   * stored one, and later upserts older than it are ignored.
   */
  remove(index: SearchIndexName, orgId: string, ids: string[], version?: number): Promise<void>;
  /**
   * Best matches of `text` within one org: every word must match (accents and case folded),
   * the last one as a prefix, one typo tolerated in words of 4+ letters.
   * @returns at most `limit` hits after `options.offset`, best first
   */
  search(index: SearchIndexName, orgId: string, text: string, limit: number, options?: SearchOptions): Promise<SearchHit[]>;
}

let port: SearchPort | undefined;

/** Install the adapter (the local runtime: its embedded index; undefined: back to the default). */
export function setSearchPort(p: SearchPort | undefined): void {
  port = p;
}

/**
 * The installed adapter, else OpenSearch at SEARCH_ENDPOINT.
 * @throws AppError 503 search.unavailable when neither is configured
 */
export async function searchPort(): Promise<SearchPort> {
  if (port) return port;
  const endpoint = config().SEARCH_ENDPOINT;
  if (!endpoint) throw new AppError('search.unavailable', 'Search is not available right now. Please try again later.', { status: 503 });
  const { openSearchPort } = await import('../search/opensearch.ts');
  port = openSearchPort(endpoint, config().AWS_REGION);
  return port;
}
