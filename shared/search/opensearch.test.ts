import { describe, expect, it } from 'vitest';
import { bulkBody, indexBody, indexName, searchBody } from './opensearch.ts';

/** The OpenSearch requests Chorus sends (no OpenSearch runs here: the request shapes are the contract). */
describe('OpenSearch adapter requests', () => {
  it('scopes every search to the org as a filter, all words required, last as prefix, typos tolerated', () => {
    expect(searchBody('tickets', 'org_1', 'refund ord', 500)).toEqual({
      size: 500,
      _source: false,
      query: {
        bool: {
          filter: [{ term: { org_id: 'org_1' } }],
          must: [{ multi_match: { query: 'refund ord', fields: ['subject'], type: 'bool_prefix', operator: 'and', fuzziness: 'AUTO' } }],
        },
      },
    });
  });
  it('maps org_id as a keyword and rejects unknown fields', () => {
    expect(indexName('tickets')).toBe('chorus-tickets');
    expect(indexBody('tickets').mappings).toEqual({ dynamic: 'strict', properties: { org_id: { type: 'keyword' }, subject: { type: 'text' } } });
  });
  it('bulk-indexes by id', () => {
    expect(bulkBody('tickets', [{ id: 'tkt_1', org_id: 'o', fields: { subject: 'Refund' } }])).toEqual([{ index: { _index: 'chorus-tickets', _id: 'tkt_1' } }, { org_id: 'o', subject: 'Refund' }]);
  });
});
