import { ulid } from 'ulid';
import { db } from '../db/service.ts';
import { AppError, notFound } from '../errors.ts';
import type { PublishInput } from '../../events/publish.ts';
import { assertActiveMember } from '../member/member.ts';
import { getOrgPreferences } from '../org/preferences.ts';
import { schedulerPort, scheduleName } from '../ports/scheduler.ts';
import { log } from '../log.ts';
import { canChangeChatAssignee, NO_CHAT_ACCESS_MESSAGE, type Viewer } from './chat-access.rules.ts';
import { actorCanSeeChat, assertCanSeeChat } from '../access/guard.ts';
import { canCloseForMe, isClosed, isSnoozed, snoozeUntilProblem } from './chat-state.rules.ts';
import { updateChatRow, updateChatRows, type ChatRow } from './chat-write.ts';
import { viewContext } from './chat-list.ts';
import { viewChat } from './chat-view.ts';
import { notifyAssigned, notifyChatBack } from './chat-notify.ts';
import { toChatWire } from '../inbox/wire.ts';
import type { Actor } from '../auth/actor.ts';
import type { Chat, ChatBatchResult, ChatLabel } from './chat.schemas.ts';

/**
 * Chat workflow use cases (issue 4; spec §4 closed/snoozed, §6 access and chat_assignee, §7 chat
 * label update, assignment, close, active-phone update). Each chat is written with
 * updateChatRow (row + label rows + filter counters in one transaction) and announced as
 * `chat.updated` with the fields that changed (the event in the same transaction: the outbox), which the realtime fan-out pushes to the members
 * who may see the chat. Writes over several chats report per chat what failed and why.
 * Times are epoch **ms**.
 */

const viewer = (a: Actor): Viewer => ({ email: a.email.toLowerCase(), role: a.role });

import { assertPropertyValues } from '../property/property.ts';

class ChatRefused extends Error {}

/** @throws AppError 403 chat.no_access when the member may not see the chat (spec §6; the guard's rule) */
export const assertChatAccess = assertCanSeeChat;

/** The `chat.updated` event of a member's change to a chat. */
const chatUpdated = (actor: Actor, chat: ChatRow, changes: string[], before?: ChatRow): PublishInput => ({
  name: 'chat.updated',
  // issue 17: `previous` (the changed fields before the change) lets the rules tell a label added from one removed, a reopen from a close
  properties: { org_id: actor.org_id, chat: toChatWire(chat), changes, ...(before ? { previous: Object.fromEntries(changes.map((c) => [c, (before as Record<string, unknown>)[c] ?? null])) } : {}) },
  actor: `user:${actor.email}`,
});

/**
 * Apply `mutate` to each chat (several chats per transaction, updateChatRows), write one chat.updated per chat that
 * changed in its transaction, and return the chats as the actor sees them plus per-chat failures.
 * `mutate` returns the new row, null for 'nothing to change', or throws ChatRefused(reason).
 */
async function eachChat(
  actor: Actor,
  chatIds: string[],
  changes: string[],
  mutate: (chat: ChatRow, now: number) => ChatRow | null,
  after?: (before: ChatRow, after: ChatRow) => Promise<void>,
): Promise<ChatBatchResult> {
  const ids = [...new Set(chatIds)];
  const done: ChatRow[] = [];
  const failed: ChatBatchResult['failed'] = [];
  const guarded = (chat: ChatRow, now: number) => {
    if (!actorCanSeeChat(actor, chat)) throw new ChatRefused(NO_CHAT_ACCESS_MESSAGE);
    return mutate(chat, now);
  };
  // chunks of 50 chats, each written in shared transactions (updateChatRows), two chunks at a time
  const chunks: string[][] = [];
  for (let i = 0; i < ids.length; i += 50) chunks.push(ids.slice(i, i + 50));
  let next = 0;
  const worker = async () => {
    while (next < chunks.length) {
      // each changed chat's chat.updated goes in the transaction that writes it (the outbox)
      const outcomes = await updateChatRows(actor.org_id, chunks[next++], guarded, (b, a) => [chatUpdated(actor, a, changes, b)]);
      for (const [chatId, res] of outcomes) {
        if (res instanceof ChatRefused) failed.push({ chat_id: chatId, reason: res.message });
        else if (res instanceof Error) {
          log('error', 'chat.write_failed', { chat_id: chatId, error: String(res) });
          failed.push({ chat_id: chatId, reason: 'Could not update this chat. Please try again.' });
        } else if (!res) failed.push({ chat_id: chatId, reason: 'Chat not found' });
        else {
          done.push(res.after);
          if (res.after !== res.before) {
            if (after) await after(res.before, res.after).catch((e) => log('warn', 'chat.after_write_failed', { chat_id: chatId, error: String(e) }));
          }
        }
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(2, chunks.length) }, worker));
  const ctx = await viewContext(actor);
  return { chats: done.map((c) => viewChat(c, ctx)), failed };
}

