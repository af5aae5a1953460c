import { AppError } from '../errors.ts';
import { db } from '../db/service.ts';
import { sendMessage } from '../inbox/send.ts';
import { sendTemplateMessage } from '../template/template-send.ts';
import { assignChats, closeChats, labelChats, snoozeChats } from '../chat/chat-workflow.ts';

type ChatBatchResult = { failed: Array<{ chat_id: string; reason: string }> };
import { createPrivateNote } from '../message/private-note.ts';
import { createTicket } from '../ticket/ticket.ts';
import { setChatProperties } from '../chat/chat-workflow.ts';
import { setMessageFlag } from '../message/message-actions.ts';
import { createTask } from '../task/task.ts';
import { CreateTaskInput } from '../task/task.schemas.ts';
import { notifyMember } from '../notification/notification.ts';
import { listMembers } from '../member/member.ts';
import { sendWebhook } from '../webhooks/send.ts';
import { urlPolicy } from '../webhooks/policy.ts';
import { renderTemplate } from './template.ts';
import { ownerChatProblem, ruleActor, type ActionContext } from './engine.ts';
import { chatGuard } from '../access/guard.ts';
import { maskPayload, memberActionProblem } from './owner.rules.ts';
import type { Action } from './rule.schemas.ts';
import type { TxJoin } from '../db/transaction.ts';

/**
 * What each rule action does (issue 17 §3), always through the inbox's own use cases (send,
 * assign, label, close, snooze, notes, tickets, tasks, notifications) acting as the rule's
 * automation actor with its owner's rights (issue 42 §1, engine.ts ruleActor), so the same checks,
 * events and the access guard apply. Returns the outcome in words for the log.
 * @throws AppError when the use case refuses (logged as failed, not retried); anything else is
 *   retried by the engine's queue
 */

const needChat = (ac: ActionContext): string => {
  if (!ac.chatId) throw new AppError('rules.no_chat', 'This event names no chat to act on.', { status: 400 });
  return ac.chatId;
};

const checkBatch = (r: ChatBatchResult): void => {
  if (r.failed.length) throw new AppError('rules.action_refused', r.failed[0].reason, { status: 400 });
};

async function render(ac: ActionContext, template: string): Promise<string> {
  const r = await renderTemplate(template, ac.vars);
  if (r.error) throw new AppError('rules.template', `The template could not be rendered: ${r.error}`, { status: 400 });
  if (!r.text.trim()) throw new AppError('rules.template', 'The template rendered to an empty text.', { status: 400 });
  return r.text;
}

/** Round robin among online members: a counter per rule (atomic add) picks the next one. */
async function roundRobin(ac: ActionContext): Promise<string> {
  const online = (await listMembers({ org_id: ac.orgId })).filter((m) => m.is_online).map((m) => m.email).sort();
  if (!online.length) throw new AppError('rules.nobody_online', 'No member is online to assign to.', { status: 400 });
  const res = await db().entities.ruleRate.update({ org_id: ac.orgId, chat_id: `rr#${ac.rule.rule_id}`, window: 0 }).add({ count: 1 }).set({ expires_at: Math.floor(Date.now() / 1000) + 365 * 86_400 }).go({ response: 'all_new' });
  return online[((res.data.count ?? 1) - 1) % online.length];
}

/** The active member with the fewest open chats assigned (the inbox's counters, one BatchGet). */
async function leastBusy(ac: ActionContext): Promise<string> {
  const members = (await listMembers({ org_id: ac.orgId })).filter((m) => m.is_online);
  const pool = members.length ? members : await listMembers({ org_id: ac.orgId });
  if (!pool.length) throw new AppError('rules.nobody', 'The workspace has no member to assign to.', { status: 400 });
  const got = await db()
    .entities.chatCounter.get(pool.map((m) => ({ org_id: ac.orgId, bucket: `open#assignee#${m.email.toLowerCase()}` })))
    .go();
  const load = new Map((got.data as Array<{ bucket: string; n?: number }>).map((c) => [c.bucket.split('#assignee#')[1], Math.max(0, c.n ?? 0)]));
  return [...pool].sort((a, b) => (load.get(a.email.toLowerCase()) ?? 0) - (load.get(b.email.toLowerCase()) ?? 0) || a.email.localeCompare(b.email))[0].email;
}

const MENTION = /@([A-Za-z0-9._%+-]+@[A-Za-z0-9.-]+\.[A-Za-z]{2,})/g;

/**
 * The actions whose use case commits its change in one transaction that can take joined items
 * (shared/db/transaction.ts TxJoin): the engine commits the action's receipt and the chat's rate
 * count in that same transaction (exactly once, and no separate claim and counter writes).
 */
