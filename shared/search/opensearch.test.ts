import { describe, expect, it } from 'vitest';
import { bulkBody, deleteBody, indexBody, searchBody } from './opensearch.ts';
import { ticketChange } from './search-docs.ts';
import { toTicketWire } from '../ticket/ticket-wire.ts';

/** The OpenSearch adapter's request bodies (no OpenSearch runs here): the same contract as the embedded index. */
describe('OpenSearch request bodies', () => {
  it('maps text with accent/case folding and an edge n-gram prefix subfield; meta as keywords', () => {
    const b = indexBody('messages');
    expect(b.settings.analysis.analyzer.folded.filter).toEqual(['lowercase', 'asciifolding']);
    expect(b.settings.analysis.filter.prefix_ngram.type).toBe('edge_ngram');
    expect(b.mappings.properties).toMatchObject({ org_id: { type: 'keyword' }, body: { analyzer: 'folded', fields: { prefix: { analyzer: 'folded_prefix', search_analyzer: 'folded' } } }, phone_id: { type: 'keyword' } });
  });
  it('filters tickets by status and assignee in the engine, letting documents without a status through', () => {
    expect(indexBody('tickets').mappings.properties).toMatchObject({ status: { type: 'keyword' }, author: { type: 'keyword' } });
    const f = searchBody('tickets', 'org1', 'refund', 50, { filter: { status: 'open', assignee: 'Ann@x.co' } }).query.bool.filter;
    expect(f).toContainEqual({ bool: { should: [{ bool: { must_not: { exists: { field: 'status' } } } }, { bool: { filter: [{ term: { status: 'open' } }, { term: { author: { value: 'Ann@x.co', case_insensitive: true } } }] } }], minimum_should_match: 1 } });
    const none = searchBody('tickets', 'org1', 'refund', 50, { filter: { assignee: 'none' } }).query.bool.filter;
    expect(JSON.stringify(none)).toContain('{"must_not":{"exists":{"field":"author"}}}');
    expect(bulkBody('tickets', [{ id: 't1', org_id: 'org1', fields: { subject: 's' }, meta: { status: 'open' } }])[1]).toMatchObject({ status: 'open' });
  });
  it('a ticket document carries the Ticket wire as its view, stored unindexed in `doc` (the results page reads no rows)', () => {
    const row = { org_id: 'org1', ticket_id: 't1', subject: 'Refund please', status: 'open', priority: 2, assignee: 'ann@x.co', chat_id: '1555@c.us', org_phone: '1555000', phone_id: 'p1', quoted_message_id: 'm1', labels: ['l1'], message_count: 3, created_by: 'bob@x.co', created_at: 1, last_updated_by: 'bob@x.co', last_updated_at: 2, version: 4, gsi1pk: 'x' };
    const doc = ticketChange(row).upsert[0]!.doc;
    expect(doc.view).toEqual(toTicketWire(row as never));
    expect(doc.view).not.toHaveProperty('version');
    expect(doc.view).not.toHaveProperty('gsi1pk');
    expect(doc.view).toMatchObject({ due_date: null, closed_at: null, chat_name: null });
    const body = bulkBody('tickets', [doc])[1] as { doc: { view: unknown } };
    expect(body.doc.view).toEqual(doc.view);
    expect(indexBody('tickets').mappings.properties).toMatchObject({ doc: { type: 'object', enabled: false } });
  });
  it('filters by org and meta, requires every word with fuzziness 1 or as a prefix, highlights, pages', () => {
    const b = searchBody('messages', 'org1', 'reembolso ped', 50, { offset: 100, filter: { phone_id: 'p1', from: 1, to: 2, sender: '5511' } });
    expect(b.from).toBe(100);
    expect(b.size).toBe(50);
    expect(b.query.bool.filter).toEqual(expect.arrayContaining([{ term: { org_id: 'org1' } }, { term: { org_keyed: true } }, { term: { phone_id: 'p1' } }, { range: { timestamp: { gte: 1, lte: 2 } } }]));
    const should = b.query.bool.must[0]!.bool.should;
    expect(should[0]).toEqual({ multi_match: { query: 'reembolso ped', fields: ['body'], operator: 'and', fuzziness: 1 } });
    expect(should[1]!.multi_match.fields).toEqual(['body.prefix']);
    expect(b.highlight.pre_tags).toEqual(['<mark>']);
  });
  it('bulk upserts are keyed by (org, id), routed by org and externally versioned (issue 41 §6)', () => {
    const [action, source] = bulkBody('notes', [{ id: 'c|u', org_id: 'org1', fields: { body: 'hi' }, version: 7, meta: { chat_id: 'c' } }]) as unknown as [Record<string, Record<string, unknown>>, Record<string, unknown>];
    expect(action.index).toMatchObject({ _index: 'chorus-notes', _id: 'org1:c|u', routing: 'org1', version: 7, version_type: 'external_gte' });
    expect(source).toMatchObject({ org_id: 'org1', org_keyed: true, body: 'hi', chat_id: 'c' });
    expect((source.doc as { id: string }).id).toBe('c|u');
    expect(indexBody('chats').mappings.properties).toMatchObject({ org_keyed: { type: 'boolean' } });
  });
  it('the same customer in two orgs gives two documents, and a delete names its org (issue 41 §6)', () => {
    const chat = (org_id: string) => ({ id: '15551234567@c.us', org_id, fields: { name: 'Ana 15551234567' }, version: 3 });
    const ids = bulkBody('chats', [chat('org_a'), chat('org_b')]).filter((_, i) => i % 2 === 0).map((a) => (a as { index: { _id: string } }).index._id);
    expect(ids).toEqual(['org_a:15551234567@c.us', 'org_b:15551234567@c.us']);
    expect(deleteBody('messages', 'org_a', ['c|u1', 'c|u2'], 9)).toEqual([
      { delete: { _index: 'chorus-messages', _id: 'org_a:c|u1', routing: 'org_a', version: 9, version_type: 'external_gte' } },
      { delete: { _index: 'chorus-messages', _id: 'org_a:c|u2', routing: 'org_a', version: 9, version_type: 'external_gte' } },
    ]);
    expect(deleteBody('notes', 'org_b', ['c|u'])).toEqual([{ delete: { _index: 'chorus-notes', _id: 'org_b:c|u', routing: 'org_b' } }]);
  });
});
