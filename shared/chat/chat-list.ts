import { db } from '../db/service.ts';
import { collectFiltered, keyCursor } from '../db/paging.ts';
import { AppError } from '../errors.ts';
import { ChatEntity, ChatGroupLinkEntity, ChatLabelLinkEntity, ChatPropertyLinkEntity } from './chat.entity.ts';
import { chatGuard } from '../access/guard.ts';
import { listProperties } from '../property/property.ts';
import { propertyValueKey, valueProblem } from '../property/property.rules.ts';
import { assigneeKey, countsFromBuckets, isClosedFor, isUnread, type FolderCounts, type InboxState } from './chat-state.rules.ts';
import { viewChat, type MemberState, type ViewContext } from './chat-view.ts';
import { getOrgPreferences } from '../org/preferences.ts';
import type { Actor } from '../auth/actor.ts';
import type { Chat, ListChatsQuery, PinnedChatsQuery } from './chat.schemas.ts';
import type { ChatRow } from './chat-write.ts';
import { orgScope, orgScopeOfPk, scopedReadCache } from '../db/read-cache.ts';
import type { ItemKey } from '../db/write-watch.ts';

/**
 * GET /chats (issue 4 part 9): the chats of one folder (open = 'All', closed, snoozed, archived)
 * with any of the filters unread, assignee (me / none / email), label, phone, type, newest first.
 * One Query on the index of the most selective filter (ACCESS_PATTERNS.md 33-38); the other
 * filters are checked on that index's pages (collectFiltered: read budget, then a cursor). Never a
 * Scan. Index choice: property (ChatPropertyLink rows) > label (ChatLabelLink rows) > group +
 * assignee + unread (sparse, groups only) > group + assignee or group + unread (ChatGroupLink
 * rows, groups only) > assignee + unread > assignee > phone > type (group) > unread > type (user)
 * > folder: a filter that keeps most rows (type=user) is checked on another index's pages rather
 * than chosen, reading pages sized for it (USER_SHARE).
 * Pinned chats (per member) come from GET /chats/pinned (listPinnedChats). In the open folder a
 * member's own 'close for me' hides the chat from them until the next message.
 */

type Filters = { state: InboxState; unread?: boolean; assignee?: string; label_id?: string; phone?: string; type?: 'user' | 'group'; property?: { id: string; key: string } };

function matches(c: ChatRow, f: Filters, closedForMe: Map<string, string>): boolean {
  if (c.inbox_state !== f.state) return false;
  if (f.unread !== undefined && isUnread(c) !== f.unread) return false;
  if (f.assignee !== undefined && assigneeKey(c.assigned_to) !== f.assignee) return false;
  if (f.label_id !== undefined && !(c.label_ids ?? []).includes(f.label_id)) return false;
  if (f.phone !== undefined && c.org_phone !== f.phone) return false;
  if (f.type !== undefined && c.chat_type !== f.type) return false;
  if (f.property !== undefined && propertyValueKey((c.custom_properties as Record<string, unknown> | undefined)?.[f.property.id]) !== f.property.key) return false;
  if (f.state === 'open' && isClosedFor(c as never, closedForMe.get(c.chat_id))) return false;
  return true;
}

/**
 * The share of a folder's chats taken to be user chats when a list checks type=user on another
 * index's pages (most WhatsApp inbox chats are 1:1; the bench seeds 85%). A guess that only sizes
 * the reads: fewer user chats cost more requests, never a wrong page (collectFiltered `keep`).
 */
const USER_SHARE = 0.8;

/** A cursor this list did not hand out: 400 on `query.cursor` (the API's field naming). */
const badCursor = () => new AppError('validation.failed', 'query.cursor: is not a cursor of this list', { details: [{ field: 'query.cursor', reason: 'is not a cursor of this list' }] });

const encode = (c: { i: string; c: string }) => Buffer.from(JSON.stringify(c)).toString('base64url');
function decode(raw: string | undefined): { i: string; c: string } | null {
  if (!raw) return null;
  try {
    const v = JSON.parse(Buffer.from(raw, 'base64url').toString()) as { i: string; c: string };
    if (typeof v.i === 'string' && typeof v.c === 'string') return v;
  } catch {
    /* fall through */
  }
  throw badCursor();
}

/** Sort-key prefixes of the rows a chat-list page is read from (the chat row and its copies). */
const LIST_ROW_SK = ['$chat_1#', '$chatlabellink_1#', '$chatgrouplink_1#', '$chatpropertylink_1#'];
/**
 * Chat-list index pages by org (shared/db/read-cache.ts: only while this process is the table's
 * only writer, i.e. the local runtime): a write of any chat row or copy of the org forgets them.
 */
