import { Client } from '@opensearch-project/opensearch';
import { AwsSigv4Signer } from '@opensearch-project/opensearch/aws-v3';
import { defaultProvider } from '@aws-sdk/credential-provider-node';
import { SEARCH_INDEXES, type SearchDoc, type SearchHit, type SearchIndexName, type SearchPort } from '../ports/search.ts';

/**
 * Search adapter for Amazon OpenSearch Service: SigV4-signed (service `es`) with the Lambda's
 * role. One OpenSearch index per search index, `chorus-<name>`, created on first use with an
 * explicit mapping (org_id keyword, text fields analysed). Writes use the bulk API with
 * `refresh: false` (near-real-time, ~1 s).
 */
export const indexName = (index: SearchIndexName) => `chorus-${index}`;

/** Index settings and mapping (pure; tested). */
export function indexBody(index: SearchIndexName) {
  return {
    settings: { number_of_shards: 1, number_of_replicas: 0 },
    mappings: {
      dynamic: 'strict',
      properties: {
        org_id: { type: 'keyword' },
        ...Object.fromEntries(SEARCH_INDEXES[index].fields.map((f) => [f, { type: 'text' }])),
      },
    },
  };
}

/**
 * The search request (pure; tested): the org as a filter (never scored, never crossed), every
 * word required, the last word as a prefix (type bool_prefix), fuzziness AUTO for typos.
 */
export function searchBody(index: SearchIndexName, orgId: string, text: string, limit: number) {
  return {
    size: limit,
    _source: false,
    query: {
      bool: {
        filter: [{ term: { org_id: orgId } }],
        must: [{ multi_match: { query: text, fields: [...SEARCH_INDEXES[index].fields], type: 'bool_prefix', operator: 'and', fuzziness: 'AUTO' } }],
      },
    },
  };
}

/** Bulk body for upserts (pure; tested). */
export function bulkBody(index: SearchIndexName, docs: SearchDoc[]) {
  return docs.flatMap((d) => [{ index: { _index: indexName(index), _id: d.id } }, { org_id: d.org_id, ...d.fields }]);
}

export function openSearchPort(endpoint: string, region: string): SearchPort {
  const client = new Client({ ...AwsSigv4Signer({ region, service: 'es', getCredentials: defaultProvider() }), node: endpoint });
  const ready = new Map<SearchIndexName, Promise<void>>();
  const ensure = (index: SearchIndexName) => {
    if (!ready.has(index)) {
      const p = (async () => {
        const exists = await client.indices.exists({ index: indexName(index) });
        if (exists.body) return;
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
      if (res.body.errors) throw new Error(`OpenSearch bulk: ${JSON.stringify(res.body.items.find((i: Record<string, { error?: unknown }>) => Object.values(i)[0]?.error)).slice(0, 500)}`);
    },
    async remove(index, ids) {
      if (!ids.length) return;
      await ensure(index);
      await client.bulk({ body: ids.map((id) => ({ delete: { _index: indexName(index), _id: id } })) as never });
    },
    async search(index, orgId, text, limit): Promise<SearchHit[]> {
      await ensure(index);
      const res = await client.search({ index: indexName(index), body: searchBody(index, orgId, text, limit) as never });
      return (res.body.hits.hits as Array<{ _id: string; _score: number | null }>).map((h) => ({ id: h._id, score: h._score ?? 0 }));
    },
  };
}