export const JOINED_ACTIONS: ReadonlySet<Action['type']> = new Set(['private_note']);

/**
 * Do one action. `opts.join`: items committed in the action's own transaction (JOINED_ACTIONS only).
 * @returns the outcome in words
 * @throws AppError when the use case refuses; JoinedItemRejected when a joined item's condition failed (nothing done)
 */
export async function executeAction(actx: ActionContext, a: Action, opts: { join?: TxJoin } = {}): Promise<string> {
  // issue 42 §1: with the owner's rights, on the owner's chats only, and everything it renders or
  // hands out (templates, webhook bodies, notifications) masked as the owner would see it
  const actor = await ruleActor(actx);
  const outside = await ownerChatProblem(actx, actx.chatId);
  if (outside) throw new AppError('rules.owner_no_access', `Not done: ${outside}.`, { status: 403 });
  const problem = memberActionProblem(actor.role, a.type);
  if (problem) throw new AppError('rules.action_forbidden', `Not done: ${problem}.`, { status: 403 });
  const guard = await chatGuard(actor);
  const ac: ActionContext = guard.masks ? { ...actx, vars: maskPayload(actx.vars) } : actx;
  switch (a.type) {
    case 'send_message': {
      const chatId = needChat(ac);
      const m = await sendMessage(actor, chatId, { body: await render(ac, a.body) });
      return `sent message ${m.unique_id}`;
    }
    case 'send_template': {
      const chatId = needChat(ac);
      const values: Record<string, string> = {};
      for (const [k, v] of Object.entries(a.values ?? {})) values[k] = await render(ac, v);
      const m = await sendTemplateMessage(actor, chatId, { name: a.name, language: a.language, values });
      return `sent template ${a.name} (${a.language}) as message ${m.unique_id}`;
    }
    case 'assign': {
      const chatId = needChat(ac);
      const to = a.mode === 'member' ? a.member! : a.mode === 'round_robin' ? await roundRobin(ac) : await leastBusy(ac);
      checkBatch(await assignChats(actor, [chatId], to));
      return `assigned to ${to}`;
    }
    case 'unassign':
      checkBatch(await assignChats(actor, [needChat(ac)], null));
      return 'unassigned';
    case 'add_label':
      checkBatch(await labelChats(actor, [needChat(ac)], { add: [a.label_id] }));
      return `label ${await labelNameOf(ac.orgId, a.label_id)} added`;
    case 'remove_label':
      checkBatch(await labelChats(actor, [needChat(ac)], { remove: [a.label_id] }));
      return `label ${await labelNameOf(ac.orgId, a.label_id)} removed`;
    case 'close':
      checkBatch(await closeChats(actor, [needChat(ac)], true, 'all'));
      return 'chat closed';
    case 'reopen':
      checkBatch(await closeChats(actor, [needChat(ac)], false, 'all'));
      return 'chat reopened';
    case 'snooze': {
      const until = Date.now() + a.minutes * 60_000;
      checkBatch(await snoozeChats(actor, [needChat(ac)], until));
      return `snoozed until ${new Date(until).toISOString()}`;
    }
    case 'private_note': {
      const body = await render(ac, a.body);
      const mentions = [...new Set([...body.matchAll(MENTION)].map((m) => m[1].toLowerCase()))];
      // the chat row the event carried (or the engine read) is not read again; the receipt joins the note's transaction
      const note = await createPrivateNote(actor, needChat(ac), { body, ...(mentions.length ? { mentions } : {}) }, { chat: ac.chat, join: opts.join });
      return `private note ${note.unique_id}${mentions.length ? ` mentioning ${mentions.join(', ')}` : ''}`;
    }
    case 'create_ticket': {
      const chatId = needChat(ac);
      if (!ac.messageUniqueId) throw new AppError('rules.no_message', 'A ticket needs a message of the chat; this chat has none.', { status: 400 });
      const { ticket } = await createTicket(actor, { chat_id: chatId, quoted_message_id: ac.messageUniqueId, subject: await render(ac, a.subject), ...(a.priority ? { priority: a.priority } : {}) });
      return `ticket ${ticket.ticket_id} created`;
    }
    case 'create_task': {
      const input = CreateTaskInput.parse({
        title: await render(ac, a.title),
        assignee: a.assignee ?? null,
        ...(a.due_in_minutes ? { due_date: Date.now() + a.due_in_minutes * 60_000 } : {}),
        // the link's `object` is required by the task schema (without it every such action failed and was retried)
        ...(ac.chatId ? { associated_object_metadata: { type: 'chat', id: ac.chatId, object: { chat_id: ac.chatId, org_id: ac.orgId } } } : {}),
      });
      const task = await createTask(actor, input);
      return `task ${task.task_id} created`;
    }
    case 'notify': {
      await notifyMember(ac.orgId, a.member, { kind: 'rule', title: `Rule: ${ac.rule.name}`, body: await render(ac, a.text), chat_id: ac.chatId, actor: 'system' });
      return `notified ${a.member}`;
    }
    case 'webhook': {
      const body = JSON.stringify({ type: 'rule.triggered', rule: { rule_id: ac.rule.rule_id, name: ac.rule.name }, trigger: ac.trigger, event_id: ac.eventId, chat_id: ac.chatId && guard.masks ? maskPayload(ac.chatId) : ac.chatId, data: ac.vars });
      const res = await sendWebhook({ url: a.url, deliveryId: `msg_${ac.keyPrefix.replace(/[^A-Za-z0-9]/g, '').slice(-40)}`, body, secrets: ac.rule.secret ? [ac.rule.secret] : [], policy: urlPolicy() });
      if (res.status < 200 || res.status >= 300) throw new AppError('rules.webhook_failed', `The webhook answered ${res.status || 'nothing'}: ${res.excerpt.slice(0, 200)}`, { status: 400 });
      return `webhook answered ${res.status} in ${res.latencyMs} ms`;
    }
    case 'set_property': {
      const value = await render(ac, a.value);
      await setChatProperties(actor, needChat(ac), { [a.property_id]: value });
      return value.trim() ? `property ${a.property_id} set to “${value.trim().slice(0, 100)}”` : `property ${a.property_id} cleared`;
    }
    case 'flag_message': {
      if (!ac.messageUniqueId) throw new AppError('rules.no_message', 'There is no message to flag in this chat.', { status: 400 });
      await setMessageFlag(actor, needChat(ac), ac.messageUniqueId, true);
      return `message ${ac.messageUniqueId} flagged`;
    }
    case 'follow_up':
      throw new AppError('rules.follow_up', 'Follow-ups are scheduled, not run directly.', { status: 400 });
  }
}

