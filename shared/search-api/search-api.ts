import type { Actor } from '../auth/actor.ts';
import { AppError } from '../errors.ts';
import { search } from '../search/search.ts';
import { SEARCH_KIND_SCOPES, searchableKinds } from './search-api.rules.ts';
import type { SearchQuery, SearchResponse } from './search.schemas.ts';

/**
 * The global search for an API key (GET /v1/orgs/{org_id}/search, the MCP tools): issue 14's
 * search (shared/search/search.ts, same guard) over only the kinds the key's scopes may read
 * (search-api.rules.ts):
 *   - `kind=all`: the readable kinds only; the others are absent from `results`;
 *   - one kind the key may not read: 403 `api_key.scope_missing` naming the scope it needs;
 *   - no readable kind at all: 403 `api_key.scope_missing` listing the scopes that would help.
 * @param scopes the key's scopes (ApiKeyPrincipal.scopes)
 * @throws AppError 403 api_key.scope_missing (`details.scope`)
 */
export async function searchForKey(actor: Actor, scopes: readonly string[], q: SearchQuery): Promise<SearchResponse> {
  const kinds = searchableKinds(scopes);
  if (q.kind !== 'all' && !kinds.includes(q.kind)) {
    const scope = SEARCH_KIND_SCOPES[q.kind];
    throw new AppError('api_key.scope_missing', `This API key lacks the scope ${scope} (needed to search ${q.kind}).`, { status: 403, details: { scope } });
  }
  if (!kinds.length) {
    const scope = [...new Set(Object.values(SEARCH_KIND_SCOPES))].join(' or ');
    throw new AppError('api_key.scope_missing', `This API key can search nothing it may read: add ${scope}.`, { status: 403, details: { scope } });
  }
  return search(actor, q, kinds);
}
