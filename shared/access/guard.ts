import { db } from '../db/service.ts';
import { AppError, notFound } from '../errors.ts';
import { getOrgPreferences } from '../org/preferences.ts';
import { canSeeChat, maskIdentity, maskNumbersInText, maskPhone, mustMask, NO_CHAT_ACCESS_MESSAGE, type Viewer } from '../chat/chat-access.rules.ts';
import { viewChat, viewMessage, type MemberState } from '../chat/chat-view.ts';
import { orgActiveMembers, type Actor } from '../auth/actor.ts';
import { ownerProblem, isOrgLevelOwner } from '../rules/owner.rules.ts';
import type { ActionType } from '../rules/rule.schemas.ts';
import type { ChatRow } from '../chat/chat-write.ts';
import type { Chat } from '../chat/chat.schemas.ts';
import type { Message } from '../message/message.schemas.ts';
import type { Ticket, TicketMessage } from '../ticket/ticket.schemas.ts';
import type { Task } from '../task/task.schemas.ts';
import type { Notification } from '../notification/notification.schemas.ts';
import type { MediaItem } from '../media/media.schemas.ts';

/**
 * The one access and masking guard for everything chat-linked (spec §6; issue 11).
 *
 * THE RULE: every read or change of anything linked to a chat — the chat, its messages, notes,
 * reactions, tickets, tasks linked to it, media items, notifications, export rows, socket
 * payloads — goes through this guard. No handler or use case checks access by hand:
 *   - a chat named by the request (path `{chat_id}`, or `chat_id` / `chat_ids` / `quoted_chat_id`
 *     / a task's chat link in the query or body) is checked before the handler runs by the HTTP
 *     middleware (functions/lib/http.ts `chatAccess`), with `assertChats`;
 *   - a chat reached through another object (a ticket's, a task's linked ticket's) is checked by
 *     the use case with `assertChat` / `requireChat` once it has read that object;
 *   - lists hide what the viewer may not see with `visibleChatIds` / `pageFilter` (one BatchGet
 *     of the page's chats, never a Scan), so pages stay full and cursors stay right;
 *   - everything handed out passes one of the `view*` functions, which mask every field that can
 *     hold a customer's number when the org masks numbers (`mask_phone_numbers`, non-admins).
 * The pure rules stay in shared/chat/chat-access.rules.ts (canSeeChat, mustMask, maskPhone) and
 * shared/chat/chat-view.ts (viewChat, viewMessage); the realtime fan-out uses those directly.
 *
 * A restricted chat answers 403 `chat.no_access` 'You do not have access to this chat' (spec §6
 * wording); a chat that does not exist is left to the caller's own 404 (assert*) or is a 404
 * `chat.not_found` (requireChat). Admins see every chat: no access reads are made for them.
 */

type AccessRow = { chat_id: string; chat_access?: Record<string, boolean> | null };

/** What one request may see and how it is shown. One per actor (memoised), so reads are shared. */
export interface ChatGuard {
  readonly actor: Actor;
  readonly viewer: Viewer;
  /** numbers are masked for this viewer */
  readonly masks: boolean;
  /** the viewer sees every chat (admins): no access reads are needed */
  readonly seesAll: boolean;
  /** May the viewer see a chat row (or anything with its `chat_access`)? Pure. */
  canSee(chat: { chat_access?: Record<string, boolean> | null } | null | undefined): boolean;
  /** The chat row. @throws AppError 404 chat.not_found; 403 chat.no_access */
  requireChat(chatId: string): Promise<ChatRow>;
  /**
   * requireChat, from a row the caller already holds (e.g. a bus event's snapshot of the chat,
   * written in the transaction that stored the event): when the viewer sees every chat (admins,
   * the rules' automation actor) and the row is this org's chat, it is answered as is, with no
   * read — its keys, number and phone never change, and the caller's write must check that the
   * chat still exists (a ConditionCheck in its transaction). Otherwise, or with no row, the chat is
   * read and its current access decides (requireChat).
   * @throws AppError 404 chat.not_found; 403 chat.no_access
   */
  requireChatFrom(chatId: string, known: Record<string, unknown> | null | undefined): Promise<ChatRow>;
  /** Refuse a chat the viewer may not see; a missing chat passes (the caller answers its own 404). @throws AppError 403 chat.no_access */
  assertChat(chatId: string | null | undefined): Promise<void>;
  /** assertChat for many (one BatchGet). @throws AppError 403 chat.no_access naming the first refused chat */
  assertChats(chatIds: Iterable<string>): Promise<void>;
  /** The ids among `chatIds` the viewer may see (missing chats count as visible: nothing to hide). One BatchGet, cached per request. */
  visibleChatIds(chatIds: Iterable<string>): Promise<Set<string>>;
  /** Keep the items whose chat the viewer may see (items without a chat are kept). */
  filter<T>(items: T[], chatIdOf: (item: T) => string | null | undefined): Promise<T[]>;
  /** A per-page predicate for collectFiltered (shared/db/paging.ts): one BatchGet per page. */
  pageFilter<T>(chatIdOf: (item: T) => string | null | undefined): ((items: T[]) => Promise<(item: T) => boolean>) | undefined;
  /** A number / WhatsApp id / 'whatsapp:<n>' masked when the viewer's numbers are masked. */
  mask<V extends string | null | undefined>(value: V): V;
  viewChat(row: Record<string, unknown>, states?: Map<string, MemberState>): Chat;
  viewMessage(m: Message): Message;
  viewTicket(t: Ticket): Ticket;
  viewTicketMessage(m: TicketMessage): TicketMessage;
  /** A task: the client-facing link masked; a link into a chat the viewer may not see keeps only its ids. Needs `visibleChatIds` first for that chat (done by the task use cases). */
  viewTask(t: Task, visible?: Set<string>): Task;
  viewNotification(n: Notification, visible?: Set<string>): Notification;
  viewMedia(item: MediaItem): MediaItem;
}

