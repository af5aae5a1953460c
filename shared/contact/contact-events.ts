import type { PublishInput } from '../../events/publish.ts';
import { commitWithEvents } from '../db/transaction.ts';
import { displayName, type ContactLike } from './contact.rules.ts';

/**
 * The contact events (events/contracts/contact.ts: contact.created, contact.updated) built from
 * stored contact rows, and their publication through the outbox (issue 17 §1: the rules' "contact
 * created" and "custom property changed" triggers). Times epoch **ms**.
 *
 * They are written as outbox rows in their own transaction right after the contact's write (the
 * contact code writes with plain puts / patches): at least once once that transaction commits; a
 * process that dies between the two writes loses the event (the contact itself is kept).
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

/** Store events in the outbox (one transaction of outbox rows); the relay publishes them. */
export async function publishContactEvents(events: Array<PublishInput | null>): Promise<void> {
  const list = events.filter((e): e is PublishInput => !!e);
  if (list.length) await commitWithEvents(() => ({ items: [], events: list }));
}
