import { z } from 'zod';
import { withCursor } from '../db/paging.ts';
import { db } from '../db/service.ts';
import { chatGuard, type ChatGuard } from '../access/guard.ts';
import type { Actor } from '../auth/actor.ts';
import { AppError, notFound } from '../errors.ts';
import { getOrgPreferences } from '../org/preferences.ts';
import { permissionGranted, RESTRICTED_MESSAGE } from '../org/permissions.rules.ts';
import { maskPhone } from '../chat/chat-access.rules.ts';
import { log } from '../log.ts';
import { enqueue } from '../ports/commands.ts';
import { assertPropertyValues } from '../property/property.ts';
import { isSealedContactId, openContactId, sealContactId } from './contact-id.ts';
import { chatIdOfContactId, isOpaqueContactId, type CustomerIdentity } from './identity.rules.ts';
import { listContactIdentifiers } from './identity.ts';
import { displayName, facetDiff, facetsOf, lastSeenDue, matchesWords, nameKey, normalizeNumber, numberQuery, splitFacet, words, type ContactLike } from './contact.rules.ts';
import { ContactListQuery, type ContactChat, type ContactDetail, type ContactIdentifierView, type ContactView, type CreateContactInput, type UpdateContactInput } from './contact.schemas.ts';

/** A contact as handed out (numbers masked for viewers who must not see them, spec §6). Times epoch ms. */
export const Contact = z.object({
  contact_id: z.string(),
  contact_name: z.string().nullable(),
  phone: z.string().nullable(),
  created_at: z.number().nullable(),
  updated_at: z.number().nullable(),
});
export type Contact = z.infer<typeof Contact>;

/**
 * The org's contacts (WhatsApp customers seen by the inbox), by contact id, one page (Query on the
 * table index, pattern: contact by org; never a Scan). Numbers pass the access guard's mask.
 * Contacts are not chat-linked rows, so no per-chat filter applies (issue 20 public API).
 */
export async function listContacts(actor: Actor, page: { limit: number; cursor?: string | null }): Promise<{ contacts: Contact[]; cursor: string | null }> {
  const guard = await chatGuard(actor);
  const res = await withCursor(page.cursor, () => db().entities.contact.query.byOrg({ org_id: actor.org_id }).go({ limit: page.limit, cursor: page.cursor ?? null, pages: 1 }));
  return {
    contacts: res.data.map((c) => ({
      contact_id: guard.mask(c.contact_id),
      contact_name: c.contact_name ?? null,
      phone: guard.mask(c.phone ?? null),
      created_at: c.created_at ?? null,
      updated_at: c.updated_at ?? null,
    })),
    cursor: res.cursor,
  };
}

// ---------------------------------------------------------------------------------------------
// /contacts (issue 15)
// ---------------------------------------------------------------------------------------------

/** A stored contact row (also used by merge.ts). */
export type Row = ContactLike & {
  org_id: string;
  lids?: string[];
  /** issue 41: BSUIDs, the current one last */
  user_ids?: string[];
  username?: string;
  notes?: string;
  name_key?: string;
  last_seen_at?: number;
  created_at?: number;
  updated_at?: number;
  source?: string;
  merged_into?: string;
  merged_ids?: string[];
  import_job_id?: string;
  updated_by?: string;
};

/** Most contacts a word or number search returns (no cursor; spec §9 caps search at 500). */
export const SEARCH_CAP = 200;
/** Most Query requests one list call makes before answering with what it has and a cursor. */
const REQUEST_BUDGET = 12;

/**
 * Spec §6: members open /contacts (and its API) only when `member_permissions.contacts` is not
 * false; admins always. @throws AppError 403 contacts.restricted with the Restricted page's words
 */
export async function requireContactsAccess(actor: Actor): Promise<void> {
  if (actor.role === 'admin') return;
  const prefs = await getOrgPreferences(actor.org_id);
  if (!permissionGranted(prefs.member_permissions, 'contacts')) throw new AppError('contacts.restricted', RESTRICTED_MESSAGE, { status: 403 });
}

