import { db } from '../db/service.ts';
import { badCursor, checkKeyCursor, collectFiltered, keyCursor } from '../db/paging.ts';
import type { Actor } from '../auth/actor.ts';
import { chatGuard, type ChatGuard } from '../access/guard.ts';
import { searchPort } from '../ports/search.ts';
import { toTicketWire } from './ticket.ts';
import { TicketEntity } from './ticket.entity.ts';
import type { ListTicketsQuery, Ticket } from './ticket.schemas.ts';
import { compareTickets, matchesTicketFilter } from './ticket-list.rules.ts';

/**
 * GET /tickets: one Query on the index that serves the most selective filter (or the sort), the
 * other filters as a filter expression on that Query's pages. Never a Scan.
 *
 * Index choice (ACCESS_PATTERNS.md 14-21):
 *   sort due_asc -> byDue (due range as a key condition); sort updated_desc -> byUpdated;
 *   otherwise label -> label rows (ticket copies); status + assignee -> byStatusAssignee;
 *   assignee -> byAssignee; status -> byStatus;
 *   priority -> byPriority; phone -> byPhone; a due range alone -> byDue (listed by due date);
 *   nothing -> byId (table, newest first).
 *   sort priority_desc without a priority filter -> byPriority 3, then 2, then 1.
 *
 * A subject search (`q`) goes through the search port instead (searchTickets).
 * Filtered Queries read at most READ_BUDGET (shared/db/paging.ts) items per call; when the budget runs out before a
 * page is full the answer has fewer tickets and a cursor, so a rare filter stays fast and the UI
 * offers 'Load more'. The cursor is opaque: base64url JSON `{ p?: priority, c: ElectroDB cursor }`.
 * Tickets of chats the actor may not see are skipped page by page through the guard
 * (shared/access/guard.ts pageFilter), so pages stay full and the cursor resumes after the last
 * ticket handed out.
 */

type TicketItem = Parameters<typeof toTicketWire>[0];
type Filters = Omit<ListTicketsQuery, 'sort' | 'limit' | 'cursor'> & { assignee?: string };
interface Cursor {
  /** priority being read (priority_desc sort over all priorities) */
  p?: number;
  /** ElectroDB cursor of the index Query */
  c?: string | null;
  /** offset into subject-search results */
  o?: number;
}

/** Ticket search results are capped at 500 (spec §9). */
export const SEARCH_CAP = 500;

const encode = (c: Cursor) => Buffer.from(JSON.stringify(c)).toString('base64url');
/**
 * A cursor this list handed out, or a 400 on `query.cursor`: an object of only `p` (a priority
 * 1..3), `c` (a key cursor, checkKeyCursor) and `o` (an offset), one of them at least.
 */
function decode(s: string | undefined): Cursor | undefined {
  if (!s) return undefined;
  let c: Cursor;
  try {
    c = JSON.parse(Buffer.from(s, 'base64url').toString('utf8')) as Cursor;
    const keys = c && typeof c === 'object' && !Array.isArray(c) ? Object.keys(c) : [];
    const ok =
      keys.length > 0 &&
      keys.every((k) => k === 'p' || k === 'c' || k === 'o') &&
      (c.p === undefined || (Number.isInteger(c.p) && c.p >= 1 && c.p <= 3)) &&
      (c.c == null || typeof c.c === 'string') &&
      (c.o === undefined || (Number.isInteger(c.o) && c.o >= 0 && c.o <= SEARCH_CAP));
    if (!ok) throw new Error('shape');
  } catch {
    throw badCursor();
  }
  checkKeyCursor(c.c);
  return c;
}

/** Does a ticket pass the filters the chosen index did not apply? (applied after read; cheap; the same rule the web app applies to live tickets) */
const matches = (t: TicketItem, f: Filters): boolean => matchesTicketFilter(t, f);

const filtered = (f: Filters) => Object.values(f).some((v) => v !== undefined && v !== '');

interface Page {
  items: TicketItem[];
  cursor: string | null;
}

/** collectFiltered over a ticket index with the filters the index did not apply, hiding tickets of chats the viewer may not see. */
const collector =
  (guard: ChatGuard) =>
  (run: (cursor: string | null, limit: number) => Promise<{ data: TicketItem[]; cursor: string | null }>, toCursor: (item: Record<string, unknown>) => string, f: Filters, want: number, start: string | null): Promise<Page> =>
    collectFiltered(run, toCursor, filtered(f) ? (t) => matches(t, f) : null, want, start, guard.pageFilter<TicketItem>((t) => t.chat_id));