/**
 * Assign chats to a member, or unassign (spec §7 chat assignment; §6 chat_assignee).
 * @throws AppError 403 chat.assignee_forbidden for a member when member_permissions.chat_assignee is false;
 *   400 when `assignedTo` is not an active member
 */
export async function assignChats(actor: Actor, chatIds: string[], assignedTo: string | null): Promise<ChatBatchResult> {
  const prefs = await getOrgPreferences(actor.org_id);
  if (!canChangeChatAssignee(prefs, viewer(actor))) throw new AppError('chat.assignee_forbidden', 'Only admins can change who a chat is assigned to in this workspace.', { status: 403 });
  const to = assignedTo?.toLowerCase() ?? null;
  if (to) await assertActiveMember(actor.org_id, to, 'assigned_to');
  return eachChat(
    actor,
    chatIds,
    ['assigned_to'],
    (chat) => ((chat.assigned_to ?? null) === to ? null : { ...chat, assigned_to: to ?? undefined }),
    async (_b, after) => notifyAssigned(after, actor.email),
  );
}

/** Org labels by id (for validation). */
async function labelIds(orgId: string): Promise<Set<string>> {
  return new Set((await db().entities.chatLabel.query.byOrg({ org_id: orgId }).go({ pages: 'all' })).data.map((l) => l.label_id));
}

/**
 * Set, add or remove labels on chats (spec §7 chat label update).
 * @throws AppError 400 with field and the unknown label id
 */
export async function labelChats(actor: Actor, chatIds: string[], input: { label_ids?: string[]; add?: string[]; remove?: string[] }): Promise<ChatBatchResult> {
  const known = await labelIds(actor.org_id);
  for (const field of ['label_ids', 'add'] as const) {
    const bad = (input[field] ?? []).find((l) => !known.has(l));
    if (bad) throw new AppError('validation', 'That label does not exist.', { details: [{ field, reason: `unknown label ${bad}` }] });
  }
  return eachChat(actor, chatIds, ['label_ids'], (chat) => {
    const cur = chat.label_ids ?? [];
    let next = input.label_ids ? [...new Set(input.label_ids)] : [...cur];
    for (const l of input.add ?? []) if (!next.includes(l)) next.push(l);
    next = next.filter((l) => !(input.remove ?? []).includes(l));
    if (next.length > 20) throw new ChatRefused('A chat can have at most 20 labels');
    if (next.length === cur.length && next.every((l) => cur.includes(l))) return null;
    return { ...chat, label_ids: next };
  });
}

/**
 * Close or reopen chats for everyone, or close for the actor only (type 'me', spec §4/§7).
 * Closing stamps closed_at = now (later than the latest message, so the chat counts as closed);
 * reopening clears it. 'Close for me' is refused for a chat that is already closed.
 */
