import type { PublishInput } from '../../events/publish.ts';
import { commitWithEvents, transactWithEvents } from '../db/transaction.ts';
import { displayName, type ContactLike } from './contact.rules.ts';

/**
 * The contact events (events/contracts/contact.ts: contact.created, contact.updated) built from
 * stored contact rows, and their publication through the outbox (issue 17 §1: the rules' "contact
 * created" and "custom property changed" triggers). Times epoch **ms**.
 *
 * They are written as outbox rows IN THE SAME TRANSACTION as the contact's write (the
 * transactional outbox, shared/db/transaction.ts transactWithEvents): a contact is never stored
 * without its event, nor an event published for a write that did not happen. `createContactRow`
 * (a typed-in contact, a person's first message) and `patchContactRow` (an edit) do both; a merge
 * does the same in merge.ts. An import writes its chunk's rows in batches and then their events
 * (publishContactEvents): a crash in between fails the step, and the queue's redelivery writes and
 * publishes again (at least once, not atomic).
 */

type ContactRowLike = ContactLike & { updated_at?: number | null };

export function contactSnapshot(r: ContactRowLike) {
  return {
    contact_id: r.contact_id,
    display_name: displayName(r),
    numbers: r.numbers ?? (r.phone ? [r.phone] : []),
    label_ids: r.label_ids ?? [],
    custom_properties: Object.fromEntries(Object.entries(r.custom_properties ?? {}).map(([k, v]) => [k, String(v)])),
    updated_at: r.updated_at ?? null,
  };
}

/** Each custom property whose value differs between two rows (`null` = unset), sorted by id. Pure. */
export function propertyChanges(before: Record<string, unknown> | null | undefined, after: Record<string, unknown> | null | undefined): Array<{ property_id: string; from: string | null; to: string | null }> {
  const a = before ?? {};
  const b = after ?? {};
  const val = (v: unknown) => (v === undefined || v === null || v === '' ? null : String(v));
  return [...new Set([...Object.keys(a), ...Object.keys(b)])]
    .sort()
    .filter((k) => val(a[k]) !== val(b[k]))
    .map((k) => ({ property_id: k, from: val(a[k]), to: val(b[k]) }));
}

/** The fields a contact change touched ('edited_name', 'contact_name', 'label_ids', 'custom_properties', 'notes'). Pure. */
export function changedFields(before: Record<string, unknown>, after: Record<string, unknown>): string[] {
  return ['edited_name', 'contact_name', 'label_ids', 'custom_properties', 'notes'].filter((k) => JSON.stringify(before[k] ?? null) !== JSON.stringify(after[k] ?? null));
}

export const contactCreatedEvent = (orgId: string, row: ContactRowLike & { source?: string }, actor: string): PublishInput => ({
  name: 'contact.created',
  // one fact per contact id and creation time: a consumer dedupes a repeat
  id: `contact.created:${orgId}:${row.contact_id}:${(row as { created_at?: number }).created_at ?? 0}`,
  properties: { org_id: orgId, contact: contactSnapshot(row), source: row.source ?? null },
  actor,
});

/** contact.updated, or null when nothing a consumer reads changed. */
export function contactUpdatedEvent(orgId: string, before: ContactRowLike, after: ContactRowLike, actor: string): PublishInput | null {
  const changes = changedFields(before as unknown as Record<string, unknown>, after as unknown as Record<string, unknown>);
  if (!changes.length) return null;
  return { name: 'contact.updated', properties: { org_id: orgId, contact: contactSnapshot(after), changes, property_changes: propertyChanges(before.custom_properties, after.custom_properties) }, actor };
}

/**
 * Create a contact row and its contact.created event in one transaction (a conditional create).
 * @returns false when a contact with this id exists (nothing written, nothing published)
 */
export async function createContactRow(orgId: string, row: ContactRowLike & { source?: string }, actor: string): Promise<boolean> {
  const res = await transactWithEvents((e) => ({ items: [e.contact.create(row as never).commit()], events: [contactCreatedEvent(orgId, row, actor)] }));
  return !res.canceled;
}

/**
 * Patch a contact (`set`, `remove`: attribute names) and publish its contact.updated in the same
 * transaction; `stored` is the row as it will be after the patch (the event's snapshot and
 * property changes are computed from `before` → `stored`; no event when nothing a consumer reads
 * changed). The patch is conditional on the row existing.
 * @returns false when the contact does not exist (nothing written, nothing published)
 */
export async function patchContactRow(orgId: string, before: ContactRowLike, stored: ContactRowLike, set: Record<string, unknown>, remove: string[], actor: string): Promise<boolean> {
  const event = contactUpdatedEvent(orgId, before, stored, actor);
  const res = await transactWithEvents((e) => {
    let op = e.contact.patch({ org_id: orgId, contact_id: before.contact_id }).set(set as never);
    if (remove.length) op = op.remove(remove as never);
    return { items: [op.commit()], events: event ? [event] : [] };
  });
  return !res.canceled;
}

/** Store events in the outbox (one transaction of outbox rows); the relay publishes them. */
export async function publishContactEvents(events: Array<PublishInput | null>): Promise<void> {
  const list = events.filter((e): e is PublishInput => !!e);
  if (list.length) await commitWithEvents(() => ({ items: [], events: list }));
}
