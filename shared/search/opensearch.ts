import { Client } from '@opensearch-project/opensearch';
import { AwsSigv4Signer } from '@opensearch-project/opensearch/aws-v3';
import { defaultProvider } from '@aws-sdk/credential-provider-node';
import { SEARCH_INDEXES, type SearchDoc, type SearchHit, type SearchIndexName, type SearchOptions, type SearchPort } from '../ports/search.ts';
import { publicIdOf, searchDocId } from './search.rules.ts';

/**
 * Search adapter for Amazon OpenSearch Service: SigV4-signed (service `es`) with the Lambda's
 * role. One OpenSearch index per search index, `chorus-<name>`, created on first use with an
 * explicit mapping (org_id keyword, text fields analysed). Writes use the bulk API with
 * `refresh: false` (near-real-time, ~1 s).
 *
 * Document `_id`s are `${org_id}:${id}` (searchDocId, issue 41 §6): ids are unique only within an
 * org, and an `_id` of the id alone let one org's write or delete replace another's document of
 * the same customer. Such documents carry `org_keyed: true`; documents written before (their `_id`
 * the id alone, no `org_keyed`) are never searched, so they can neither duplicate nor outlive a
 * document: `npm run reindex -- --org <org_id>` writes each org's again under the new ids, and a
 * `_delete_by_query` on each `chorus-<index>` with
 * `{ "query": { "bool": { "must_not": { "term": { "org_keyed": true } } } } }` drops the old ones
 * once every org is reindexed.
 */
export const indexName = (index: SearchIndexName) => `chorus-${index}`;

/**
 * Index settings and mapping (pure; tested): text fields analysed with lowercase + asciifolding
 * (accents and case folded, like the embedded index), with an edge n-gram subfield `.prefix` for
 * prefix matching; meta as keywords/numbers for filters; the stored document in `doc` (not indexed).
 */
export function indexBody(index: SearchIndexName) {
  return {
    settings: {
      number_of_shards: 1,
      number_of_replicas: 0,
      analysis: {
        filter: { prefix_ngram: { type: 'edge_ngram', min_gram: 1, max_gram: 20 } },
        analyzer: {
          folded: { type: 'custom', tokenizer: 'standard', filter: ['lowercase', 'asciifolding'] },
          folded_prefix: { type: 'custom', tokenizer: 'standard', filter: ['lowercase', 'asciifolding', 'prefix_ngram'] },
        },
      },
    },
    mappings: {
      dynamic: 'strict',
      properties: {
        org_id: { type: 'keyword' },
        org_keyed: { type: 'boolean' },
        version: { type: 'long' },
        ...Object.fromEntries(SEARCH_INDEXES[index].fields.map((f) => [f, { type: 'text', analyzer: 'folded', fields: { prefix: { type: 'text', analyzer: 'folded_prefix', search_analyzer: 'folded' } } }])),
        chat_id: { type: 'keyword' },
        phone_id: { type: 'keyword' },
        sender_phone: { type: 'keyword' },
        author: { type: 'keyword' },
        message_type: { type: 'keyword' },
        timestamp: { type: 'long' },
        status: { type: 'keyword' },
        doc: { type: 'object', enabled: false },
      },
    },
  };
}

/**
 * The search request (pure; tested): routed to the org's shard and filtered by org_id (never
 * scored, never crossed) and to documents keyed by (org, id) (`org_keyed`, issue 41 §6), the meta
 * filters as term/range filters, every word required with one typo (fuzziness 1) on whole words or
 * as a prefix (edge n-grams), highlights of the text fields.
 */
export function searchBody(index: SearchIndexName, orgId: string, text: string, limit: number, options: SearchOptions = {}) {
  const fields = [...SEARCH_INDEXES[index].fields];
  const f = options.filter ?? {};
  const filter: unknown[] = [{ term: { org_id: orgId } }, { term: { org_keyed: true } }];
  if (f.phone_id) filter.push({ term: { phone_id: f.phone_id } });
  if (f.message_type) filter.push({ term: { message_type: f.message_type } });
  if (f.sender) filter.push({ bool: { should: [{ term: { sender_phone: f.sender } }, { term: { author: f.sender } }], minimum_should_match: 1 } });
  if (f.from != null || f.to != null) filter.push({ range: { timestamp: { ...(f.from != null ? { gte: f.from } : {}), ...(f.to != null ? { lte: f.to } : {}) } } });
  if (f.chat_ids) filter.push({ terms: { chat_id: f.chat_ids } });
  if (f.status || f.assignee) {
    // ticket meta; a document indexed before it carried a status passes (the caller re-checks the row)
    const ticket: unknown[] = [];
    if (f.status) ticket.push({ term: { status: f.status } });
    if (f.assignee) ticket.push(f.assignee === 'none' ? { bool: { must_not: { exists: { field: 'author' } } } } : { term: { author: { value: f.assignee, case_insensitive: true } } });
    filter.push({ bool: { should: [{ bool: { must_not: { exists: { field: 'status' } } } }, { bool: { filter: ticket } }], minimum_should_match: 1 } });
  }
  return {
    from: options.offset ?? 0,
    size: limit,
    _source: ['doc'],
    query: {
      bool: {
        filter,
        must: [
          {
            bool: {
              should: [
                { multi_match: { query: text, fields, operator: 'and', fuzziness: 1 } },
                { multi_match: { query: text, fields: fields.map((x) => `${x}.prefix`), operator: 'and' } },
              ],
              minimum_should_match: 1,
            },
          },
        ],
      },
    },
    highlight: { fields: Object.fromEntries(fields.map((x) => [x, { fragment_size: 80, number_of_fragments: 1 }])), pre_tags: ['<mark>'], post_tags: ['</mark>'] },
  };
}