export async function closeChats(actor: Actor, chatIds: string[], isClosed_: boolean, type: 'me' | 'all'): Promise<ChatBatchResult> {
  if (type === 'me') return closeForMe(actor, chatIds, isClosed_);
  return eachChat(actor, chatIds, ['closed_at'], (chat, now) => {
    if (isClosed_ === isClosed(chat)) return null;
    if (!isClosed_) return { ...chat, closed_at: undefined, closed_by: undefined };
    return { ...chat, closed_at: Math.max(now, chat.latest_message_timestamp + 1), closed_by: actor.email };
  });
}

/**
 * Write the actor's own state of chats (MemberChatState: pin, 'close for me'): one BatchGet of the
 * chats, the access check (and `refuse`, a reason or null) per chat, then one update per chat.
 */
async function memberStateChats(
  actor: Actor,
  chatIds: string[],
  refuse: (chat: ChatRow) => string | null,
  write: (key: { org_id: string; email: string; chat_id: string }, chat: ChatRow) => Promise<unknown>,
): Promise<ChatBatchResult> {
  const email = actor.email.toLowerCase();
  const ids = [...new Set(chatIds)];
  const got = await db()
    .entities.chat.get(ids.map((chat_id) => ({ org_id: actor.org_id, chat_id })))
    .go();
  const rows = new Map((got.data as ChatRow[]).map((c) => [c.chat_id, c]));
  const failed: ChatBatchResult['failed'] = [];
  const ok = ids.filter((id) => {
    const chat = rows.get(id);
    const reason = !chat ? 'Chat not found' : !actorCanSeeChat(actor, chat) ? NO_CHAT_ACCESS_MESSAGE : refuse(chat);
    if (reason) failed.push({ chat_id: id, reason });
    return !reason;
  });
  await Promise.all(ok.map((chat_id) => write({ org_id: actor.org_id, email, chat_id }, rows.get(chat_id)!)));
  const ctx = await viewContext(actor);
  return { chats: ok.map((id) => viewChat(rows.get(id)!, ctx)), failed };
}

/** 'Close for me' (spec §4, §7 type 'me'): holds while the chat's latest message is the one it had then. */
function closeForMe(actor: Actor, chatIds: string[], close: boolean): Promise<ChatBatchResult> {
  const now = Date.now();
  return memberStateChats(
    actor,
    chatIds,
    (chat) => (close && !canCloseForMe(chat) ? 'This chat is already closed' : null),
    (key, chat) =>
      close
        ? db()
            .entities.memberChatState.update(key)
            .set({ closed_for_me_at: now, closed_for_me_message: (chat.latest_message as { unique_id?: string } | undefined)?.unique_id ?? '' })
            .go()
        : db().entities.memberChatState.update(key).remove(['closed_for_me_at', 'closed_for_me_message']).go(),
  );
}

/** Pin or unpin chats for the actor (per member: MemberChatState.pinned_at). */
export function pinChats(actor: Actor, chatIds: string[], pin: boolean): Promise<ChatBatchResult> {
  const now = Date.now();
  return memberStateChats(
    actor,
    chatIds,
    () => null,
    (key) => (pin ? db().entities.memberChatState.update(key).set({ pinned_at: now }).go() : db().entities.memberChatState.update(key).remove(['pinned_at']).go()),
  );
}

/** Archive / unarchive, mute / unmute chats (flags, spec §4). */
export async function flagChats(actor: Actor, chatIds: string[], field: 'is_archived' | 'is_muted', value: boolean): Promise<ChatBatchResult> {
  return eachChat(actor, chatIds, [field], (chat) => (!!chat[field] === value ? null : { ...chat, [field]: value }));
}

const snoozeScheduleName = (orgId: string, chatId: string) => scheduleName('chat-snooze', orgId, chatId);

/**
 * Snooze chats until `until` (epoch ms), or wake them now (null). A wake-up is scheduled per chat
 * (EventBridge Scheduler in AWS, the local file-backed scheduler) on the chat-snooze queue.
 * @throws AppError 400 snooze_until in the past or more than a year ahead
 */