const listPages = scopedReadCache<Page>({ scopeOf: (key: ItemKey) => (LIST_ROW_SK.some((p) => key.sk.startsWith(p)) ? orgScopeOfPk(key.pk) : null), maxScopes: 100, maxKeysPerScope: 32 });
/** The largest index read kept by listPages (items): bounds its memory to about 100 orgs x 32 pages x 100 rows. */
const CACHED_PAGE_MAX = 100;
/** Members' chat states by member (their MemberChatState partition, `pk`), forgotten by a write of any of them. */
const statesCache = scopedReadCache<Map<string, MemberState>>({ scopeOf: (key: ItemKey) => (key.sk.startsWith('$memberchatstate_1#') ? key.pk : null), maxScopes: 1_000, maxKeysPerScope: 1 });

/**
 * The viewer's own chat states (pins, 'close for me'): one Query on their MemberChatState rows
 * (cached per member in the local runtime: shared/db/read-cache.ts). The map is shared: do not mutate it.
 */
export async function memberStates(orgId: string, email: string): Promise<Map<string, MemberState>> {
  const load = async () => {
    const rows = (await db().entities.memberChatState.query.byMember({ org_id: orgId, email: email.toLowerCase() }).go({ pages: 'all' })).data;
    return new Map(rows.map((r) => [r.chat_id, { pinned_at: r.pinned_at ?? null, closed_for_me_at: r.closed_for_me_at ?? null, closed_for_me_message: r.closed_for_me_message ?? null }]));
  };
  const scope = orgScope(orgId);
  return scope ? statesCache.get(`${scope}#email_${email.toLowerCase()}`, '', load) : load();
}

/** The view context of a request: viewer, masking preference and own chat states. */
export async function viewContext(actor: Actor, states?: Map<string, MemberState>): Promise<ViewContext> {
  const [prefs, st] = await Promise.all([getOrgPreferences(actor.org_id), states ? Promise.resolve(states) : memberStates(actor.org_id, actor.email)]);
  return { viewer: { email: actor.email.toLowerCase(), role: actor.role }, maskPhoneNumbers: !!prefs.mask_phone_numbers, states: st };
}

type Page = { data: ChatRow[]; cursor: string | null };

/** Chats of the actor's org for a folder and filters, cursor paged. */
function filtersOf(actor: Actor, query: PinnedChatsQuery): Filters {
  return {
    state: query.state,
    ...(query.unread !== undefined ? { unread: query.unread === 'true' } : {}),
    ...(query.assignee !== undefined ? { assignee: query.assignee === 'me' ? assigneeKey(actor.email) : query.assignee === 'none' ? 'none' : assigneeKey(query.assignee) } : {}),
    ...(query.label_id !== undefined ? { label_id: query.label_id } : {}),
    ...(query.phone !== undefined ? { phone: query.phone } : {}),
    ...(query.type !== undefined ? { type: query.type } : {}),
    ...(query.property_id !== undefined && query.property_value !== undefined ? { property: { id: query.property_id, key: propertyValueKey(query.property_value) } } : {}),
  };
}

const badQuery = (field: string, reason: string) => new AppError('validation.failed', `${field}: ${reason}`, { status: 400, details: [{ field, reason }] });

/**
 * The property filter's parameters come together and name a definition of the org with a value
 * its type allows (one Query of the org's definitions; only when the filter is used).
 * @throws AppError 400 validation.failed on query.property_id / query.property_value
 */
export async function assertPropertyFilter(orgId: string, query: Pick<ListChatsQuery, 'property_id' | 'property_value'>): Promise<void> {
  if (query.property_id === undefined && query.property_value === undefined) return;
  if (query.property_id === undefined) throw badQuery('query.property_id', 'is required with property_value');
  if (query.property_value === undefined) throw badQuery('query.property_value', 'is required with property_id');
  const def = (await listProperties(orgId)).find((d) => d.property_id === query.property_id);
  if (!def) throw badQuery('query.property_id', 'is not a property of this workspace');
  const problem = valueProblem(def, query.property_value);
  if (problem) throw badQuery('query.property_value', problem);
}