async function getTickets(orgId: string, ids: string[]): Promise<Map<string, TicketItem>> {
  const out = new Map<string, TicketItem>();
  let keys = ids.map((ticket_id) => ({ org_id: orgId, ticket_id }));
  for (let attempt = 0; keys.length && attempt < 5; attempt++) {
    const res = await db().entities.ticket.get(keys).go({ concurrency: 5 });
    for (const t of res.data) out.set(t.ticket_id, t);
    keys = res.unprocessed as typeof keys;
  }
  return out;
}

/**
 * Subject search: the search port gives the org's best 500 matches (ids), filtered in the engine
 * by status, assignee and number (the ticket document's meta); the tickets are read by key
 * (BatchGet), every filter is checked again on the rows (a document can trail its row by the
 * event delivery time), the sort applies to them, and the cursor is an offset into the hits.
 * With no filter beyond those three, a creation sort and a viewer who sees every chat (admins),
 * the page is built from the documents alone (ticket ids are ULIDs, so ids sort by creation; each
 * document carries the Ticket wire as its `view`): no read of the rows, so a search page costs the
 * search call (issue 14 item 8). Such a page shows each ticket as of its document, which trails a
 * change by the event delivery time (milliseconds locally, about a second in AWS), as the hits
 * themselves do; documents without a view (indexed before it was kept) are read by key. The
 * guard's view (masking) applies either way. Other viewers: every hit's row is read and passed
 * through the guard's filter, as before.
 */
async function searchTickets(actor: Actor, guard: ChatGuard, q: string, others: Filters, sort: ListTicketsQuery['sort'], limit: number, offset: number): Promise<{ tickets: Ticket[]; cursor: string | null }> {
  const { status, assignee, phone_id, ...rest } = others;
  const filter = { ...(status ? { status } : {}), ...(assignee ? { assignee } : {}), ...(phone_id ? { phone_id } : {}) };
  const hits = await (await searchPort()).search('tickets', actor.org_id, q, SEARCH_CAP, Object.keys(filter).length ? { filter } : undefined);
  const next = (total: number) => (offset + limit < total ? encode({ o: offset + limit }) : null);
  const view = (t: TicketItem) => guard.viewTicket(toTicketWire(t));
  // the page-only read needs every hit visible: only for a viewer who sees every chat
  if (guard.seesAll && !filtered(rest) && (sort === 'created_desc' || sort === 'created_asc')) {
    const ids = hits.map((h) => h.id).sort();
    if (sort === 'created_desc') ids.reverse();
    const page = ids.slice(offset, offset + limit);
    // the page's tickets as their documents hold them (the Ticket wire as of the document's
    // version); only documents indexed before they carried it are read by key
    const docs = new Map(hits.map((h) => [h.id, h.doc?.view as TicketItem | undefined]));
    const missing = page.filter((id) => !docs.get(id));
    const got = missing.length ? await getTickets(actor.org_id, missing) : new Map<string, TicketItem>();
    const rowOf = (id: string) => docs.get(id) ?? got.get(id);
    return { tickets: page.flatMap((id) => (rowOf(id) && matches(rowOf(id)!, others) ? [view(rowOf(id)!)] : [])), cursor: next(ids.length) };
  }
  const got = await getTickets(actor.org_id, hits.map((h) => h.id));
  const all = (await guard.filter([...got.values()], (t) => t.chat_id)).filter((t) => matches(t, others)).sort(compareTickets(sort));
  return { tickets: all.slice(offset, offset + limit).map(view), cursor: next(all.length) };
}

