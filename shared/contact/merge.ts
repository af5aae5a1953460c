import { ulid } from 'ulid';
import { log } from '../log.ts';
import { db } from '../db/service.ts';
import type { Actor } from '../auth/actor.ts';
import { chatGuard } from '../access/guard.ts';
import { AppError, notFound } from '../errors.ts';
import { commitWithEvents } from '../db/transaction.ts';
import { contactUpdatedEvent } from './contact-events.ts';
import { nameKey } from './contact.rules.ts';
import { getMany, getVisible, requireContactsAccess, syncFacets, viewContact, type Row } from './contact.ts';
import { fieldsOf, mergedFields, unmergedFields, type MergeFields } from './merge.rules.ts';
import type { ContactView } from './contact.schemas.ts';

/**
 * Merge and unmerge of contacts (issue 15 item 2), by the rules in merge.rules.ts. Who: anyone
 * allowed /contacts (spec §6 `member_permissions.contacts`) who may see both contacts (their 1:1
 * chats, through the guard). Each merge and unmerge writes an audit row on both contacts
 * (ContactAudit, ACCESS_PATTERNS c6); the survivor's merge row keeps its fields before and after the
 * merge, which unmerge needs. The other contact's row stays as it was, only marked `merged_into`,
 * so unmerge gives it back whole. Contact events are not published here (the rules helper wires
 * `contact.updated` into contact.ts).
 */
const contacts = () => db().entities.contact;
const audits = () => db().entities.contactAudit;

export type AuditView = { audit_id: string; action: string; actor: string; other_contact_id: string | null; at: number };

function bad(field: string, reason: string): AppError {
  return new AppError('validation.failed', `${field}: ${reason}`, { status: 400, details: [{ field, reason }] });
}

async function writeFields(orgId: string, before: Row, f: MergeFields, extra: Record<string, unknown>, actorEmail: string): Promise<Row> {
  const after: Row = { ...before, ...f, edited_name: f.edited_name, notes: f.notes };
  after.name_key = nameKey(after);
  const set: Record<string, unknown> = { numbers: f.numbers, lids: f.lids, label_ids: f.label_ids, phone_ids: f.phone_ids, custom_properties: f.custom_properties, last_seen_at: f.last_seen_at, name_key: after.name_key, updated_by: actorEmail, ...extra };
  const remove: string[] = [];
  if (f.edited_name) set.edited_name = f.edited_name;
  else remove.push('edited_name');
  if (f.notes) set.notes = f.notes;
  else remove.push('notes');
  const stored: Row = { ...after, ...(extra as Partial<Row>), updated_by: actorEmail, updated_at: Date.now() };
  if (!f.edited_name) delete stored.edited_name;
  if (!f.notes) delete stored.notes;
  // the survivor's change and its contact.updated event in one transaction (the outbox): never one without the other
  const event = contactUpdatedEvent(orgId, before, stored, `user:${actorEmail}`);
  const ok = await commitWithEvents((e) => {
    let op = e.contact.patch({ org_id: orgId, contact_id: before.contact_id }).set(set as never);
    if (remove.length) op = op.remove(remove as never);
    return { items: [op.commit()], events: event ? [event] : [] };
  });
  if (!ok) throw notFound('contact');
  await syncFacets(orgId, before, stored);
  return stored;
}

async function audit(orgId: string, contactId: string, action: string, actor: string, other: string, snapshot?: unknown) {
  await audits().create({ org_id: orgId, contact_id: contactId, audit_id: ulid(), action, actor, other_contact_id: other, at: Date.now(), ...(snapshot ? { snapshot } : {}) }).go();
}

/**
 * POST /contacts/{contact_id}/merge `{ other_contact_id }`: merge the other contact into this one.
 * @returns the survivor as the viewer sees it
 * @throws 403 contacts.restricted / chat.no_access; 404 either contact; 400 other_contact_id is the
 *   same contact, already merged, or has contacts merged into it (unmerge those first)
 */
export async function mergeContacts(actor: Actor, contactId: string, otherId: string): Promise<ContactView> {
  await requireContactsAccess(actor);
  const guard = await chatGuard(actor);
  const survivor = await getVisible(actor, guard, contactId);
  const other = await getVisible(actor, guard, otherId);
  if (survivor.merged_into) throw bad('contact_id', 'was merged into another contact');
  if (other.contact_id === survivor.contact_id) throw bad('other_contact_id', 'is this contact');
  if (other.merged_into) throw bad('other_contact_id', 'is already merged into another contact');
  if (other.merged_ids?.length) throw bad('other_contact_id', 'has contacts merged into it: unmerge them first');
  const before = fieldsOf(survivor);
  const merged = mergedFields(survivor, other);
  // the other first: if the survivor's write fails, the other is only hidden (and shows through
  // the survivor's GET), never lost; both writes are conditional on the rows not having moved
  await contacts().patch({ org_id: actor.org_id, contact_id: other.contact_id }).set({ merged_into: survivor.contact_id }).where((a, op) => op.notExists(a.merged_into)).go();
  // its facet rows (kept for unmerge) carry its copy: now marked merged, so filters skip or map it
  await syncFacets(actor.org_id, other, { ...other, merged_into: survivor.contact_id });
  const stored = await writeFields(actor.org_id, survivor, merged, { merged_ids: [...new Set([...(survivor.merged_ids ?? []), other.contact_id])] }, actor.email.toLowerCase());
  await Promise.all([audit(actor.org_id, survivor.contact_id, 'merge', actor.email, other.contact_id, { before, merged }), audit(actor.org_id, other.contact_id, 'merged_into', actor.email, survivor.contact_id)]);
  return viewContact(stored, guard);
}