/**
 * Bulk body for upserts (pure; tested): `_id` `${org_id}:${id}` (issue 41 §6), routed by org;
 * external versioning so an older version never overwrites a newer one.
 */
export function bulkBody(index: SearchIndexName, docs: SearchDoc[]) {
  return docs.flatMap((d) => [
    { index: { _index: indexName(index), _id: searchDocId(d.org_id, d.id), routing: d.org_id, ...(d.version != null ? { version: d.version, version_type: 'external_gte' } : {}) } },
    { org_id: d.org_id, org_keyed: true, version: d.version ?? 0, ...d.fields, ...pickMeta(d), doc: d },
  ]);
}

/**
 * Bulk body for removals (pure; tested): the org's documents only, `_id` `${org_id}:${id}`
 * (issue 41 §6), routed like their upserts; with `version`, an external_gte delete, so an older
 * removal never deletes a newer document and the delete's version outranks late older upserts
 * (for the index's `gc_deletes`, 60 s by default).
 */
export function deleteBody(index: SearchIndexName, orgId: string, ids: string[], version?: number) {
  return ids.map((id) => ({ delete: { _index: indexName(index), _id: searchDocId(orgId, id), routing: orgId, ...(version != null ? { version, version_type: 'external_gte' } : {}) } }));
}

const pickMeta = (d: SearchDoc) => {
  const m = d.meta ?? {};
  return { chat_id: m.chat_id, phone_id: m.phone_id, sender_phone: m.sender_phone, author: m.author, message_type: m.message_type, timestamp: m.timestamp, status: m.status };
};

/**
 * The OpenSearch search port (see above): documents stored and deleted by `${org_id}:${id}`
 * (issue 41 §6), hits carrying the public id (SearchDoc.id).
 * @param endpoint the domain's https URL (SEARCH_ENDPOINT)
 * @param region the domain's AWS region (SigV4)
 */
export function openSearchPort(endpoint: string, region: string): SearchPort {
  const client = new Client({ ...AwsSigv4Signer({ region, service: 'es', getCredentials: defaultProvider() }), node: endpoint });
  const ready = new Map<SearchIndexName, Promise<void>>();
  const ensure = (index: SearchIndexName) => {
    if (!ready.has(index)) {
      const p = (async () => {
        const exists = await client.indices.exists({ index: indexName(index) });
        if (exists.body) {
          // an index created before a field joined the mapping gets it (adding a field is allowed on a live index)
          await client.indices.putMapping({ index: indexName(index), body: { properties: { status: { type: 'keyword' }, org_keyed: { type: 'boolean' } } } as never });
          return;
        }
        try {
          await client.indices.create({ index: indexName(index), body: indexBody(index) as never });
        } catch (e) {
          // another Lambda created it first
          if (!String((e as Error).message).includes('resource_already_exists')) throw e;
        }
      })();
      p.catch(() => ready.delete(index));
      ready.set(index, p);
    }
    return ready.get(index)!;
  };
  return {
    async upsert(index, docs) {
      if (!docs.length) return;
      await ensure(index);
      const res = await client.bulk({ body: bulkBody(index, docs) as never });
      // a version conflict is an older event arriving late: skipped on purpose (external_gte)
      const failed = (res.body.items as Array<Record<string, { error?: { type?: string } }>>).find((i) => {
        const e = Object.values(i)[0]?.error;
        return e && e.type !== 'version_conflict_engine_exception';
      });
      if (failed) throw new Error(`OpenSearch bulk: ${JSON.stringify(failed).slice(0, 500)}`);
    },
    async remove(index, orgId, ids, version) {
      if (!ids.length) return;
      await ensure(index);
      const res = await client.bulk({ body: deleteBody(index, orgId, ids, version) as never });
      // not found: already gone; a version conflict: a newer document stays (external_gte)
      const failed = (res.body.items as Array<Record<string, { error?: { type?: string } }>>).find((i) => {
        const e = Object.values(i)[0]?.error;
        return e && e.type !== 'version_conflict_engine_exception';
      });
      if (failed) throw new Error(`OpenSearch bulk delete: ${JSON.stringify(failed).slice(0, 500)}`);
    },
    async search(index, orgId, text, limit, options): Promise<SearchHit[]> {
      await ensure(index);
      const res = await client.search({ index: indexName(index), routing: orgId, body: searchBody(index, orgId, text, limit, options) as never });
      // the public id, not the `_id` (`${org_id}:${id}`)
      return (res.body.hits.hits as Array<{ _id: string; _score: number | null; _source?: { doc?: SearchDoc } }>).map((h) => ({ id: h._source?.doc?.id ?? publicIdOf(orgId, h._id) ?? h._id, score: h._score ?? 0, doc: h._source?.doc }));
    },
  };
}