/** Chats of the actor's org for a folder and filters, cursor paged (pinned chats: listPinnedChats). */
export async function listChats(actor: Actor, query: ListChatsQuery): Promise<{ chats: Chat[]; cursor: string | null }> {
  await assertPropertyFilter(actor.org_id, query);
  const f = filtersOf(actor, query);
  const cur = decode(query.cursor);
  const org = actor.org_id;
  const c = db().entities.chat;
  const idx = ChatEntity.schema.indexes;
  const go =
    (q: { go: (o: object) => Promise<{ data: unknown[]; cursor: string | null }> }) =>
    (cursor: string | null, limit: number): Promise<Page> =>
      q.go({ order: 'desc', cursor, limit, pages: 1, data: 'includeKeys' }) as Promise<Page>;
  // a page of rows that hold a copy of the chat (label, property and group rows): the copies, with the row's keys for the cursor
  const fromCopies =
    (q: { go: (o: object) => Promise<{ data: unknown[]; cursor: string | null }> }) =>
    async (cursor: string | null, limit: number): Promise<Page> => {
      const res = (await q.go({ order: 'desc', cursor, limit, pages: 1, data: 'includeKeys' })) as unknown as { data: Array<{ chat: ChatRow } & Record<string, unknown>>; cursor: string | null };
      return { data: res.data.map(({ chat, ...keys }) => ({ ...chat, ...pickKeys(keys) }) as unknown as ChatRow), cursor: res.cursor };
    };
  const statesP = memberStates(org, actor.email);

  let index: string;
  let run: (cursor: string | null, limit: number) => Promise<Page>;
  let toCursor: (item: Record<string, unknown>) => string;
  if (f.property !== undefined) {
    // property value rows (issue 15 item 4): alone, or with the assignee or unread filter on their own GSIs (one Query either way)
    const links = db().entities.chatPropertyLink.query;
    const base = { org_id: org, property_id: f.property.id, value_key: f.property.key, inbox_state: f.state };
    const withAssignee = f.assignee !== undefined;
    const withUnread = !withAssignee && f.unread !== undefined;
    const q = withAssignee
      ? links.byValueAssignee({ ...base, assignee_key: f.assignee! })
      : withUnread
        ? links.byValueUnread({ ...base, unread_key: f.unread ? 'unread' : 'read' })
        : links.byValue(base);
    // the cursor names the property and value too: a cursor of another value's list is refused
    index = `${withAssignee ? 'property-assignee' : withUnread ? 'property-unread' : 'property'}:${f.property.id}:${f.property.key}`;
    run = fromCopies(q);
    const linkIdx = ChatPropertyLinkEntity.schema.indexes;
    toCursor = keyCursor(withAssignee ? linkIdx.byValueAssignee.index : withUnread ? linkIdx.byValueUnread.index : undefined);
  } else if (f.label_id !== undefined) {
    // label rows: alone, or with the assignee or unread filter on the rows' own GSIs (one Query either way)
    const links = db().entities.chatLabelLink.query;
    const withAssignee = f.assignee !== undefined;
    const withUnread = !withAssignee && f.unread !== undefined;
    const q = withAssignee
      ? links.byLabelAssignee({ org_id: org, label_id: f.label_id, inbox_state: f.state, assignee_key: f.assignee! })
      : withUnread
        ? links.byLabelUnread({ org_id: org, label_id: f.label_id, inbox_state: f.state, unread_key: f.unread ? 'unread' : 'read' })
        : links.byLabel({ org_id: org, label_id: f.label_id, inbox_state: f.state });
    index = withAssignee ? 'label-assignee' : withUnread ? 'label-unread' : 'label';
    run = fromCopies(q);
    const linkIdx = ChatLabelLinkEntity.schema.indexes;
    toCursor = keyCursor(withAssignee ? linkIdx.byLabelAssignee.index : withUnread ? linkIdx.byLabelUnread.index : undefined);
  } else if (f.type === 'group' && f.assignee !== undefined && f.unread !== undefined) {
    // groups only (sparse gsi8): Mine + Unread + Group and its kin in one Query
    index = 'group-assignee-unread';
    run = go(c.query.byGroupAssigneeUnread({ org_id: org, inbox_state: f.state, chat_type: 'group', assignee_key: f.assignee, unread_key: f.unread ? 'unread' : 'read' }));
    toCursor = keyCursor(idx.byGroupAssigneeUnread.index);
  } else if (f.type === 'group' && (f.assignee !== undefined || f.unread !== undefined)) {
    // groups only (ChatGroupLink rows): Mine + Group on their assignee keys, Unread + Group on their unread keys
    const links = db().entities.chatGroupLink.query;
    const withAssignee = f.assignee !== undefined;
    const base = { org_id: org, inbox_state: f.state, chat_type: 'group' };
    const q = withAssignee ? links.byGroupAssignee({ ...base, assignee_key: f.assignee! }) : links.byGroupUnread({ ...base, unread_key: f.unread ? 'unread' : 'read' });
    index = withAssignee ? 'group-assignee' : 'group-unread';
    run = fromCopies(q);
    const linkIdx = ChatGroupLinkEntity.schema.indexes;
    toCursor = keyCursor(withAssignee ? linkIdx.byGroupAssignee.index : linkIdx.byGroupUnread.index);
  } else if (f.assignee !== undefined && f.unread !== undefined) {
    index = 'assignee-unread';
    run = go(c.query.byAssigneeUnread({ org_id: org, inbox_state: f.state, assignee_key: f.assignee, unread_key: f.unread ? 'unread' : 'read' }));
    toCursor = keyCursor(idx.byAssigneeUnread.index);
  } else if (f.assignee !== undefined) {
    index = 'assignee';
    run = go(c.query.byAssignee({ org_id: org, inbox_state: f.state, assignee_key: f.assignee }));
    toCursor = keyCursor(idx.byAssignee.index);
  } else if (f.phone !== undefined) {
    index = 'phone';
    run = go(c.query.byPhone({ org_id: org, inbox_state: f.state, org_phone: f.phone }));
    toCursor = keyCursor(idx.byPhone.index);
  } else if (f.type !== undefined && (f.type !== 'user' || f.unread === undefined)) {
    index = 'type';
    run = go(c.query.byType({ org_id: org, inbox_state: f.state, chat_type: f.type }));
    toCursor = keyCursor(idx.byType.index);
  } else if (f.unread !== undefined) {
    // also type=user + unread: most chats are user chats, so the unread index filtered for them
    // reads about one page, where the type index filtered for unread read several
    index = 'unread';
    run = go(c.query.byUnread({ org_id: org, inbox_state: f.state, unread_key: f.unread ? 'unread' : 'read' }));
    toCursor = keyCursor(idx.byUnread.index);
  } else {
    index = 'state';
    run = go(c.query.byState({ org_id: org, inbox_state: f.state }));
    toCursor = keyCursor(idx.byState.index);
  }
  if (cur && cur.i !== index) throw badCursor();
  // index pages come from the org's page cache when it is on (the local runtime; see listPages)
  const scope = orgScope(org);
  if (scope) {
    const read = run;
    const filters = JSON.stringify(f);
    // pages a person reads (GET /chats asks for 50); the big reads of bulk jobs and exports walk once
    run = (cursor, limit) => (limit <= CACHED_PAGE_MAX ? listPages.get(scope, `${index}\n${filters}\n${cursor ?? ''}\n${limit}`, () => read(cursor, limit)) : read(cursor, limit));
  }
  // Filters the chosen index does not apply itself. With none (and no 'close for me' of the
  // viewer's to hide), a page is exactly one Query of `limit` items.
  const applied: Record<string, Array<keyof Filters>> = {
    'label-assignee': ['state', 'label_id', 'assignee'],
    'label-unread': ['state', 'label_id', 'unread'],
    'assignee-unread': ['state', 'assignee', 'unread'],
    'group-assignee-unread': ['state', 'type', 'assignee', 'unread'],
    'group-assignee': ['state', 'type', 'assignee'],
    'group-unread': ['state', 'type', 'unread'],
    label: ['state', 'label_id'],
    assignee: ['state', 'assignee'], phone: ['state', 'phone'], type: ['state', 'type'], unread: ['state', 'unread'], state: ['state'] };
  applied[index] ??= index.startsWith('property-assignee:') ? ['state', 'property', 'assignee'] : index.startsWith('property-unread:') ? ['state', 'property', 'unread'] : ['state', 'property'];
  const unapplied = (Object.keys(f) as Array<keyof Filters>).filter((k) => !applied[index].includes(k));
  const extra = unapplied.length > 0;
  // type=user alone left to check: most chats are user chats, so the index's pages are read about
  // limit / USER_SHARE at a time rather than in big pages (collectFiltered `keep`)
  const keep = unapplied.length === 1 && unapplied[0] === 'type' && f.type === 'user' ? USER_SHARE : undefined;
  // The property filter hides the chats the viewer may not see (guard: one BatchGet of each page's
  // chats), rather than showing them as 'no access' rows: a row would tell the chat has that value.
  const guard = f.property !== undefined ? await chatGuard(actor) : null;
  const visible = guard?.pageFilter<ChatRow>((r) => r.chat_id);
  // The viewer's states (one Query) and the first index page are read at the same time; the
  // page is then checked for 'close for me' and, when that removed some, topped up from its cursor.
  const [states, first] = await Promise.all([statesP, extra || visible ? null : run(cur?.c ?? null, query.limit)]);
  const closedForMe = new Map([...states].flatMap(([id, st]) => (st.closed_for_me_message ? [[id, st.closed_for_me_message] as const] : [])));
  const check = extra || (f.state === 'open' && closedForMe.size > 0) ? (row: ChatRow) => matches(row, f, closedForMe) : null;
  const collect = async (): Promise<{ items: ChatRow[]; cursor: string | null }> => {
    if (!first) return collectFiltered<ChatRow>(run, toCursor, check, query.limit, cur?.c ?? null, visible, keep);
    const kept = check ? first.data.filter(check) : first.data;
    if (kept.length === first.data.length || !first.cursor) return { items: kept, cursor: first.cursor };
    const more = await collectFiltered<ChatRow>(run, toCursor, check, query.limit - kept.length, first.cursor);
    return { items: [...kept, ...more.items], cursor: more.cursor };
  };
  const [page, ctx] = await Promise.all([collect(), viewContext(actor, states)]);
  return { chats: page.items.map((row) => viewChat(stripKeys(row), ctx)), cursor: page.cursor ? encode({ i: index, c: page.cursor }) : null };
}

