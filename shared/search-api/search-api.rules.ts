import { hasScope, type ApiScope } from '../apikey/api-key.rules.ts';
import { SEARCH_KINDS, type SearchKind } from './search.schemas.ts';

/**
 * Which search kinds an API key may read (issue 42: scopes mean what they say). `search:read`
 * lets a key search; what it finds is limited to the kinds its other scopes may read on the
 * public API (functions/http/v1/contract.ts):
 *   - chats: `chats:read` (GET /v1/…/chats);
 *   - messages, notes, media: `messages:read` (GET /v1/…/chats/{chat_id}/messages returns message
 *     bodies, private notes and media; `chats:read` alone reads no message text there);
 *   - tickets: `tickets:read`; contacts: `contacts:read`.
 * `write` of an area includes its `read` (api-key.rules.ts `hasScope`). Pure.
 */
export const SEARCH_KIND_SCOPES: Record<SearchKind, ApiScope> = {
  chats: 'chats:read',
  messages: 'messages:read',
  notes: 'messages:read',
  media: 'messages:read',
  tickets: 'tickets:read',
  contacts: 'contacts:read',
};

/** The kinds a key with `scopes` may search, in SEARCH_KINDS order. */
export function searchableKinds(scopes: readonly string[]): SearchKind[] {
  return SEARCH_KINDS.filter((k) => hasScope(scopes, SEARCH_KIND_SCOPES[k]));
}