const guards = new WeakMap<Actor, Promise<ChatGuard>>();

/** An automated actor's owner (issue 42 §1): a rule's or an SLA policy's. */
export interface AutomationOwner {
  /** the owner's email (an `apikey:…` or non-email owner is org-level) */
  owner: string;
  /** the owner's role when they took ownership (absent on rows made before owners: no demotion check) */
  owner_role?: 'admin' | 'member';
  /** the action types the automation may take (checked against what the owner may do) */
  action_types: ActionType[];
  /** the automation's own identity: `email` (author of what it writes) and `user_id` (e.g. `rule:<id>`) */
  email: string;
  user_id: string;
}

/**
 * The actor an automated actor acts as (issue 42 §1): its owner's rights now, never more. An admin
 * owner (or an org-level one: API key, system) gives an admin-role actor (every chat, numbers as
 * is); a member owner a member-role actor `on_behalf_of` them, so this guard lets it see only their
 * chats and masks numbers as for them. The owner's state is read from the org's active members
 * (orgActiveMembers: cached, forgotten at once on a member write in this process, at most
 * MEMBER_CACHE_MS = 2 s old otherwise) and the org's preferences (5 s cache).
 * @returns the actor, or `problem`: why the automation may not act for its owner now (removed,
 *   demoted, lost `member_permissions.rules`, an action the owner may not take: owner.rules.ts
 *   ownerProblem); the caller pauses the automation with that reason
 */
export async function automationActor(orgId: string, o: AutomationOwner): Promise<{ actor: Actor; problem: null } | { actor: null; problem: string }> {
  const base = { email: o.email, user_id: o.user_id, org_id: orgId };
  if (isOrgLevelOwner(o.owner)) return { actor: { ...base, role: 'admin' }, problem: null };
  const [members, prefs] = await Promise.all([orgActiveMembers(orgId), getOrgPreferences(orgId)]);
  const now = members.get(o.owner.toLowerCase()) ?? null;
  const problem = ownerProblem(o.owner, o.owner_role, now, prefs.member_permissions, o.action_types);
  if (problem || !now) return { actor: null, problem: problem ?? `its owner ${o.owner} is no longer a member of this workspace` };
  return { actor: { ...base, role: now.role, on_behalf_of: now.email }, problem: null };
}

/** The 403 of a chat the viewer may not see (spec §6 wording). */
export const noChatAccess = () => new AppError('chat.no_access', NO_CHAT_ACCESS_MESSAGE, { status: 403 });

/**
 * The guard's rule for a chat row already read inside a write (a transaction's own read, so the
 * decision is made on the row that is changed): may `actor` see it? Same rule as `canSee`.
 */
export const actorCanSeeChat = (actor: Actor, chat: { chat_access?: unknown } | null | undefined): boolean =>
  !chat || canSeeChat(chat as { chat_access?: Record<string, boolean> | null }, viewerOf(actor));

/**
 * Who the guard decides for: the actor, or the person an automated actor acts for (`on_behalf_of`,
 * issue 42 §1: a member's rule sees what that member sees), with the actor's role.
 */
export const viewerOf = (actor: Actor): Viewer => ({ email: (actor.on_behalf_of ?? actor.email).toLowerCase(), role: actor.role });

/** @throws AppError 403 chat.no_access when `actor` may not see the chat row (spec §6) */
export function assertCanSeeChat(actor: Actor, chat: { chat_access?: unknown } | null | undefined): void {
  if (!actorCanSeeChat(actor, chat)) throw noChatAccess();
}

/**
 * The guard of `actor` (memoised per actor object: the HTTP middleware makes it once and the use
 * cases of that request get the same one). Reads the org's preferences once (5 s process cache).
 */
export function chatGuard(actor: Actor): Promise<ChatGuard> {
  let g = guards.get(actor);
  if (!g) {
    g = makeGuard(actor);
    guards.set(actor, g);
    g.catch(() => guards.delete(actor));
  }
  return g;
}