/** Tickets of the actor's org for a filter/sort, cursor paged. `assignee: 'me'` is the actor. */
export async function listTickets(actor: Actor, query: ListTicketsQuery): Promise<{ tickets: Ticket[]; cursor: string | null }> {
  const { sort, limit, cursor: rawCursor, ...rest } = query;
  const f: Filters = { ...rest, assignee: rest.assignee === 'me' ? actor.email : rest.assignee };
  for (const k of Object.keys(f) as Array<keyof Filters>) if (f[k] === undefined || f[k] === '') delete f[k];
  const cur = decode(rawCursor);
  const org = actor.org_id;
  const guard = await chatGuard(actor);
  const collect = collector(guard);
  const t = db().entities.ticket;
  const order = sort === 'created_asc' || sort === 'due_asc' ? 'asc' : 'desc';
  const go = (q: { go: (o: object) => Promise<{ data: unknown[]; cursor: string | null }> }) => (cursor: string | null, lim: number) =>
    q.go({ order, cursor, limit: lim, pages: 1, data: 'includeKeys' }) as Promise<{ data: TicketItem[]; cursor: string | null }>;
  const ti = TicketEntity.schema.indexes;
  const cursorOf = (index: keyof typeof ti) => keyCursor((ti[index] as { index?: string }).index);
  if (f.q) return searchTickets(actor, guard, f.q, { ...f, q: undefined }, sort, limit, cur?.o ?? 0);
  const view = (t: TicketItem) => guard.viewTicket(toTicketWire(t));
  const done = (page: Page, p?: number) => ({ tickets: page.items.map(view), cursor: page.cursor ? encode({ p, c: page.cursor }) : null });

  if (sort === 'due_asc') {
    const { due_from: from, due_to: to, ...others } = f;
    const base = t.query.byDue({ org_id: org });
    const q = from !== undefined || to !== undefined ? base.between({ due_key: String(from ?? 0).padStart(15, '0') }, { due_key: `${String(to ?? 999999999999999).padStart(15, '0')}~` }) : base;
    return done(await collect(go(q), cursorOf('byDue'), others, limit, cur?.c ?? null));
  }
  if (sort === 'updated_desc') return done(await collect(go(t.query.byUpdated({ org_id: org })), cursorOf('byUpdated'), f, limit, cur?.c ?? null));
  if (sort === 'priority_desc' && f.priority === undefined) {
    const out: TicketItem[] = [];
    let p = cur?.p ?? 3;
    let c = cur?.c ?? null;
    while (p >= 1) {
      const page = await collect(go(t.query.byPriority({ org_id: org, priority: p })), cursorOf('byPriority'), f, limit - out.length, c);
      out.push(...page.items);
      if (page.cursor) return done({ items: out, cursor: page.cursor }, p);
      p--;
      c = null;
      if (out.length >= limit && p >= 1) return { tickets: out.map(view), cursor: encode({ p, c: null }) };
    }
    return done({ items: out, cursor: null });
  }

  // created order (desc or asc): pick the index of the most selective filter
  if (f.label) {
    const label = f.label;
    const links = db().entities.ticketLabelLink;
    const linkKeys = new Map<string, string>();
    const runLinks = async (cursor: string | null, lim: number) => {
      const res = await links.query.byLabel({ org_id: org, label_id: label }).go({ order, cursor, limit: lim, pages: 1, data: 'includeKeys' });
      for (const l of res.data) linkKeys.set(l.ticket_id, keyCursor(undefined)(l as unknown as Record<string, unknown>));
      return { data: res.data.map((l) => l.ticket as TicketItem), cursor: res.cursor ?? null };
    };
    const linkCursor = (item: Record<string, unknown>) => linkKeys.get(item.ticket_id as string)!;
    return done(await collect(runLinks, linkCursor, { ...f, label: undefined }, limit, cur?.c ?? null));
  }
  if (f.assignee && f.status) return done(await collect(go(t.query.byStatusAssignee({ org_id: org, status: f.status, assignee_key: f.assignee })), cursorOf('byStatusAssignee'), { ...f, assignee: undefined, status: undefined }, limit, cur?.c ?? null));
  if (f.assignee) return done(await collect(go(t.query.byAssignee({ org_id: org, assignee_key: f.assignee })), cursorOf('byAssignee'), { ...f, assignee: undefined }, limit, cur?.c ?? null));
  if (f.status) return done(await collect(go(t.query.byStatus({ org_id: org, status: f.status })), cursorOf('byStatus'), { ...f, status: undefined }, limit, cur?.c ?? null));
  if (f.priority) return done(await collect(go(t.query.byPriority({ org_id: org, priority: f.priority })), cursorOf('byPriority'), { ...f, priority: undefined }, limit, cur?.c ?? null));
  if (f.phone_id) return done(await collect(go(t.query.byPhone({ org_id: org, phone_id: f.phone_id })), cursorOf('byPhone'), { ...f, phone_id: undefined }, limit, cur?.c ?? null));
  if (f.due_from !== undefined || f.due_to !== undefined) return listTickets(actor, { ...query, sort: 'due_asc' });
  return done(await collect(go(t.query.byId({ org_id: org })), cursorOf('byId'), f, limit, cur?.c ?? null));
}
