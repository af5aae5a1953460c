import { sqsBatchHandler } from '../lib/sqs.ts';
import { bodyOf } from '../lib/records.ts';
import { touchContacts, type ContactSighting } from '../../shared/contact/contact.ts';
import { log } from '../../shared/log.ts';

/**
 * contact-sightings queue consumer (issue 23): creates or refreshes the contacts of inbound senders
 * off the ingest path. Ingest puts one record per stored batch, `{ org_id, sightings }`
 * (shared/contact/contact.ts queueContactSightings); a batch's records are merged per org into one
 * touchContacts call (one BatchGet of the senders' contacts, then a write only where something
 * changed). Idempotent: a create is conditional, a refresh a patch to the newest values, so a
 * redelivery changes nothing. A failed contact fails its org's records of the batch, which the queue
 * retries and finally dead-letters with the reason; an unreadable record is logged and dropped.
 */
type Body = { org_id: string; sightings: ContactSighting[] };

export const handler = sqsBatchHandler('contact-sightings', async (records) => {
  const byOrg = new Map<string, ContactSighting[]>();
  const results: PromiseSettledResult<unknown>[] = records.map((record) => {
    const body = bodyOf(record) as Body | null;
    if (!body || typeof body.org_id !== 'string' || !Array.isArray(body.sightings)) {
      log('error', 'contact_sightings.unreadable', { messageId: record.messageId });
      return { status: 'fulfilled', value: 'unreadable' };
    }
    (byOrg.get(body.org_id) ?? byOrg.set(body.org_id, []).get(body.org_id)!).push(...body.sightings);
    return { status: 'fulfilled', value: undefined };
  });
  // a failed contact fails its org's records: the queue retries them (touchContacts is idempotent)
  const failed = new Map<string, unknown>();
  await Promise.all([...byOrg].map(([orgId, sightings]) => touchContacts(orgId, sightings, { rethrow: true }).catch((e: unknown) => void failed.set(orgId, e))));
  return results.map((r, i) => {
    const org = (bodyOf(records[i]!) as Body | null)?.org_id;
    return r.status === 'fulfilled' && r.value === undefined && org && failed.has(org) ? { status: 'rejected', reason: failed.get(org) } : r;
  });
});