async function makeGuard(actor: Actor): Promise<ChatGuard> {
  const prefs = await getOrgPreferences(actor.org_id);
  const viewer: Viewer = viewerOf(actor);
  const masks = mustMask(!!prefs.mask_phone_numbers, viewer);
  const maskPhoneNumbers = !!prefs.mask_phone_numbers;
  const seesAll = viewer.role === 'admin';
  /** chat_id -> access row (null: no such chat) */
  const known = new Map<string, AccessRow | null>();

  async function load(ids: string[]): Promise<void> {
    let keys = [...new Set(ids)].filter((id) => !known.has(id)).map((chat_id) => ({ org_id: actor.org_id, chat_id }));
    if (!keys.length) return;
    const wanted = keys.map((k) => k.chat_id);
    for (let attempt = 0; keys.length && attempt < 5; attempt++) {
      const res = await db().entities.chat.get(keys).go({ attributes: ['chat_id', 'chat_access'], concurrency: 4 });
      for (const row of res.data) known.set(row.chat_id, row as AccessRow);
      keys = res.unprocessed as typeof keys;
    }
    if (keys.length) throw new Error(`chat access of ${keys.length} chats could not be read (unprocessed keys)`);
    for (const id of wanted) if (!known.has(id)) known.set(id, null);
  }

  const canSee: ChatGuard['canSee'] = (chat) => !chat || canSeeChat(chat, viewer);

  const visibleChatIds: ChatGuard['visibleChatIds'] = async (chatIds) => {
    const ids = [...new Set(chatIds)];
    if (seesAll) return new Set(ids);
    await load(ids);
    return new Set(ids.filter((id) => canSee(known.get(id))));
  };

  const m = <V extends string | null | undefined>(v: V): V => (masks && v ? (maskIdentity(v) as V) : v);

  const guard: ChatGuard = {
    actor,
    viewer,
    masks,
    seesAll,
    canSee,
    async requireChat(chatId) {
      const chat = (await db().entities.chat.get({ org_id: actor.org_id, chat_id: chatId }).go()).data as ChatRow | null;
      if (!chat) throw notFound('chat');
      known.set(chatId, chat as AccessRow);
      if (!canSee(chat as AccessRow)) throw noChatAccess();
      return chat;
    },
    async requireChatFrom(chatId, row) {
      if (!seesAll || !row || row.chat_id !== chatId || row.org_id !== actor.org_id) return guard.requireChat(chatId);
      known.set(chatId, row as AccessRow);
      return row as unknown as ChatRow;
    },
    async assertChat(chatId) {
      if (chatId) await guard.assertChats([chatId]);
    },
    async assertChats(chatIds) {
      if (seesAll) return;
      const ids = [...new Set(chatIds)];
      const ok = await visibleChatIds(ids);
      if (ids.some((id) => !ok.has(id))) throw noChatAccess();
    },
    visibleChatIds,
    async filter(items, chatIdOf) {
      if (seesAll) return items;
      const ok = await visibleChatIds(items.map(chatIdOf).filter((x): x is string => !!x));
      return items.filter((i) => {
        const id = chatIdOf(i);
        return !id || ok.has(id);
      });
    },
    pageFilter(chatIdOf) {
      if (seesAll) return undefined;
      return async (items) => {
        const ok = await visibleChatIds(items.map(chatIdOf).filter((x): x is string => !!x));
        return (i) => {
          const id = chatIdOf(i);
          return !id || ok.has(id);
        };
      };
    },
    mask: m,
    viewChat: (row, states) => viewChat(row, { viewer, maskPhoneNumbers, states }),
    viewMessage: (msg) => viewMessage(msg, { viewer, maskPhoneNumbers }),
    viewTicket: (t) => (masks ? { ...t, chat_name: t.chat_name ? maskPhone(t.chat_name) : t.chat_name } : t),
    viewTicketMessage: (tm) => (masks ? { ...tm, author: m(tm.author ?? null) } : tm),
    viewTask(t, visible) {
      const link = t.associated_object_metadata;
      if (!link) return t;
      const chatId = link.object?.chat_id ?? (link.type === 'chat' ? link.id : null);
      if (chatId && !seesAll && visible && !visible.has(chatId)) {
        // a link into a chat the viewer may not open: only where it points, nothing of its content
        return { ...t, associated_object_metadata: { id: link.id, type: link.type, index: link.index ?? null, object: { chat_id: chatId } } };
      }
      if (!masks || !link.object) return t;
      return { ...t, associated_object_metadata: { ...link, object: { ...link.object, sender_phone: m(link.object.sender_phone ?? null) } } };
    },
    viewNotification(n, visible) {
      if (n.chat_id && !seesAll && visible && !visible.has(n.chat_id)) return { ...n, body: NO_CHAT_ACCESS_MESSAGE, title: masks ? maskNumbersInText(n.title) : n.title };
      return masks ? { ...n, title: maskNumbersInText(n.title), body: maskNumbersInText(n.body) } : n;
    },
    viewMedia: (item) => (masks ? { ...item, author: m(item.author), chat_name: item.chat_name ? maskPhone(item.chat_name) : item.chat_name } : item),
  };
  return guard;
}