/**
 * POST /contacts/{contact_id}/unmerge `{ other_contact_id }`: split a merged contact off again. The
 * survivor gives back what the merge added (merge.rules.ts `unmergedFields`); the other comes back as
 * it was. @returns both as the viewer sees them
 * @throws 403; 404; 400 other_contact_id was not merged into this contact
 */
export async function unmergeContacts(actor: Actor, contactId: string, otherId: string): Promise<{ contact: ContactView; restored: ContactView }> {
  await requireContactsAccess(actor);
  const guard = await chatGuard(actor);
  const survivor = await getVisible(actor, guard, contactId);
  const other = await getVisible(actor, guard, otherId);
  if (other.merged_into !== survivor.contact_id || !(survivor.merged_ids ?? []).includes(other.contact_id)) throw bad('other_contact_id', 'was not merged into this contact');
  // the survivor's latest merge row for this contact (newest first; bounded page)
  const rows = (await audits().query.byContact({ org_id: actor.org_id, contact_id: survivor.contact_id }).go({ order: 'desc', limit: 200, pages: 1 })).data;
  const row = rows.find((r) => r.action === 'merge' && r.other_contact_id === other.contact_id);
  const snap = row?.snapshot as { before: MergeFields; merged: MergeFields } | undefined;
  const current = fieldsOf(survivor);
  // without a snapshot (not expected), take off exactly the other's numbers and chats
  const next = snap ? unmergedFields(current, snap.before, snap.merged) : unmergedFields(current, { ...current, numbers: current.numbers.filter((n) => !fieldsOf(other).numbers.includes(n)) }, current);
  const stored = await writeFields(actor.org_id, survivor, next, { merged_ids: (survivor.merged_ids ?? []).filter((id) => id !== other.contact_id) }, actor.email.toLowerCase());
  await contacts().patch({ org_id: actor.org_id, contact_id: other.contact_id }).remove(['merged_into']).go();
  await syncFacets(actor.org_id, other, { ...other, merged_into: undefined });
  await Promise.all([audit(actor.org_id, survivor.contact_id, 'unmerge', actor.email, other.contact_id), audit(actor.org_id, other.contact_id, 'unmerged_from', actor.email, survivor.contact_id)]);
  const restored = { ...other, merged_into: undefined };
  return { contact: viewContact(stored, guard), restored: viewContact(restored, guard) };
}

/**
 * GET /contacts/{contact_id}/merges: the contacts merged into this one (to unmerge them) and its
 * merge audit rows, newest first (at most 50). Ids sealed for masked viewers like everywhere.
 */
export async function contactMerges(actor: Actor, contactId: string): Promise<{ merged: ContactView[]; audit: AuditView[] }> {
  await requireContactsAccess(actor);
  const guard = await chatGuard(actor);
  const c = await getVisible(actor, guard, contactId);
  const [merged, rows] = await Promise.all([getMany(actor.org_id, c.merged_ids ?? []), audits().query.byContact({ org_id: actor.org_id, contact_id: c.contact_id }).go({ order: 'desc', limit: 50, pages: 1 })]);
  const seal = (id: string) => viewContact({ org_id: actor.org_id, contact_id: id } as Row, guard).contact_id;
  return {
    merged: merged.map((m) => viewContact(m, guard)),
    audit: rows.data.map((r) => ({ audit_id: r.audit_id, action: r.action, actor: r.actor, other_contact_id: r.other_contact_id ? seal(r.other_contact_id) : null, at: r.at })),
  };
}

/**
 * One person seen first by number and then by BSUID alone, or the reverse (issue 41 §2): when a
 * webhook shows both identifiers together and they point at two contacts, merge `merge` into
 * `keep` as the system (the ordinary merge: audited, with its undo on the contact page).
 * Best effort: a contact not written yet (contact-sightings is behind) or already merged is left
 * as it is and logged; the messages are stored either way.
 */
export async function mergeSamePerson(orgId: string, pair: { keep: string; merge: string }): Promise<void> {
  const system: Actor = { email: 'system', user_id: 'system', org_id: orgId, role: 'admin' };
  try {
    await mergeContacts(system, pair.keep, pair.merge);
    log('info', 'contact.same_person_merged', { org_id: orgId });
  } catch (e) {
    log('warn', 'contact.same_person_not_merged', { org_id: orgId, error: String((e as Error).message) });
  }
}