/** A stored contact as the viewer may see it (guard masking of every number; a name that is a number masked too). */
export function viewContact(c: Row, guard: Pick<ChatGuard, 'mask' | 'masks'>): ContactView {
  const nm = (v: string | null | undefined): string | null => (v ? (guard.masks ? maskPhone(v) : v) : null);
  const idOf = (id: string) => (guard.masks ? sealContactId(c.org_id, id) : id);
  return {
    contact_id: idOf(c.contact_id),
    display_name: nm(displayName(c)),
    contact_name: nm(c.contact_name),
    edited_name: nm(c.edited_name),
    // a customer first seen without a number (`ctc_…`) has none until WhatsApp shares it (issue 41)
    phone: guard.mask(c.phone ?? (isOpaqueContactId(c.contact_id) ? null : c.contact_id)),
    numbers: (c.numbers?.length ? c.numbers : isOpaqueContactId(c.contact_id) ? [] : [c.contact_id]).map((n) => guard.mask(n)),
    lids: (c.lids ?? []).map((n) => guard.mask(n)),
    user_ids: c.user_ids ?? [],
    username: c.username ?? null,
    label_ids: c.label_ids ?? [],
    custom_properties: Object.fromEntries(Object.entries(c.custom_properties ?? {}).map(([k, v]) => [k, String(v)])),
    notes: c.notes ?? null,
    phone_ids: c.phone_ids ?? [],
    source: c.source ?? null,
    merged_ids: (c.merged_ids ?? []).map(idOf),
    created_at: c.created_at ?? null,
    last_seen_at: c.last_seen_at || null,
    updated_at: c.updated_at ?? null,
    updated_by: c.updated_by ?? null,
  };
}

/**
 * The stored contact id a request names: a sealed id (`cx_…`) is opened; masked viewers must use
 * sealed ids (a raw number would let them probe which numbers are contacts). @throws 404
 */
function resolveId(actor: Actor, guard: ChatGuard, id: string): string {
  if (isSealedContactId(id)) {
    const open = openContactId(actor.org_id, id);
    if (!open) throw notFound('contact');
    return open;
  }
  if (guard.masks) throw notFound('contact');
  return id;
}

/** The 1:1 chat of a contact id. */
const chatIdOf = (contactId: string) => `${contactId}@c.us`;

/**
 * Contacts the viewer may see (spec §6 through the guard): a contact whose own 1:1 chat the viewer
 * may not open is hidden (its name and details come from that chat); contacts without a chat show.
 */
async function visibleRows(guard: ChatGuard, rows: Row[]): Promise<Row[]> {
  if (guard.seesAll || !rows.length) return rows;
  const ok = await guard.visibleChatIds(rows.map((r) => chatIdOf(r.contact_id)));
  return rows.filter((r) => ok.has(chatIdOf(r.contact_id)));
}

import { createContactRow, patchContactRow } from './contact-events.ts';

const contacts = () => db().entities.contact;
const facets = () => db().entities.contactFacet;

/** Contacts by id (BatchGet, unprocessed keys retried), in the order asked; missing ones dropped. */
export async function getMany(orgId: string, ids: string[]): Promise<Row[]> {
  const uniq = [...new Set(ids)];
  const found = new Map<string, Row>();
  let keys = uniq.map((contact_id) => ({ org_id: orgId, contact_id }));
  for (let i = 0; keys.length && i < 5; i++) {
    const res = await contacts().get(keys).go({ concurrency: 4 });
    for (const r of res.data) found.set(r.contact_id, r as Row);
    keys = res.unprocessed as typeof keys;
  }
  return uniq.map((id) => found.get(id)).filter((r): r is Row => !!r);
}

/**
 * Read pages of an index asking each time for exactly what is still missing, so every row read is
 * consumed and the page's own cursor resumes right after it; `keep` drops rows on the way.
 */
async function fill<T>(run: (cursor: string | null, n: number) => Promise<{ data: T[]; cursor: string | null }>, keep: (rows: T[]) => Promise<Row[]>, want: number, start: string | null): Promise<{ rows: Row[]; cursor: string | null }> {
  const rows: Row[] = [];
  let cursor = start;
  for (let i = 0; i < REQUEST_BUDGET; i++) {
    const first = i === 0;
    const res = await withCursor(first ? start : null, () => run(cursor, want - rows.length));
    rows.push(...(await keep(res.data)));
    cursor = res.cursor;
    if (!cursor || rows.length >= want) break;
  }
  return { rows, cursor };
}

/**
 * GET /contacts: one page of the org's contacts (merged-away ones hidden), for a viewer allowed
 * the page. Reads (ACCESS_PATTERNS 6 and c1-c5, never a Scan):
 * - `q` a number (digits, not for masked viewers): begins_with on the contact id (wa_id digits);
 * - `q` words: begins_with on the `tok` facet for the first word, the others checked on the
 *   contacts read (both capped at SEARCH_CAP, no cursor);
 * - a label, property value or org number: that facet's rows, then a BatchGet of the contacts;
 * - otherwise the sort index (name, last seen, created), last-seen range as `between`.
 * Filters not driving the read are checked on the rows read.
 */