export async function snoozeChats(actor: Actor, chatIds: string[], until: number | null): Promise<ChatBatchResult> {
  const now = Date.now();
  if (until !== null) {
    const problem = snoozeUntilProblem(until, now);
    if (problem) throw new AppError('validation', `snooze_until: ${problem}`, { details: [{ field: 'snooze_until', reason: problem }] });
  }
  const scheduler = await schedulerPort();
  return eachChat(
    actor,
    chatIds,
    ['snooze_metadata'],
    (chat, at) => {
      if (until === null) return isSnoozed(chat as never, at) || chat.snooze_metadata ? { ...chat, snooze_metadata: undefined } : null;
      return { ...chat, snooze_metadata: { snooze_until: until, snoozed_by: actor.email, snoozed_at: at } };
    },
    async (_before, after) => {
      const name = snoozeScheduleName(actor.org_id, after.chat_id);
      if (until === null) await scheduler.cancel(name);
      else await scheduler.schedule({ name, at: until, queue: 'chat-snooze', body: JSON.stringify({ org_id: actor.org_id, chat_id: after.chat_id, snooze_until: until }) });
    },
  );
}

/**
 * A snooze wake-up came (chat-snooze queue): if the chat is still snoozed until that time, put
 * it back in its folder and tell the assignee. Stale wake-ups (re-snoozed, woken by a message,
 * unsnoozed) are ignored. A wake-up a few ms early re-arms itself.
 */
export async function wakeSnoozedChat(orgId: string, chatId: string, snoozeUntil: number): Promise<'woke' | 'stale' | 'early'> {
  const now = Date.now();
  if (snoozeUntil > now) {
    const scheduler = await schedulerPort();
    await scheduler.schedule({ name: snoozeScheduleName(orgId, chatId), at: snoozeUntil, queue: 'chat-snooze', body: JSON.stringify({ org_id: orgId, chat_id: chatId, snooze_until: snoozeUntil }) });
    return 'early';
  }
  const res = await updateChatRow(
    orgId,
    chatId,
    (chat) => {
      const meta = chat.snooze_metadata as { snooze_until?: number } | undefined;
      if (meta?.snooze_until !== snoozeUntil) return null;
      return { ...chat, snooze_metadata: undefined };
    },
    undefined,
    (_b, after) => [{ name: 'chat.updated', properties: { org_id: orgId, chat: toChatWire(after), changes: ['snooze_metadata'] }, actor: 'system' }],
  );
  if (!res || res.after === res.before) return 'stale';
  await notifyChatBack(res.after, 'time');
  return 'woke';
}

/** Mark a chat unread for the team (a member's 'mark as unread'). */
export async function markChatUnread(actor: Actor, chatId: string): Promise<Chat> {
  const r = await eachChat(actor, [chatId], ['marked_unread'], (chat) => (chat.marked_unread ? null : { ...chat, marked_unread: true }));
  return oneOrThrow(r);
}

function oneOrThrow(r: ChatBatchResult): Chat {
  if (r.chats[0]) return r.chats[0];
  const reason = r.failed[0]?.reason;
  if (reason === NO_CHAT_ACCESS_MESSAGE) throw new AppError('chat.no_access', NO_CHAT_ACCESS_MESSAGE, { status: 403 });
  if (reason === 'Chat not found') throw notFound('chat');
  throw new AppError('chat.write_failed', reason ?? 'Could not update this chat. Please try again.', { status: 409 });
}

/**
 * Which org number answers this chat (spec §7 active-phone update): one of its chat_org_phones.
 * @throws AppError 400 phone not a number of this chat
 */
export async function setActivePhone(actor: Actor, chatId: string, phone: string): Promise<Chat> {
  const phones = (await db().entities.phone.query.byOrg({ org_id: actor.org_id }).go({ pages: 'all' })).data;
  const target = phones.find((p) => p.org_phone === phone);
  const r = await eachChat(actor, [chatId], ['org_phone'], (chat) => {
    if (!target || !(chat.chat_org_phones ?? [chat.org_phone]).includes(phone)) throw new ChatRefused('phone: is not a number of this chat');
    return chat.org_phone === phone ? null : { ...chat, org_phone: phone, phone_id: target.phone_id };
  });
  if (r.failed[0]?.reason.startsWith('phone:')) throw new AppError('validation', r.failed[0].reason, { details: [{ field: 'phone', reason: 'is not a number of this chat' }] });
  return oneOrThrow(r);
}

