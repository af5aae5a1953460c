import type { Actor } from '../auth/actor.ts';
import { chatGuard, type ChatGuard } from '../access/guard.ts';
import { db } from '../db/service.ts';
import { searchPort, type SearchHit, type SearchIndexName } from '../ports/search.ts';
import { maskNumbersInText } from '../chat/chat-access.rules.ts';
import { snippet } from './text.ts';
import { SEARCH_KINDS, type SearchItem, type SearchKind, type SearchKindResult, type SearchQuery, type SearchResponse } from '../search-api/search.schemas.ts';

/**
 * The search use case (issue 14; spec §2, §6, §9): one engine query per kind asked for, every hit
 * through the access and masking guard (shared/access/guard.ts):
 *   - hits in chats the viewer may not open are dropped before anything is built (no hit, count
 *     or snippet from them; spec §6), with one BatchGet of the page's chats (visibleChatIds);
 *   - when the viewer's numbers are masked, snippets are cut from the masked text, sender fields
 *     are masked, and a query with a run of 5+ digits finds nothing (searching by a number would
 *     tell which masked numbers exist);
 *   - the label filter keeps hits whose chat carries the label (one BatchGet of the hits' chats).
 * Paging: `cursor` is the engine offset of the next page of that kind; a page can hold fewer
 * than `limit` items once hidden chats are dropped, and `cursor` is null on the last page.
 * `only` (optional) narrows the kinds searched to those listed (an API key's scopes:
 * shared/search-api/search-api.ts); a kind left out is absent from `results`.
 */
export async function search(actor: Actor, q: SearchQuery, only?: readonly SearchKind[]): Promise<SearchResponse> {
  const guard = await chatGuard(actor);
  const kinds: SearchKind[] = (q.kind === 'all' ? [...SEARCH_KINDS] : [q.kind]).filter((k) => !only || only.includes(k));
  const results: SearchResponse['results'] = {};
  if (guard.masks && /\d{5,}/.test(q.q.replace(/[\s+()-]/g, ''))) {
    for (const k of kinds) results[k] = { items: [], cursor: null };
    return { results };
  }
  const entries = await Promise.all(kinds.map(async (k) => [k, await searchKind(actor, guard, k, q)] as const));
  for (const [k, r] of entries) results[k] = r;
  return { results };
}

async function searchKind(actor: Actor, guard: ChatGuard, kind: SearchKind, q: SearchQuery): Promise<SearchKindResult> {
  const offset = q.cursor ? Number(q.cursor) : 0;
  const messageLike = kind === 'messages' || kind === 'notes' || kind === 'media';
  const filter = {
    phone_id: q.phone_id,
    sender: messageLike ? q.sender : undefined,
    message_type: messageLike ? q.message_type : undefined,
    from: q.from,
    to: q.to,
  };
  const port = await searchPort();
  // one more than the page tells whether there is a next one
  const hits = await port.search(kind as SearchIndexName, actor.org_id, q.q, q.limit + 1, { filter, offset });
  const more = hits.length > q.limit;
  const page = hits.slice(0, q.limit);
  const chatOf = (h: SearchHit) => h.doc?.meta?.chat_id ?? (kind === 'chats' ? h.id : undefined);
  let kept = await guard.filter(page, chatOf);
  if (q.label_id) {
    const labelled = await chatsWithLabel(actor.org_id, [...new Set(kept.map(chatOf).filter((c): c is string => !!c))], q.label_id);
    kept = kept.filter((h) => labelled.has(chatOf(h) ?? ''));
  }
  return { items: kept.map((h) => item(kind, h, q.q, guard)), cursor: more ? String(offset + q.limit) : null };
}

/** The chats among `chatIds` that carry `labelId` (BatchGet, 100 keys per call). */
async function chatsWithLabel(orgId: string, chatIds: string[], labelId: string): Promise<Set<string>> {
  const out = new Set<string>();
  for (let i = 0; i < chatIds.length; i += 100) {
    const res = await db()
      .entities.chat.get(chatIds.slice(i, i + 100).map((chat_id) => ({ org_id: orgId, chat_id })))
      .go({ attributes: ['chat_id', 'label_ids'] });
    for (const c of res.data) if ((c.label_ids ?? []).includes(labelId)) out.add(c.chat_id);
  }
  return out;
}

function item(kind: SearchKind, h: SearchHit, query: string, guard: ChatGuard): SearchItem {
  const d = h.doc!;
  const m = d.meta ?? {};
  const raw = Object.values(d.fields)[0] ?? '';
  const text = guard.masks ? maskNumbersInText(raw) : raw;
  const base = { chat_id: m.chat_id ?? d.id, snippet: snippet(text, query), timestamp: m.timestamp ?? null };
  switch (kind) {
    case 'messages':
    case 'notes':
    case 'media':
      return { ...base, unique_id: m.unique_id, message_id: m.message_id ?? null, sender_phone: guard.mask(m.sender_phone ?? null), author: guard.mask(m.author ?? null), message_type: m.message_type ?? null };
    case 'chats':
      return { ...base, title: text, author: m.author ?? null };
    case 'contacts':
      return { ...base, contact_id: guard.mask(d.id), title: text, sender_phone: guard.mask(m.sender_phone ?? null) };
    case 'tickets':
      return { ...base, ticket_id: d.id, title: raw, status: m.status ?? null, author: m.author ?? null };
  }
}