export async function listContactBook(actor: Actor, input: ContactListQuery): Promise<{ contacts: ContactView[]; cursor: string | null }> {
  await requireContactsAccess(actor);
  const parsed = ContactListQuery.safeParse(input);
  // callers with a looser schema (the CSV export, broadcast audiences) get the list's own checks as a 400
  if (!parsed.success) {
    const details = parsed.error.issues.map((i) => ({ field: `query.${i.path.join('.') || 'query'}`, reason: i.message }));
    throw new AppError('validation.failed', details.map((d) => `${d.field}: ${d.reason}`).join('; '), { status: 400, details });
  }
  const q = parsed.data;
  const guard = await chatGuard(actor);
  const orgId = actor.org_id;
  const qWords = q.q ? words(q.q) : [];
  const digits = q.q ? numberQuery(q.q) : null;
  const propKey = q.property_id && q.property_value ? `prop#${q.property_id}#${q.property_value.toLowerCase()}` : null;
  const matches = (c: Row, textChecked = false): boolean => {
    if (c.merged_into) return false;
    if (q.label_id && !(c.label_ids ?? []).includes(q.label_id)) return false;
    if (q.phone_id && !(c.phone_ids ?? []).includes(q.phone_id)) return false;
    if (q.property_id && !q.property_value && !c.custom_properties?.[q.property_id]) return false;
    if (propKey && String(c.custom_properties?.[q.property_id!] ?? '').trim().toLowerCase() !== q.property_value!.toLowerCase()) return false;
    const seen = c.last_seen_at ?? 0;
    if (q.seen_from !== undefined && seen < q.seen_from) return false;
    if (q.seen_to !== undefined && seen > q.seen_to) return false;
    if (textChecked) return true;
    if (q.q && !digits && !matchesWords(c, qWords)) return false;
    if (digits && !(c.numbers?.length ? c.numbers : [c.contact_id]).some((n) => n.startsWith(digits)) && !c.contact_id.startsWith(digits)) return false;
    return true;
  };
  const out = (rows: Row[], cursor: string | null) => ({ contacts: rows.map((r) => viewContact(r, guard)), cursor });

  if (q.q && (qWords.length || digits)) {
    let rows: Row[];
    if (digits && !guard.masks) {
      const res = await contacts().query.byOrg({ org_id: orgId }).begins({ contact_id: digits }).go({ limit: SEARCH_CAP, pages: 1 });
      rows = res.data as Row[];
    } else {
      // masked viewers cannot probe numbers: their digits search names and properties only
      const first = digits && guard.masks ? digits : qWords[0]!;
      const res = await facets().query.byFacet({ org_id: orgId, facet: 'tok' }).begins({ key: first }).go({ limit: SEARCH_CAP * 2, pages: 1 });
      rows = await rowsOfFacets(orgId, res.data);
      if (digits && guard.masks) return out((await visibleRows(guard, rows.filter((c) => !c.merged_into && matchesWords(c, [digits])))).slice(0, q.limit), null);
    }
    // a merged-away contact found by its own name or number shows as the contact it was merged into (issue 15 item 2)
    const hits = rows.filter((c) => matches({ ...c, merged_into: undefined }));
    const away = hits.filter((c) => c.merged_into);
    const found = away.length ? [...new Map([...hits.filter((c) => !c.merged_into), ...(await getMany(orgId, away.map((c) => c.merged_into!)))].map((c) => [c.contact_id, c])).values()] : hits;
    const kept = await visibleRows(guard, found.filter((c) => matches(c, true)));
    const sorted = sortRows(kept, q.sort, q.order);
    return out(sorted.slice(0, q.limit), null);
  }

  const facet = q.label_id ? `label#${q.label_id}` : propKey ? propKey.split('|')[0]! : q.phone_id ? `phone#${q.phone_id}` : null;
  if (facet) {
    const res = await fill(
      (cursor, n) => facets().query.byFacet({ org_id: orgId, facet }).go({ limit: n, cursor, pages: 1 }),
      async (fs) => visibleRows(guard, (await rowsOfFacets(orgId, fs)).filter((c) => matches(c))),
      q.limit,
      q.cursor ?? null,
    );
    return out(res.rows, res.cursor);
  }

  const desc = (q.order ?? (q.sort === 'name' ? 'asc' : 'desc')) === 'desc';
  const order = desc ? 'desc' : 'asc';
  const bySeen = q.sort === 'last_seen' || q.seen_from !== undefined || q.seen_to !== undefined;
  const res = await fill(
    (cursor, n) => {
      const opts = { limit: n, cursor, pages: 1 as const, order: order as 'asc' | 'desc' };
      if (bySeen) {
        const from = q.seen_from ?? 0;
        const to = q.seen_to ?? 99_999_999_999_999;
        return contacts().query.byLastSeen({ org_id: orgId }).between({ last_seen_at: from }, { last_seen_at: to }).go(opts);
      }
      if (q.sort === 'created') return contacts().query.byCreated({ org_id: orgId }).go(opts);
      return contacts().query.byName({ org_id: orgId }).go(opts);
    },
    async (rs) => visibleRows(guard, (rs as Row[]).filter((c) => matches(c))),
    q.limit,
    q.cursor ?? null,
  );
  return out(res.rows, res.cursor);
}

