import { sqsBatchHandler } from '../lib/sqs.ts';
import { parseEventRecord } from '../lib/records.ts';
import { searchPort, type SearchDoc, type SearchIndexName } from '../../shared/ports/search.ts';
import { chatChange, merge, messageChange, ticketChange, type SearchChange } from '../../shared/search/search-docs.ts';
import { searchDocId } from '../../shared/search/search.rules.ts';

/**
 * search-indexing consumer (issue 14): domain events -> the search port (OpenSearch in AWS, the
 * embedded index locally).
 *   - message.received / message.sent / message.updated: the message (or media item) is indexed,
 *     re-indexed with its new text after an edit, removed once deleted for everyone; the chat's
 *     document (name, number, labels, assignee) and, for 1:1 chats, the contact's are refreshed;
 *   - note.created / note.deleted: the private note is indexed / removed;
 *   - chat.updated (renamed, labelled, assigned, …): the chat's document;
 *   - ticket.created / updated / closed: the ticket's subject.
 * Idempotent: every document carries its row's version (shared/search/search-docs.ts), which the
 * adapters compare so an older event delivered late never overwrites a newer document nor revives
 * a deleted one, and a repeat writes the same document again. So an event id already handled is
 * skipped by in-process receipts only (functions/lib/dedupe.ts memoryReceipts): the table receipts
 * were a BatchGet and a BatchWrite per batch of 10 (issue 23).
 * Within a batch the newest version of a document wins; documents and removals are keyed by
 * (org, id) (searchDocId, issue 41 §6), so two orgs' documents of the same customer never replace
 * or delete each other. A failed write fails the whole batch
 * (each record is retried, then dead-lettered).
 */
export const handler = sqsBatchHandler('search-indexing', async (records) => {
  const changes: SearchChange[] = [];
  const parsed = records.map((record) => {
    try {
      const ev = parseEventRecord(record, 'search-indexing');
      const at = Date.parse(ev.detail.metadata.occurred_at) || Date.now();
      const p = ev.detail.properties as Record<string, unknown>;
      const orgId = String(p.org_id);
      switch (ev['detail-type']) {
        case 'message.received':
        case 'message.sent':
          changes.push(messageChange(orgId, p.message as Record<string, unknown>), chatChange(orgId, p.chat as Record<string, unknown>, at));
          break;
        case 'message.updated':
        case 'note.created':
        case 'note.deleted':
          changes.push(messageChange(orgId, p.message as Record<string, unknown>));
          break;
        case 'chat.updated':
          changes.push(chatChange(orgId, p.chat as Record<string, unknown>, at));
          break;
        default:
          changes.push(ticketChange(p.ticket as Record<string, unknown>));
      }
      return { ok: true as const };
    } catch (e) {
      return { ok: false as const, error: e };
    }
  });
  const write = (async () => {
    const port = await searchPort();
    const all = merge(changes);
    // newest version per document within the batch
    const ups = new Map<string, { index: SearchIndexName; doc: SearchDoc }>();
    for (const u of all.upsert) {
      const k = `${u.index}\u0000${searchDocId(u.doc.org_id, u.doc.id)}`;
      const seen = ups.get(k);
      if (!seen || (seen.doc.version ?? 0) <= (u.doc.version ?? 0)) ups.set(k, u);
    }
    const byIndex = new Map<SearchIndexName, SearchDoc[]>();
    for (const u of ups.values()) byIndex.set(u.index, [...(byIndex.get(u.index) ?? []), u.doc]);
    for (const [index, docs] of byIndex) await port.upsert(index, docs);
    for (const r of all.remove) await port.remove(r.index, r.org_id, [r.id], r.version);
  })();
  return Promise.all(
    parsed.map(async (p): Promise<PromiseSettledResult<unknown>> => {
      if (!p.ok) return { status: 'rejected', reason: p.error };
      try {
        await write;
        return { status: 'fulfilled', value: undefined };
      } catch (e) {
        return { status: 'rejected', reason: e };
      }
    }),
  );
}, { receipts: 'memory' });