/**
 * Who may see a chat (spec §6 chat_access), admins only. `{}` opens it to every member.
 * @throws AppError 403 for members; 400 for an email that is not a member
 */
export async function setChatAccess(actor: Actor, chatId: string, access: Record<string, boolean>): Promise<Chat> {
  if (actor.role !== 'admin') throw new AppError('forbidden', 'Only admins can change who can see a chat.', { status: 403 });
  const normalized = Object.fromEntries(Object.entries(access).map(([k, v]) => [k.trim().toLowerCase(), v]));
  for (const email of Object.keys(normalized)) await assertActiveMember(actor.org_id, email, 'chat_access');
  const r = await eachChat(actor, [chatId], ['chat_access'], (chat) => ({ ...chat, chat_access: Object.keys(normalized).length ? normalized : undefined }));
  return oneOrThrow(r);
}

// ---- labels (spec §2 /settings/labels) --------------------------------------------------

/** Org labels with how many chats carry each (from the filter counters, every folder). */
export async function listChatLabels(actor: Actor): Promise<{ labels: ChatLabel[] }> {
  const [labels, counters] = await Promise.all([
    db().entities.chatLabel.query.byOrg({ org_id: actor.org_id }).go({ pages: 'all' }),
    db().entities.chatCounter.query.byOrg({ org_id: actor.org_id }).go({ pages: 'all' }),
  ]);
  const usage = new Map<string, number>();
  for (const c of counters.data) {
    const m = /^[a-z]+#label#(.+)$/.exec(c.bucket);
    if (m) usage.set(m[1], (usage.get(m[1]) ?? 0) + Math.max(0, c.n ?? 0));
  }
  return {
    labels: labels.data
      .map((l) => ({ label_id: l.label_id, name: l.name, color: l.color, usage_count: usage.get(l.label_id) ?? 0 }))
      .sort((a, b) => a.name.localeCompare(b.name)),
  };
}

function assertAdmin(actor: Actor): void {
  if (actor.role !== 'admin') throw new AppError('forbidden', 'Only admins can manage labels.', { status: 403 });
}

/** @throws AppError 409 label.duplicate when the name is taken (case-insensitive) */
async function assertUniqueName(orgId: string, name: string, except?: string): Promise<void> {
  const all = (await db().entities.chatLabel.query.byOrg({ org_id: orgId }).go({ pages: 'all' })).data;
  if (all.some((l) => l.label_id !== except && l.name.toLowerCase() === name.toLowerCase())) {
    throw new AppError('label.duplicate', 'A label with that name already exists.', { status: 409, details: [{ field: 'name', reason: 'is already used by another label' }] });
  }
}

/** Create an org label (admins). */
export async function createChatLabel(actor: Actor, input: { name: string; color: string }): Promise<ChatLabel> {
  assertAdmin(actor);
  await assertUniqueName(actor.org_id, input.name);
  const label_id = `lbl_${ulid()}`;
  await db().entities.chatLabel.create({ org_id: actor.org_id, label_id, name: input.name, color: input.color.toLowerCase(), created_by: actor.email }).go();
  return { label_id, name: input.name, color: input.color.toLowerCase(), usage_count: 0 };
}

/** Rename / recolour an org label (admins). Chats hold label ids, so nothing else changes. */
export async function updateChatLabel(actor: Actor, labelId: string, input: { name?: string; color?: string }): Promise<ChatLabel> {
  assertAdmin(actor);
  const cur = (await db().entities.chatLabel.get({ org_id: actor.org_id, label_id: labelId }).go()).data;
  if (!cur) throw notFound('label');
  if (input.name) await assertUniqueName(actor.org_id, input.name, labelId);
  const next = { name: input.name ?? cur.name, color: (input.color ?? cur.color).toLowerCase() };
  await db().entities.chatLabel.patch({ org_id: actor.org_id, label_id: labelId }).set(next).go();
  return { label_id: labelId, ...next };
}