function sortRows(rows: Row[], sort: string, order?: 'asc' | 'desc'): Row[] {
  const desc = (order ?? (sort === 'name' ? 'asc' : 'desc')) === 'desc';
  const key = (r: Row): string | number => (sort === 'name' ? (r.name_key ?? nameKey(r)) : sort === 'created' ? (r.created_at ?? 0) : (r.last_seen_at ?? 0));
  return [...rows].sort((a, b) => {
    const x = key(a);
    const y = key(b);
    const c = x < y ? -1 : x > y ? 1 : 0;
    return desc ? -c : c;
  });
}

/**
 * The copy of a contact a facet row carries (`ContactFacet.c`): everything a list page shows and
 * filters on (viewContact + the list's `matches`), so a facet page needs no BatchGet. Not the
 * import job id (only the import's undo reads it, from the contact).
 */
export function facetCopy(c: Row): Row {
  const copy: Row = { ...c };
  delete copy.import_job_id;
  return copy;
}

/**
 * Write the facet rows `after` needs and delete those of `before` it no longer has (BatchWrite;
 * idempotent). When the contact's copy changed (any list field: name, numbers, labels, last seen,
 * merged state…), every facet row of `after` is rewritten with the new copy (`c`), so filter and
 * search pages read from the facet rows stay in step with the contact.
 */
export async function syncFacets(orgId: string, before: Row | null, after: Row | null): Promise<void> {
  const { remove, add } = facetDiff(before ? facetsOf(before) : [], after ? facetsOf(after) : []);
  const id = (after ?? before)!.contact_id;
  if (remove.length) await facets().delete(remove.map((f) => ({ org_id: orgId, ...splitFacet(f) }))).go({ concurrency: 2 });
  if (!after) return;
  const copy = facetCopy(after);
  const changed = !before || JSON.stringify(facetCopy(before)) !== JSON.stringify(copy);
  const put = changed ? facetsOf(after) : add;
  if (put.length) await facets().put(put.map((f) => ({ org_id: orgId, ...splitFacet(f), contact_id: id, c: copy }))).go({ concurrency: 2 });
}

/**
 * The contacts of facet rows, in their order, each once: the row's copy when it has one, else the
 * contact itself (one BatchGet for the rows written before copies existed).
 */
async function rowsOfFacets(orgId: string, fs: ReadonlyArray<{ contact_id: string; c?: unknown }>): Promise<Row[]> {
  const missing = fs.filter((f) => !f.c).map((f) => f.contact_id);
  const got = missing.length ? new Map((await getMany(orgId, missing)).map((r) => [r.contact_id, r])) : new Map<string, Row>();
  const seen = new Set<string>();
  const out: Row[] = [];
  for (const f of fs) {
    if (seen.has(f.contact_id)) continue;
    const r = (f.c as Row | undefined) ?? got.get(f.contact_id);
    if (!r) continue;
    seen.add(f.contact_id);
    out.push(r);
  }
  return out;
}

/** A contact the viewer names and may see (its 1:1 chat through the guard: 403 chat.no_access). @throws 404 */
export async function getVisible(actor: Actor, guard: ChatGuard, id: string, stored = false): Promise<Row> {
  const row = await getRow(actor.org_id, stored ? id : resolveId(actor, guard, id));
  await guard.assertChats([chatIdOf(row.contact_id)]);
  return row;
}

