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

/** The indexes and their searchable text fields. */
export const SEARCH_INDEXES = {
  tickets: { fields: ['subject'] },
} as const;
export type SearchIndexName = keyof typeof SEARCH_INDEXES;

export interface SearchDoc {
  /** the entity id (ticket_id) */
  id: string;
  org_id: string;
  /** text per field of SEARCH_INDEXES[index].fields */
  fields: Record<string, string>;
}

export interface SearchHit {
  id: string;
  /** relevance, higher is better (adapter-specific scale) */
  score: number;
}

export interface SearchPort {
  /** Add or replace documents (idempotent). */
  upsert(index: SearchIndexName, docs: SearchDoc[]): Promise<void>;
  /** Remove documents by id (unknown ids are ignored). */
  remove(index: SearchIndexName, ids: string[]): Promise<void>;
  /**
   * Best matches of `text` within one org: every word must match, the last one as a prefix,
   * small typos tolerated. @returns at most `limit` hits, best first
   */
  search(index: SearchIndexName, orgId: string, text: string, limit: number): Promise<SearchHit[]>;
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