/**
 * Delete an org label (admins): the label comes off every chat that has it (found through the
 * label's index rows, one folder at a time), then the label itself.
 * @returns how many chats lost it, and the label's name (for the audit row)
 */
export async function deleteChatLabel(actor: Actor, labelId: string): Promise<{ removed_from: number; name: string }> {
  assertAdmin(actor);
  const cur = (await db().entities.chatLabel.get({ org_id: actor.org_id, label_id: labelId }).go()).data;
  if (!cur) throw notFound('label');
  let removed = 0;
  for (const state of ['open', 'closed', 'snoozed', 'archived'] as const) {
    for (;;) {
      const page = await db().entities.chatLabelLink.query.byLabel({ org_id: actor.org_id, label_id: labelId, inbox_state: state }).go({ limit: 100, pages: 1 });
      if (!page.data.length) break;
      // the page's chats in shared transactions (updateChatRows), one event batch per page
      const outcomes = await updateChatRows(
        actor.org_id,
        page.data.map((l) => l.chat_id),
        (chat) => ((chat.label_ids ?? []).includes(labelId) ? { ...chat, label_ids: (chat.label_ids ?? []).filter((l) => l !== labelId) } : null),
        (_b, a) => [chatUpdated(actor, a, ['label_ids'])],
      );
      for (const link of page.data) {
        const res = outcomes.get(link.chat_id);
        if (res instanceof Error) throw res;
        if (!res || res.after === res.before) {
          // a stale index row: drop it
          await db().entities.chatLabelLink.delete({ org_id: actor.org_id, label_id: labelId, inbox_state: state, latest_message_timestamp: link.latest_message_timestamp, chat_id: link.chat_id }).go();
        } else {
          removed++;
        }
      }
    }
  }
  await db().entities.chatLabel.delete({ org_id: actor.org_id, label_id: labelId }).go();
  // the name, for the audit row (issue 49: names, not ids, resolved at write time)
  return { removed_from: removed, name: cur.name };
}

// ---- issue 15: custom property values of a chat (spec §3 custom_properties) ---------------

/**
 * Set or clear ('' ) custom property values of one chat, checked against the org's definitions
 * (shared/property). Goes through the chat's versioned write (eachChat: access guard, outbox
 * `chat.updated` with change `custom_properties`). @throws 400 bad values; 403/404 as eachChat
 */
export async function setChatProperties(actor: Actor, chatId: string, values: Record<string, string>): Promise<Chat> {
  return oneOrThrow(await setChatsProperties(actor, [chatId], values));
}

/**
 * Set or clear ('') custom property values on several chats (the /list bulk action 'set_property' /
 * 'clear_property', issue 15 item 4), each through its versioned write (eachChat: access guard per
 * chat, `chat.updated` with change `custom_properties`, ChatPropertyLink rows in the same
 * transaction). `only` (optional) changes a chat only while its stored value is one of those
 * (the definition jobs: a rewrite never overwrites a value set meanwhile).
 * @throws AppError 400 bad values (checked once, before any chat)
 */
export async function setChatsProperties(actor: Actor, chatIds: string[], values: Record<string, string>, only?: (propertyId: string, stored: string | undefined) => boolean): Promise<ChatBatchResult> {
  await assertPropertyValues(actor.org_id, values);
  return eachChat(actor, chatIds, ['custom_properties'], (chat) => {
    const cur = ((chat as { custom_properties?: Record<string, string> }).custom_properties ?? {}) as Record<string, string>;
    const next = { ...cur };
    for (const [k, v] of Object.entries(values)) {
      if (only && !only(k, cur[k])) continue;
      if (v.trim()) next[k] = v.trim();
      else delete next[k];
    }
    return JSON.stringify(next) === JSON.stringify(cur) ? null : ({ ...chat, custom_properties: next } as ChatRow);
  });
}