/** Read one contact of the org or 404. */
async function getRow(orgId: string, contactId: string): Promise<Row> {
  const row = (await contacts().get({ org_id: orgId, contact_id: contactId }).go()).data as Row | null;
  if (!row) throw notFound('contact');
  return row;
}

/**
 * The contact's chats on each of the org's numbers: the 1:1 chat of each of its numbers, LIDs and
 * merged contacts (chat id `<digits>@c.us`, BatchGet), one entry per org number the chat went
 * through (`latest_message_timestamp_map`). Chats the viewer may not open come back with
 * `has_access: false` and no name (spec §6).
 */
async function chatsOf(orgId: string, c: Row, guard: ChatGuard): Promise<ContactChat[]> {
  const ids = [...new Set([c.contact_id, ...(c.numbers ?? []), ...(c.lids ?? []), ...(c.merged_ids ?? [])])].map(chatIdOfContactId);
  const res = await db().entities.chat.get(ids.map((chat_id) => ({ org_id: orgId, chat_id }))).go({ concurrency: 4 });
  const visible = await guard.visibleChatIds(res.data.map((r) => r.chat_id));
  const out: ContactChat[] = [];
  for (const row of res.data) {
    const view = guard.viewChat(row as never);
    const ok = visible.has(row.chat_id);
    const map = (row.latest_message_timestamp_map as Record<string, number> | undefined) ?? {};
    const phones = Object.keys(map).length ? Object.keys(map) : [row.org_phone];
    for (const p of phones) out.push({ chat_id: row.chat_id, chat_name: ok ? (view.chat_name ?? null) : null, org_phone: p, latest_message_timestamp: map[p] ?? row.latest_message_timestamp ?? null, has_access: ok });
  }
  return out.sort((a, b) => (b.latest_message_timestamp ?? 0) - (a.latest_message_timestamp ?? 0));
}

/** The identifiers of a contact and of the contacts merged into it, numbers masked (issue 41 §7; one Query each, a handful). */
async function identifiersOf(orgId: string, c: Row, guard: ChatGuard): Promise<ContactIdentifierView[]> {
  const lists = await Promise.all([c.contact_id, ...(c.merged_ids ?? [])].map((id) => listContactIdentifiers(orgId, id)));
  const mask = (kind: string, v: string | null) => (kind === 'phone' && v ? guard.mask(v) : v);
  return lists.flat().map((i) => ({ ...i, value: mask(i.kind, i.value)!, replaced_by: mask(i.kind, i.replaced_by) }));
}

/** GET /contacts/{contact_id}: the contact and its chats across the org's numbers. A merged-away id answers with the contact it was merged into. */
export async function getContact(actor: Actor, contactId: string): Promise<ContactDetail> {
  await requireContactsAccess(actor);
  const guard = await chatGuard(actor);
  let row = await getVisible(actor, guard, contactId);
  if (row.merged_into) row = await getVisible(actor, guard, row.merged_into, true);
  const [chats, identifiers] = await Promise.all([chatsOf(actor.org_id, row, guard), identifiersOf(actor.org_id, row, guard)]);
  return { contact: viewContact(row, guard), chats, identifiers };
}

const cleanProps = (p: Record<string, string> | undefined, base: Record<string, unknown> = {}): Record<string, string> => {
  const next: Record<string, string> = Object.fromEntries(Object.entries(base).map(([k, v]) => [k, String(v)]));
  for (const [k, v] of Object.entries(p ?? {})) {
    if (v.trim()) next[k] = v.trim();
    else delete next[k];
  }
  return next;
};

/**
 * POST /contacts: a contact typed in by a member. The number is read with libphonenumber-js
 * (E.164, default country IN); its digits are the contact id, so the person's WhatsApp messages
 * later land on this contact. @throws 400 validation.failed (phone), 409 contact.exists
 */
