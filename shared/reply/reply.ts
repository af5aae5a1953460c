import { ulid } from 'ulid';
import { db } from '../db/service.ts';
import type { Actor } from '../auth/actor.ts';
import { chatGuard } from '../access/guard.ts';
import { getMessageItem } from '../message/message.ts';
import { AppError, notFound } from '../errors.ts';
import type { QuickReply, QuickReplyInput, ReplyAttachment } from './reply.schemas.ts';

/**
 * Quick replies (spec §2 settings/replies; issue 15 item 5). Every member lists the team's replies
 * and their own personal ones (the composer's '/' picker); admins write team replies; any member
 * writes their own personal replies. A personal reply of someone else is a 404 (never shown).
 * An attachment is a media-library file: the author must be able to open its chat (the guard), and
 * whoever inserts the reply later fetches it through the media route, which checks them again.
 */
const replies = () => db().entities.quickReply;
/** Replies per org (team + personal): the list stays one bounded Query. */
export const MAX_REPLIES = 500;

type Row = {
  reply_id: string;
  shortcut: string;
  text: string;
  scope: 'team' | 'personal';
  owner_email: string;
  attachment?: unknown;
  created_by: string;
  updated_at?: number;
  created_at?: number;
};

const toWire = (r: Row): QuickReply => ({
  reply_id: r.reply_id,
  shortcut: r.shortcut,
  text: r.text,
  scope: r.scope,
  owner_email: r.scope === 'personal' ? r.owner_email : null,
  attachment: (r.attachment as ReplyAttachment | undefined) ?? null,
  created_by: r.created_by,
  updated_at: r.updated_at ?? r.created_at ?? 0,
});

const mine = (actor: Actor) => (r: Row) => r.scope === 'team' || r.owner_email === actor.email;

async function allRows(orgId: string): Promise<Row[]> {
  return (await replies().query.byOrg({ org_id: orgId }).go({ pages: 'all' })).data as Row[];
}

/** GET /replies: the team's replies and the actor's personal ones, by shortcut (one Query). */
export async function listReplies(actor: Actor): Promise<QuickReply[]> {
  return (await allRows(actor.org_id))
    .filter(mine(actor))
    .map(toWire)
    .sort((a, b) => a.shortcut.localeCompare(b.shortcut) || a.scope.localeCompare(b.scope));
}

/** @throws 403 replies.forbidden when a member writes a team reply */
function assertMayWrite(actor: Actor, scope: 'team' | 'personal') {
  if (scope === 'team' && actor.role !== 'admin') throw new AppError('replies.forbidden', 'Only admins can change the team’s quick replies. Save it as a personal reply instead.', { status: 403 });
}

function taken(field: string, reason: string) {
  return new AppError('validation.failed', `${field}: ${reason}`, { status: 400, details: [{ field, reason }] });
}

/** A shortcut is unique among the team's replies, and among one member's personal replies. */
function assertShortcutFree(rows: Row[], actor: Actor, input: QuickReplyInput, except?: string) {
  const clash = rows.some((r) => r.reply_id !== except && r.shortcut === input.shortcut && r.scope === input.scope && (input.scope === 'team' || r.owner_email === actor.email));
  if (clash) throw taken('shortcut', input.scope === 'team' ? 'is already used by another team reply' : 'is already used by another of your replies');
}

async function checkAttachment(actor: Actor, a: ReplyAttachment | null | undefined): Promise<ReplyAttachment | undefined> {
  if (!a) return undefined;
  const guard = await chatGuard(actor);
  await guard.requireChat(a.chat_id).catch((e: unknown) => {
    if (e instanceof AppError && e.status === 404) throw taken('attachment.chat_id', 'is not a chat of this workspace');
    throw e;
  });
  const msg = await getMessageItem(actor.org_id, a.chat_id, a.unique_id).catch(() => null);
  if (!msg?.media || msg.message_type !== a.message_type) throw taken('attachment.unique_id', 'is not a file of that chat');
  return { chat_id: a.chat_id, unique_id: a.unique_id, message_type: a.message_type, filename: a.filename ?? null, mimetype: a.mimetype ?? null };
}

/** POST /replies. @throws 403 team reply by a member; 400 shortcut taken, too many, bad attachment */
export async function createReply(actor: Actor, input: QuickReplyInput): Promise<QuickReply> {
  assertMayWrite(actor, input.scope);
  const rows = await allRows(actor.org_id);
  if (rows.length >= MAX_REPLIES) throw new AppError('replies.too_many', `A workspace can have at most ${MAX_REPLIES} quick replies.`, { status: 400 });
  assertShortcutFree(rows, actor, input);
  const attachment = await checkAttachment(actor, input.attachment);
  const row = {
    org_id: actor.org_id,
    reply_id: `qr_${ulid()}`,
    shortcut: input.shortcut,
    text: input.text,
    scope: input.scope,
    owner_email: input.scope === 'personal' ? actor.email : '',
    ...(attachment ? { attachment } : {}),
    created_by: actor.email,
  };
  const res = await replies().create(row).go();
  return toWire(res.data as Row);
}

async function requireOwn(actor: Actor, replyId: string): Promise<Row> {
  const cur = (await replies().get({ org_id: actor.org_id, reply_id: replyId }).go()).data as Row | null;
  if (!cur || !mine(actor)(cur)) throw notFound('reply');
  assertMayWrite(actor, cur.scope);
  return cur;
}

/** PATCH /replies/{reply_id} (the whole reply; its scope may change if the actor may write both). @throws 404; 403; 400 */
export async function updateReply(actor: Actor, replyId: string, input: QuickReplyInput): Promise<QuickReply> {
  const cur = await requireOwn(actor, replyId);
  assertMayWrite(actor, input.scope);
  assertShortcutFree(await allRows(actor.org_id), actor, input, replyId);
  const attachment = await checkAttachment(actor, input.attachment);
  const set = { shortcut: input.shortcut, text: input.text, scope: input.scope, owner_email: input.scope === 'personal' ? (cur.scope === 'personal' ? cur.owner_email : actor.email) : '' };
  const p = replies().patch({ org_id: actor.org_id, reply_id: replyId }).set(set);
  const res = await (attachment ? p.set({ attachment }) : p.remove(['attachment'])).go({ response: 'all_new' });
  return toWire(res.data as Row);
}

/** DELETE /replies/{reply_id}. @throws 404; 403 */
export async function deleteReply(actor: Actor, replyId: string): Promise<{ deleted: true }> {
  await requireOwn(actor, replyId);
  await replies().delete({ org_id: actor.org_id, reply_id: replyId }).go();
  return { deleted: true };
}
