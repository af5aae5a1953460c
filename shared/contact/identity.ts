import { db } from '../db/service.ts';
import { log } from '../log.ts';
import type { NormalizedMessage } from '../whatsapp/cloud/normalize.ts';
import { customerIdKey, resolveCustomer, type CustomerIdKind } from './identity.rules.ts';
import { opaqueIdsFor } from './opaque-id.ts';

/**
 * Use cases of customer identity (issue 41 §2): which chat and contact an inbound message's sender
 * is, from the identifier lookup rows (CustomerIdEntity), and keeping those rows as WhatsApp shows
 * identifiers together or announces new ones. Times are epoch **ms**.
 */

type IdRow = { org_id: string; id_key: string; kind: CustomerIdKind; value: string; chat_id: string; contact_id: string; waba_id?: string; first_seen_at: number; replaced_by?: string; replaced_at?: number };

const ids = () => db().entities.customerId;

/** Two contacts found to be one person (a number and a BSUID first seen apart): the caller merges `merge` into `keep`. */
export interface IdentityConflict {
  keep: string;
  merge: string;
}

/**
 * Resolve the senders of a batch of inbound Cloud API messages of one org (in place): a 1:1
 * customer message gets the chat and contact of the person it is (`chat_id`, `contact_id`). One
 * BatchGet of the identifiers' lookup rows for the batch; a row is written (conditional create)
 * only for an identifier seen for the first time, and before the messages are stored, so a
 * redelivery after a crash finds the same chat. A system message announcing a new number or BSUID,
 * or a shared number (contact request), adds the new identifier to the same chat and contact and
 * marks the old one replaced. Groups, the business's own messages and WhatsApp Web messages are
 * left as they are.
 * @param msgs messages of one org (any order; handled in timestamp order)
 * @returns contacts found to be one person (to merge after the messages are stored)
 * @throws on infrastructure errors (the caller fails the batch, so the queue retries it)
 */
export async function resolveInboundCustomers(orgId: string, wabaId: string | undefined, msgs: NormalizedMessage[]): Promise<IdentityConflict[]> {
  const users = msgs.filter((m) => m.chat_type === 'user' && !m.from_me && (m.sender_identity?.user_id || m.sender_identity?.wa_id)).sort((a, b) => a.timestamp - b.timestamp);
  if (!users.length) return [];
  const wanted = new Set<string>();
  for (const m of users) {
    const id = m.sender_identity!;
    if (id.user_id) wanted.add(customerIdKey('bsuid', id.user_id));
    if (id.wa_id) wanted.add(customerIdKey('phone', id.wa_id));
    if (id.parent_user_id) wanted.add(customerIdKey('parent_bsuid', id.parent_user_id));
    if (m.identity_change) wanted.add(customerIdKey(m.identity_change.kind, m.identity_change.to));
  }
  const rows = await getRows(orgId, [...wanted]);
  const creates = new Map<string, IdRow>();
  const replaced = new Map<string, { replaced_by: string; replaced_at: number }>();
  const conflicts: IdentityConflict[] = [];
  const now = Date.now();
  const ensure = (kind: CustomerIdKind, value: string | undefined, chat_id: string, contact_id: string) => {
    if (!value) return;
    const key = customerIdKey(kind, value);
    if (rows.has(key)) return;
    const row: IdRow = { org_id: orgId, id_key: key, kind, value, chat_id, contact_id, first_seen_at: now, ...(wabaId ? { waba_id: wabaId } : {}) };
    rows.set(key, row);
    creates.set(key, row);
  };
  for (const m of users) {
    const id = m.sender_identity!;
    const r = resolveCustomer(id, { bsuid: id.user_id ? rows.get(customerIdKey('bsuid', id.user_id)) : undefined, phone: id.wa_id ? rows.get(customerIdKey('phone', id.wa_id)) : undefined }, opaqueIdsFor);
    if (!r) continue;
    m.chat_id = r.chat_id;
    m.contact_id = r.contact_id;
    if (r.conflict && !conflicts.some((c) => c.merge === r.conflict!.merge)) conflicts.push(r.conflict);
    ensure('bsuid', id.user_id, r.chat_id, r.contact_id);
    ensure('phone', id.wa_id, r.chat_id, r.contact_id);
    ensure('parent_bsuid', id.parent_user_id, r.chat_id, r.contact_id);
    const change = m.identity_change;
    if (change) {
      ensure(change.kind, change.to, r.chat_id, r.contact_id);
      if (change.from && change.kind !== 'phone') replaced.set(customerIdKey(change.kind, change.from), { replaced_by: change.to, replaced_at: m.timestamp });
      // a number change replaces the old number; a shared number (contact request) replaces nothing
      if (change.from && change.kind === 'phone' && m.message_type === 'system') replaced.set(customerIdKey('phone', change.from), { replaced_by: change.to, replaced_at: m.timestamp });
    }
  }
  await Promise.all([...creates.values()].map((row) => createRow(row)));
  await Promise.all(
    [...replaced].map(([key, set]) =>
      ids()
        .patch({ org_id: orgId, id_key: key })
        .set(set)
        .go()
        .catch((e: unknown) => {
          // the old identifier was never seen (nothing to mark), or the row went: not an error
          if (!/conditional/i.test(String((e as Error).message))) throw e;
        }),
    ),
  );
  return conflicts;
}