export async function createContact(actor: Actor, input: CreateContactInput): Promise<ContactView> {
  await requireContactsAccess(actor);
  const guard = await chatGuard(actor);
  if (input.custom_properties) await assertPropertyValues(actor.org_id, input.custom_properties);
  const digits = normalizeNumber(input.phone);
  if (!digits) throw new AppError('validation.failed', 'phone: is not a valid phone number', { status: 400, details: [{ field: 'phone', reason: 'is not a valid phone number' }] });
  const now = Date.now();
  const row: Row = {
    org_id: actor.org_id,
    contact_id: digits,
    phone: digits,
    numbers: [digits],
    edited_name: input.name?.trim() || undefined,
    label_ids: input.label_ids ?? [],
    custom_properties: cleanProps(input.custom_properties),
    notes: input.notes || undefined,
    phone_ids: [],
    source: 'manual',
    updated_by: actor.email.toLowerCase(),
    // never seen on WhatsApp: 0 keeps the by-last-seen index key whole (shown as null)
    last_seen_at: 0,
    created_at: now,
  };
  row.name_key = nameKey(row);
  // issue 17: the row and its contact.created (the rules' "contact created" trigger) in one transaction
  if (!(await createContactRow(actor.org_id, row, `user:${actor.email}`))) throw new AppError('contact.exists', 'A contact with this number already exists.', { status: 409 });
  await syncFacets(actor.org_id, null, row);
  return viewContact(row, guard);
}

/** PATCH /contacts/{contact_id}: edited name, labels, properties, notes. @throws 404 contact.not_found */
export async function updateContact(actor: Actor, contactId: string, input: UpdateContactInput): Promise<ContactView> {
  await requireContactsAccess(actor);
  const guard = await chatGuard(actor);
  if (input.custom_properties) await assertPropertyValues(actor.org_id, input.custom_properties);
  const before = await getVisible(actor, guard, contactId);
  const after: Row = { ...before };
  if (input.name !== undefined) after.edited_name = input.name.trim() || undefined;
  if (input.label_ids !== undefined) after.label_ids = [...new Set(input.label_ids)];
  if (input.custom_properties !== undefined) after.custom_properties = cleanProps(input.custom_properties, before.custom_properties ?? {});
  if (input.notes !== undefined) after.notes = input.notes || undefined;
  after.name_key = nameKey(after);
  const set: Record<string, unknown> = { name_key: after.name_key, label_ids: after.label_ids ?? [], custom_properties: after.custom_properties ?? {}, updated_by: actor.email.toLowerCase() };
  const remove: string[] = [];
  if (after.edited_name) set.edited_name = after.edited_name;
  else remove.push('edited_name');
  if (after.notes) set.notes = after.notes;
  else remove.push('notes');
  const stored: Row = { ...after, updated_by: set.updated_by as string, updated_at: Date.now() };
  if (!after.edited_name) delete stored.edited_name;
  if (!after.notes) delete stored.notes;
  // issue 17: the patch and its contact.updated (the rules' "custom property changed" trigger, property_changes with from / to) in one transaction
  if (!(await patchContactRow(actor.org_id, before, stored, set, remove, `user:${actor.email}`))) throw notFound('contact');
  await syncFacets(actor.org_id, before, stored);
  return viewContact(stored, guard);
}

/**
 * DELETE /contacts/{contact_id}: removes the contact and its facet rows; its chats and messages are
 * kept (issue 15), and the person's next message creates a new contact. @throws 404 contact.not_found
 */
export async function deleteContact(actor: Actor, contactId: string): Promise<{ deleted: true; contact_id: string }> {
  await requireContactsAccess(actor);
  const guard = await chatGuard(actor);
  const before = await getVisible(actor, guard, contactId);
  await contacts().delete({ org_id: actor.org_id, contact_id: before.contact_id }).go();
  await syncFacets(actor.org_id, before, null);
  return { deleted: true, contact_id: contactId };
}

/** What an inbound customer message tells about its sender (shared/inbox/ingest.ts). Times epoch ms. */
export interface ContactSighting {
  /** the sender's key in the chat's members: the number (digits), or for a customer without one the contact id */
  wa_id: string;
  /** the contact id ingest resolved (issue 41: a BSUID-only customer's `ctc_…`, or the contact a number or BSUID points at); default `wa_id` */
  contact_id?: string;
  /** every identifier the webhook gave of the sender (issue 41) */
  identity?: CustomerIdentity;
  name?: string;
  at: number;
  phone_id: string;
  /** the WhatsApp Web LID of the person, when the connector knows it */
  lid?: string;
}

/**
 * Hand the senders an ingest batch saw to the contact-sightings queue (issue 23): their contacts are
 * created or refreshed there (touchContacts), so a burst of new senders (a busy group, many new
 * chats) no longer waits on contact writes before the chat's next messages are stored. One record
 * per call, `{ org_id, sightings }` (touchContacts keeps each person's newest). A failed enqueue is
 * logged, never thrown: the messages are stored, and the backfill (scripts/backfill-contacts.ts)
 * repairs a contact left unwritten.
 */
