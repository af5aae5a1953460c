import { db } from '../db/service.ts';
import { commitWithEvents, type TxItem } from '../db/transaction.ts';
import { propertyValueKey } from '../property/property.rules.ts';
import { contactUpdatedEvent } from './contact-events.ts';
import { getMany, syncFacets, type Row } from './contact.ts';

/**
 * Contacts' custom property values on definition changes (issue 15 item 4: "renaming or deleting a
 * definition updates every value in the background"). The definition job (shared/bulk/bulk-job.ts,
 * selection kind 'property', phase 'contacts') calls `clearContactsPropertyPage` once per step after
 * the chats are done:
 * - a definition deleted: every contact carrying the property, read from its `pset#<property_id>`
 *   facet rows (one row per contact with any value set; contact.rules.ts facetsOf);
 * - a dropdown option removed: the contacts holding that option, from its
 *   `prop#<property_id>#<option id>` facet rows.
 * Both are Queries on ContactFacet (byFacet), page by page with the job's cursor: never a Scan.
 * Each contact is re-read (BatchGet) and written only if it still holds the value; the write is
 * conditional on `updated_at` (a concurrent edit wins: re-read and tried again, up to 3 times) and
 * carries its `contact.updated` event in the same transaction (outbox); the facet rows follow
 * (syncFacets, as every contact write).
 */

/** Contacts per definition-job step. */
export const CONTACT_CLEAR_PAGE = 100;
const IN_FLIGHT = 4;
const TRIES = 3;

/** The facet whose rows are the contacts a definition job must visit (see above). */
export function clearFacetOf(propertyId: string, value?: string): string {
  return value !== undefined ? `prop#${propertyId}#${propertyValueKey(value)}` : `pset#${propertyId}`;
}

export interface ContactClearPage {
  /** facet rows read (contacts visited) */
  processed: number;
  /** contacts cleared, or that no longer held the value */
  succeeded: number;
  failed: Array<{ contact_id: string; reason: string }>;
  /** where the next page starts; null when this was the last */
  cursor: string | null;
}

/**
 * Clear a property's value (or only the stored `value`, a removed option) on the next page of
 * contacts carrying it. Idempotent: a redelivered step finds the values already gone.
 * @param actorEmail who changed the definition (the events' actor `user:<email>`, `updated_by`)
 */
export async function clearContactsPropertyPage(orgId: string, actorEmail: string, propertyId: string, value: string | undefined, cursor: string | null, limit = CONTACT_CLEAR_PAGE): Promise<ContactClearPage> {
  const page = await db()
    .entities.contactFacet.query.byFacet({ org_id: orgId, facet: clearFacetOf(propertyId, value) })
    .go({ limit, pages: 1, ...(cursor ? { cursor } : {}) });
  const ids = [...new Set(page.data.map((f) => f.contact_id))];
  const queue = [...ids];
  let succeeded = 0;
  const failed: ContactClearPage['failed'] = [];
  const worker = async () => {
    for (let id = queue.shift(); id; id = queue.shift()) {
      try {
        await clearOne(orgId, actorEmail, id, propertyId, value);
        succeeded++;
      } catch (e) {
        failed.push({ contact_id: id, reason: String((e as Error).message ?? e) });
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(IN_FLIGHT, queue.length) }, worker));
  return { processed: ids.length, succeeded, failed, cursor: page.cursor ?? null };
}

/** Does a contact hold the value a job clears? (any value, or exactly the removed option) */
const holds = (r: Row, propertyId: string, value: string | undefined): boolean => {
  const cur = propertyValueKey(r.custom_properties?.[propertyId]);
  return !!cur && (value === undefined || cur === propertyValueKey(value));
};

async function clearOne(orgId: string, actorEmail: string, contactId: string, propertyId: string, value: string | undefined): Promise<void> {
  for (let attempt = 1; ; attempt++) {
    const [before] = await getMany(orgId, [contactId]);
    if (!before || !holds(before, propertyId, value)) return; // deleted, or changed since: nothing to clear
    const custom_properties = { ...(before.custom_properties ?? {}) };
    delete custom_properties[propertyId];
    const now = Date.now();
    const stored: Row = { ...before, custom_properties, updated_by: actorEmail, updated_at: now };
    const event = contactUpdatedEvent(orgId, before, stored, `user:${actorEmail}`);
    const ok = await commitWithEvents((e) => ({
      items: [
        e.contact
          .patch({ org_id: orgId, contact_id: contactId })
          .set({ custom_properties, updated_by: actorEmail } as never)
          .where((a, { eq, notExists }) => (before.updated_at !== undefined ? eq(a.updated_at, before.updated_at) : notExists(a.updated_at)))
          .commit() as TxItem,
      ],
      events: event ? [event] : [],
    }));
    if (ok) {
      // the copy on the facet rows: read back so it holds the stored updated_at
      const [after] = await getMany(orgId, [contactId]);
      await syncFacets(orgId, before, after ?? stored);
      return;
    }
    if (attempt >= TRIES) throw new Error('The contact kept changing while its value was being cleared. Clear it from the contact’s panel.');
  }
}