/**
 * GET /chats/pinned: the viewer's pinned chats that pass the same folder and filters, newest pin
 * first (pins are per member and few: one Query of their states, one BatchGet). A separate call
 * so the list's first page stays one Query; the browser asks for both at once.
 */
export async function listPinnedChats(actor: Actor, query: PinnedChatsQuery): Promise<{ chats: Chat[] }> {
  await assertPropertyFilter(actor.org_id, query);
  const f = filtersOf(actor, query);
  const states = await memberStates(actor.org_id, actor.email);
  const closedForMe = new Map([...states].flatMap(([id, st]) => (st.closed_for_me_message ? [[id, st.closed_for_me_message] as const] : [])));
  const [rows, ctx, guard] = await Promise.all([pinnedChats(actor.org_id, states, f, closedForMe), viewContext(actor, states), chatGuard(actor)]);
  // the property filter hides chats the viewer may not see (as listChats does)
  const shown = f.property !== undefined ? rows.filter((row) => guard.canSee(row as { chat_access?: Record<string, boolean> | null })) : rows;
  return { chats: shown.map((row) => viewChat(row, ctx)) };
}

const KEY_ATTR = /^(pk|sk|gsi\d+(pk|sk))$/;
/** The attributes of an item read with `data: 'includeKeys'` that are (keep=true) or are not (keep=false) table or GSI keys. */
const keyAttrs = (item: Record<string, unknown>, keep: boolean): Record<string, unknown> => {
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(item)) if (KEY_ATTR.test(k) === keep) out[k] = v;
  return out;
};
/** the keys keyCursor needs */
const pickKeys = (item: Record<string, unknown>) => keyAttrs(item, true);
const stripKeys = (row: Record<string, unknown>) => keyAttrs(row, false);