export async function queueContactSightings(orgId: string, sightings: ContactSighting[]): Promise<void> {
  if (!sightings.length) return;
  try {
    await enqueue('contact-sightings', { org_id: orgId, sightings });
  } catch (e) {
    log('warn', 'contact.sightings_not_queued', { org_id: orgId, count: sightings.length, error: String((e as Error).message) });
  }
}

/**
 * Create or refresh the contacts of inbound senders (issue 15): created on a person's first message
 * (idempotent: a conditional create, then a patch), renamed when the profile name changes (the
 * edited name stays in front), last-seen moved at most every LAST_SEEN_STEP_MS, the org number and
 * LID added. One BatchGet for the sightings, a write only when something changes. Called by the
 * contact-sightings consumer with what ingest queued (queueContactSightings): only senders new to
 * the chat, renamed, or whose last message is older than the step (ingest decides), so a busy
 * chat costs nothing here. Failures are logged; with `rethrow` (the queue consumer) the first one
 * is thrown after every sighting was tried, so the queue retries the record (a retry only writes
 * what is still missing). Without it nothing is thrown, and the backfill (scripts/backfill-contacts.ts)
 * repairs a contact left unwritten.
 */
export async function touchContacts(orgId: string, sightings: ContactSighting[], opts: { rethrow?: boolean } = {}): Promise<void> {
  if (!sightings.length) return;
  // one sighting per person (the newest), their rows in one BatchGet, then 8 writes in flight
  const byId = new Map<string, ContactSighting>();
  for (const s of sightings) {
    const id = sightingContactId(s);
    const prev = byId.get(id);
    byId.set(id, prev && prev.at > s.at ? { ...prev, lid: prev.lid ?? s.lid, identity: { ...s.identity, ...prev.identity } } : { ...s, lid: s.lid ?? prev?.lid, name: s.name ?? prev?.name, identity: { ...prev?.identity, ...s.identity } });
  }
  let rows: Map<string, Row>;
  try {
    rows = new Map((await getMany(orgId, [...byId.keys()])).map((r) => [r.contact_id, r]));
  } catch (e) {
    log('warn', 'contact.touch_failed', { org_id: orgId, error: String((e as Error).message) });
    if (opts.rethrow) throw e;
    return;
  }
  const queue = [...byId.values()];
  let failed: unknown;
  const worker = async () => {
    for (let s = queue.shift(); s; s = queue.shift()) {
      try {
        await touchOne(orgId, s, rows.get(sightingContactId(s)) ?? null);
      } catch (e) {
        failed ??= e;
        log('warn', 'contact.touch_failed', { org_id: orgId, error: String((e as Error).message) });
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(8, queue.length) }, worker));
  if (opts.rethrow && failed) throw failed;
}

/** The contact a sighting is about (issue 41: the resolved contact, else the sender's number). */
const sightingContactId = (s: ContactSighting): string => s.contact_id ?? s.wa_id;

/** The sighting's number: the identity's, else the sender key when it is a number (not an opaque contact id). */
const sightingNumber = (s: ContactSighting): string | undefined => s.identity?.wa_id ?? (isOpaqueContactId(s.wa_id) ? undefined : s.wa_id);