/** The lookup rows of `keys` (BatchGet, unprocessed keys read again). */
async function getRows(orgId: string, keys: string[]): Promise<Map<string, IdRow>> {
  const out = new Map<string, IdRow>();
  let pending = keys.map((id_key) => ({ org_id: orgId, id_key }));
  for (let attempt = 0; pending.length && attempt < 5; attempt++) {
    const got = await ids().get(pending).go();
    for (const r of got.data as IdRow[]) out.set(r.id_key, r);
    pending = (got.unprocessed ?? []) as typeof pending;
  }
  if (pending.length) throw new Error(`customer ids: ${pending.length} keys left unprocessed`);
  return out;
}

/** Create a lookup row unless one exists (a concurrent first message of the same person wrote it: theirs stands). */
async function createRow(row: IdRow): Promise<void> {
  try {
    await ids().create(row).go();
  } catch (e) {
    if (!/conditional/i.test(String((e as Error).message))) throw e;
    log('info', 'customer_id.exists', { org_id: row.org_id, kind: row.kind });
  }
}

/** An identifier of a contact as the contact panel lists it (issue 41 §7). Times epoch ms. */
export interface ContactIdentifier {
  kind: CustomerIdKind;
  value: string;
  first_seen_at: number;
  replaced_by: string | null;
  replaced_at: number | null;
}

/**
 * The identifiers of a contact with their history, oldest first (one Query of gsi1; a contact has a
 * handful). Numbers come back as stored: the caller masks them for viewers who may not see them.
 */
export async function listContactIdentifiers(orgId: string, contactId: string): Promise<ContactIdentifier[]> {
  const res = await ids().query.byContact({ org_id: orgId, contact_id: contactId }).go({ limit: 100, pages: 1 });
  return (res.data as IdRow[])
    .map((r) => ({ kind: r.kind, value: r.value, first_seen_at: r.first_seen_at, replaced_by: r.replaced_by ?? null, replaced_at: r.replaced_at ?? null }))
    .sort((a, b) => a.first_seen_at - b.first_seen_at);
}

/**
 * Migration step (issue 41): a `phone` lookup row for each 1:1 chat stored before identifiers had
 * rows (`<digits>@c.us` -> that chat, contact `<digits>`), so a number first written to before 2026
 * is recognised when WhatsApp later shows it beside a BSUID (one person, one contact). Reads the
 * existing rows first (BatchGet) and creates only the missing ones, each conditionally: a row ingest
 * wrote meanwhile stands. Idempotent: a second run reads and writes nothing new.
 * @param chats chat rows of one Scan page (any org; groups and opaque chats are skipped)
 * @returns rows created
 */
export async function backfillPhoneIds(chats: Array<{ org_id: string; chat_id: string; chat_type?: string; created_at?: number; latest_message_timestamp?: number }>): Promise<number> {
  const wanted = chats
    .filter((c) => c.chat_type === 'user' && /^\d+@c\.us$/.test(c.chat_id))
    .map((c) => {
      const digits = c.chat_id.slice(0, -5);
      return { org_id: c.org_id, id_key: customerIdKey('phone', digits), kind: 'phone' as const, value: digits, chat_id: c.chat_id, contact_id: digits, first_seen_at: c.created_at ?? c.latest_message_timestamp ?? Date.now() };
    });
  if (!wanted.length) return 0;
  const got = await ids()
    .get(wanted.map(({ org_id, id_key }) => ({ org_id, id_key })))
    .go({ concurrency: 4 });
  if (got.unprocessed?.length) throw new Error(`customer ids: ${got.unprocessed.length} keys left unprocessed`);
  const have = new Set((got.data as IdRow[]).map((r) => `${r.org_id}|${r.id_key}`));
  const missing = wanted.filter((r) => !have.has(`${r.org_id}|${r.id_key}`));
  let created = 0;
  const queue = [...missing];
  await Promise.all(
    Array.from({ length: Math.min(16, queue.length) }, async () => {
      for (let r = queue.shift(); r; r = queue.shift()) {
        try {
          await ids().create(r).go();
          created++;
        } catch (e) {
          if (!/conditional/i.test(String((e as Error).message))) throw e;
        }
      }
    }),
  );
  return created;
}