/**
 * A label as the rule log and the dry run name it (issue 49): “VIP”, resolved when the text is
 * written (one GetItem, only for label actions, in the rule consumer or an admin's dry run, never in
 * a chat request), so the stored log line stays readable after a rename; the id when the label is gone.
 */
export async function labelNameOf(orgId: string, labelId: string): Promise<string> {
  const row = await db()
    .entities.chatLabel.get({ org_id: orgId, label_id: labelId })
    .go()
    .catch(() => null);
  return row?.data?.name ? `“${row.data.name}”` : labelId;
}

/** What an action would do, in words (dry runs, pending items). */
export async function actionSummary(ac: ActionContext, a: Action): Promise<string> {
  const text = async (t: string) => (await renderTemplate(t, ac.vars)).text;
  switch (a.type) {
    case 'send_message':
      return `send “${(await text(a.body)).slice(0, 200)}”`;
    case 'send_template':
      return `send the template ${a.name} (${a.language})`;
    case 'assign':
      return a.mode === 'member' ? `assign to ${a.member}` : a.mode === 'round_robin' ? 'assign round-robin among online members' : 'assign to the least busy member';
    case 'unassign':
      return 'unassign';
    case 'add_label':
      return `add label ${await labelNameOf(ac.orgId, a.label_id)}`;
    case 'remove_label':
      return `remove label ${await labelNameOf(ac.orgId, a.label_id)}`;
    case 'close':
      return 'close the chat';
    case 'reopen':
      return 'reopen the chat';
    case 'snooze':
      return `snooze for ${a.minutes} min`;
    case 'private_note':
      return `add private note “${(await text(a.body)).slice(0, 200)}”`;
    case 'create_ticket':
      return `create ticket “${(await text(a.subject)).slice(0, 200)}”`;
    case 'create_task':
      return `create task “${(await text(a.title)).slice(0, 200)}”`;
    case 'notify':
      return `notify ${a.member}: “${(await text(a.text)).slice(0, 200)}”`;
    case 'webhook':
      return `call ${a.url}`;
    case 'set_property':
      return `set property ${a.property_id} to “${(await text(a.value)).slice(0, 100)}”`;
    case 'flag_message':
      return 'flag the message';
    case 'follow_up':
      return `follow up “${(await text(a.body)).slice(0, 120)}” after ${a.after_minutes} min without a reply, up to ${a.repeat}×, then ${a.then}`;
  }
}