async function touchOne(orgId: string, s: ContactSighting, known: Row | null | undefined, attempt = 0): Promise<void> {
  const cid = sightingContactId(s);
  const number = sightingNumber(s);
  const existing = known !== undefined ? known : ((await contacts().get({ org_id: orgId, contact_id: cid }).go()).data as Row | null);
  if (!existing) {
    const row: Row = {
      org_id: orgId,
      contact_id: cid,
      contact_name: s.name || undefined,
      ...(number ? { phone: number } : {}),
      numbers: number ? [number] : [],
      ...(s.identity?.user_id ? { user_ids: [s.identity.user_id] } : {}),
      ...(s.identity?.username ? { username: s.identity.username } : {}),
      lids: s.lid ? [s.lid] : [],
      phone_ids: [s.phone_id],
      label_ids: [],
      custom_properties: {},
      last_seen_at: s.at,
      source: 'whatsapp',
      created_at: s.at,
    };
    row.name_key = nameKey(row);
    // issue 17: the row and its contact.created (the rules' "contact created" trigger: a person's first message) in one transaction
    if (!(await createContactRow(orgId, row, 'system'))) {
      if (attempt < 2) return touchOne(orgId, s, undefined, attempt + 1);
      throw new Error(`contact ${cid} kept changing while it was created`);
    }
    await syncFacets(orgId, null, row);
    return;
  }
  const set: Record<string, unknown> = {};
  const after: Row = { ...existing };
  if (s.name && s.name !== existing.contact_name) {
    after.contact_name = s.name;
    set.contact_name = s.name;
    const k = nameKey(after);
    if (k !== existing.name_key) set.name_key = after.name_key = k;
  }
  if (lastSeenDue(existing.last_seen_at, s.at)) set.last_seen_at = after.last_seen_at = s.at;
  if (!(existing.phone_ids ?? []).includes(s.phone_id)) set.phone_ids = after.phone_ids = [...(existing.phone_ids ?? []), s.phone_id];
  if (s.lid && !(existing.lids ?? []).includes(s.lid)) set.lids = after.lids = [...(existing.lids ?? []), s.lid];
  // issue 41: a number WhatsApp shared later, a new BSUID (the current one last), a new username
  if (number && !(existing.numbers ?? []).includes(number)) {
    set.numbers = after.numbers = [...(existing.numbers ?? []), number];
    if (!existing.phone) set.phone = after.phone = number;
  }
  const uid = s.identity?.user_id;
  if (uid && (existing.user_ids ?? []).at(-1) !== uid) set.user_ids = after.user_ids = [...(existing.user_ids ?? []).filter((u) => u !== uid), uid];
  if (s.identity?.username && s.identity.username !== existing.username) set.username = after.username = s.identity.username;
  if (!Object.keys(set).length) return;
  await contacts().patch({ org_id: orgId, contact_id: cid }).set(set as never).go();
  // the facet rows carry a copy of the contact (last seen, LIDs too): rewritten with it
  await syncFacets(orgId, existing, after);
  // a merged-away contact's messages keep the contact it was merged into fresh
  if (existing.merged_into && set.last_seen_at !== undefined) await contacts().patch({ org_id: orgId, contact_id: existing.merged_into }).set({ last_seen_at: s.at } as never).go().catch(() => undefined);
}

type ChatRowLite = { chat_id: string; chat_type: string; chat_name?: string; phone_id: string; members?: unknown; last_customer_message_at?: unknown; latest_message_timestamp: number; created_at?: number };

/**
 * Backfill: a contact for every 1:1 chat of the org that has none (chats read page by page from the
 * recent-chats index, contacts by BatchGet; idempotent, safe to run twice).
 * @returns how many chats were read and contacts created
 */
export async function backfillContacts(orgId: string, opts: { pageSize?: number } = {}): Promise<{ chats: number; created: number }> {
  let cursor: string | null = null;
  let chats = 0;
  let created = 0;
  do {
    const res: { data: ChatRowLite[]; cursor: string | null } = (await db().entities.chat.query.byRecent({ org_id: orgId }).go({ limit: opts.pageSize ?? 200, cursor, pages: 1 })) as never;
    cursor = res.cursor;
    // issue 41: opaque chats (`cht_…`) get their contact from ingest, keyed by their identifiers, never from the chat id
    const users = res.data.filter((c) => c.chat_type === 'user' && c.chat_id.endsWith('@c.us'));
    chats += res.data.length;
    const ids = users.map((c) => c.chat_id.replace(/@.*$/, ''));
    const have = new Set((await getMany(orgId, ids)).map((r) => r.contact_id));
    for (const c of users) {
      const wa = c.chat_id.replace(/@.*$/, '');
      if (have.has(wa)) continue;
      const members = (c.members as Record<string, { contact_name?: string }> | undefined) ?? {};
      const lastCustomer = Math.max(0, ...Object.values((c.last_customer_message_at as Record<string, number> | undefined) ?? {}));
      const row: Row = {
        org_id: orgId,
        contact_id: wa,
        contact_name: members[wa]?.contact_name ?? c.chat_name ?? undefined,
        phone: wa,
        numbers: [wa],
        lids: [],
        phone_ids: [c.phone_id],
        label_ids: [],
        custom_properties: {},
        last_seen_at: lastCustomer || c.latest_message_timestamp,
        source: 'backfill',
        created_at: c.created_at ?? c.latest_message_timestamp,
      };
      row.name_key = nameKey(row);
      try {
        await contacts().create(row as never).go();
        await syncFacets(orgId, null, row);
        created++;
      } catch (e) {
        if (!/conditional/i.test(String((e as Error).message))) throw e;
      }
    }
  } while (cursor);
  return { chats, created };
}