/** The viewer's pinned chats that pass the filters (BatchGet by key; pins are few). Newest pin first. */
async function pinnedChats(orgId: string, states: Map<string, MemberState>, f: Filters, closedForMe: Map<string, string>): Promise<ChatRow[]> {
  const pins = [...states].filter(([, s]) => s.pinned_at).sort((a, b) => (b[1].pinned_at ?? 0) - (a[1].pinned_at ?? 0));
  if (!pins.length) return [];
  const got = await db()
    .entities.chat.get(pins.map(([chat_id]) => ({ org_id: orgId, chat_id })))
    .go({ concurrency: 3 });
  const byId = new Map((got.data as ChatRow[]).map((c) => [c.chat_id, c]));
  return pins.flatMap(([id]) => {
    const row = byId.get(id);
    return row && matches(row, f, closedForMe) ? [row] : [];
  });
}

/** GET /chats/counts: per folder, the count of every single filter (counter items: one Query). */
export async function chatCounts(actor: Actor): Promise<{ counts: Record<InboxState, FolderCounts> }> {
  const rows = (await db().entities.chatCounter.query.byOrg({ org_id: actor.org_id }).go({ pages: 'all' })).data;
  return { counts: countsFromBuckets(Object.fromEntries(rows.map((r) => [r.bucket, r.n ?? 0])), actor.email) };
}
