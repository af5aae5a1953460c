import { ulid } from 'ulid';
import { db } from '../db/service.ts';
import type { Actor } from '../auth/actor.ts';
import { chatGuard } from '../access/guard.ts';
import { getMessageItem } from '../message/message.ts';
import { blobPort } from '../ports/blobs.ts';
import { AppError, notFound } from '../errors.ts';
import { log } from '../log.ts';
import { isConflictError } from '../db/retry.ts';
import { getVisible } from '../contact/contact.ts';
import { sendWaWebCommand } from '../whatsapp/web/commands.ts';
import {
  MAX_PICTURE_BYTES,
  PICTURE_TYPES,
  type CreateGroupInput,
  type GroupPictureUploadInput,
  type GroupRequest,
  type GroupTemplate,
  type GroupTemplateInput,
  type PictureSource,
} from './group-template.schemas.ts';

/**
 * Group templates and "Create group" (spec §2 settings/group-templates; issue 15 item 6).
 *
 * - Templates: any member lists them (GET); admins create, change and delete them (spec §2 keeps
 *   the settings page to admins), else 403 `group_templates.forbidden`.
 * - Picture: an image of the media library (its chat checked through the access guard; the file
 *   copied under the template's folder, so deleting the message keeps the picture) or a JPEG/PNG
 *   uploaded with a presigned PUT (`createPictureUpload`), under `group-templates/<org>/…`.
 * - Create group (admins): only on a WhatsApp Web number (the Cloud API cannot create groups for a
 *   business number here: 400 in plain words); participants are 1:1 chats and contacts the admin
 *   may see (guard); a `GroupRequest` row is written and a 'create-group' command handed to the
 *   number's session worker (commands.ts), which creates the group on WhatsApp, applies the
 *   description, settings and picture, and records the outcome on the request. The group chat then
 *   reaches the inbox like any group: WhatsApp's "group created" notification arrives on the
 *   session (connector.ts parses the GROUP_CREATE stub as a system message).
 */
const templates = () => db().entities.groupTemplate;
const requests = () => db().entities.groupRequest;
/** Templates per org: the list stays one bounded Query. */
export const MAX_GROUP_TEMPLATES = 200;
/** How long a picture upload URL works, seconds. */
export const PICTURE_UPLOAD_TTL_S = 900;
/** How long a group request is kept, seconds (30 days). */
const REQUEST_TTL_S = 30 * 24 * 3600;

type StoredPicture = { path: string; mimetype: string; filename?: string | null };
type Row = {
  org_id: string;
  template_id: string;
  name: string;
  description?: string;
  picture?: unknown;
  only_admins_send: boolean;
  only_admins_edit_info: boolean;
  created_by: string;
  created_at?: number;
  updated_at?: number;
};
type RequestRow = {
  org_id: string;
  request_id: string;
  template_id: string;
  phone_id: string;
  subject: string;
  participant_count: number;
  status: GroupRequest['status'];
  group_chat_id?: string;
  detail?: string;
  requested_by: string;
  created_at?: number;
  updated_at?: number;
};

const invalid = (field: string, reason: string) => new AppError('validation.failed', `${field}: ${reason}`, { status: 400, details: [{ field, reason }] });

/** The folder of an org's template pictures (its uploads and copies). */
export const pictureFolder = (orgId: string) => `group-templates/${orgId.replace(/[^A-Za-z0-9_-]/g, '_')}/`;
const safeName = (f: string) => f.replace(/[^A-Za-z0-9._-]+/g, '_').slice(-100).replace(/^\.+/, '_') || 'picture';

async function toWire(r: Row): Promise<GroupTemplate> {
  const p = r.picture as StoredPicture | undefined;
  let url: string | null = null;
  if (p?.path) url = await (await blobPort()).url(p.path, { expiresInS: 3600 }).catch(() => null);
  return {
    template_id: r.template_id,
    name: r.name,
    description: r.description ?? '',
    picture: p?.path ? { path: p.path, mimetype: p.mimetype, filename: p.filename ?? null, url } : null,
    only_admins_send: r.only_admins_send === true,
    only_admins_edit_info: r.only_admins_edit_info === true,
    created_by: r.created_by,
    updated_at: r.updated_at ?? r.created_at ?? 0,
  };
}

function assertAdmin(actor: Actor) {
  if (actor.role !== 'admin') throw new AppError('group_templates.forbidden', 'Only admins can change group templates or create groups from them.', { status: 403 });
}

async function allRows(orgId: string): Promise<Row[]> {
  return (await templates().query.byOrg({ org_id: orgId }).go({ pages: 'all' })).data as Row[];
}

/** GET /group-templates: the org's templates by name (any member; one Query). */
export async function listGroupTemplates(actor: Actor): Promise<GroupTemplate[]> {
  const rows = (await allRows(actor.org_id)).sort((a, b) => a.name.localeCompare(b.name));
  return Promise.all(rows.map(toWire));
}

/**
 * POST /group-templates/uploads: a presigned PUT for a template picture (JPEG or PNG, ≤ 5 MB).
 * @returns `{ upload_url, upload_key, headers, expires_at (epoch ms) }`; save the template with `picture: { upload_key }`
 * @throws 403 for members; 400 type/size (schema); 502 when the store cannot sign
 */
export async function createPictureUpload(actor: Actor, input: GroupPictureUploadInput): Promise<{ upload_url: string; upload_key: string; headers: Record<string, string>; expires_at: number }> {
  assertAdmin(actor);
  const key = `${pictureFolder(actor.org_id)}uploads/${ulid()}-${safeName(input.filename)}`;
  try {
    const upload_url = await (await blobPort()).uploadUrl(key, input.mimetype, input.size, PICTURE_UPLOAD_TTL_S);
    return { upload_url, upload_key: key, headers: { 'content-type': input.mimetype }, expires_at: Date.now() + PICTURE_UPLOAD_TTL_S * 1000 };
  } catch (e) {
    log('error', 'group_templates.upload_failed', { org_id: actor.org_id, error: String(e) });
    throw new AppError('group_templates.upload_failed', 'Unable to upload file', { status: 502 });
  }
}

/**
 * The picture a template is saved with: an uploaded key of this org (it must be in the store, an
 * image, ≤ 5 MB) or a media-library image (guard: the actor must be able to open its chat), copied
 * under the org's template folder.
 * @throws 400 `picture.upload_key` / `picture.unique_id` / `picture.chat_id`; 403 from the guard
 */
async function resolvePicture(actor: Actor, src: PictureSource): Promise<StoredPicture> {
  const blobs = await blobPort();
  if ('upload_key' in src) {
    if (!src.upload_key.startsWith(`${pictureFolder(actor.org_id)}uploads/`) || src.upload_key.includes('..')) throw invalid('picture.upload_key', 'is not a picture uploaded for this workspace');
    const head = await blobs.head(src.upload_key);
    if (!head) throw invalid('picture.upload_key', 'was never uploaded (or the upload expired)');
    const type = head.contentType.split(';')[0]!.trim().toLowerCase();
    if (!(PICTURE_TYPES as readonly string[]).includes(type) || head.size > MAX_PICTURE_BYTES) throw invalid('picture.upload_key', 'must be a JPEG or PNG image of at most 5 MB');
    return { path: src.upload_key, mimetype: type, filename: src.upload_key.split('/').pop()!.replace(/^[0-9A-Z]{26}-/, '') };
  }
  const guard = await chatGuard(actor);
  await guard.requireChat(src.chat_id).catch((e: unknown) => {
    if (e instanceof AppError && e.status === 404) throw invalid('picture.chat_id', 'is not a chat of this workspace');
    throw e;
  });
  const msg = await getMessageItem(actor.org_id, src.chat_id, src.unique_id).catch(() => null);
  const media = msg?.media as { path?: string; mimetype?: string; filename?: string | null } | undefined;
  if (!msg || msg.message_type !== 'image' || !media?.path) throw invalid('picture.unique_id', 'is not an image of that chat');
  const blob = await blobs.get(media.path);
  if (!blob) throw invalid('picture.unique_id', 'its file is no longer stored');
  const type = (media.mimetype ?? blob.contentType).split(';')[0]!.trim().toLowerCase();
  if (!(PICTURE_TYPES as readonly string[]).includes(type)) throw invalid('picture.unique_id', 'must be a JPEG or PNG image');
  const path = `${pictureFolder(actor.org_id)}library/${ulid()}-${safeName(media.filename ?? 'picture')}`;
  await blobs.put(path, blob.bytes, type);
  return { path, mimetype: type, filename: media.filename ?? null };
}

/** POST /group-templates (admins). @throws 403; 400 name taken / too many / bad picture */
export async function createGroupTemplate(actor: Actor, input: GroupTemplateInput): Promise<GroupTemplate> {
  assertAdmin(actor);
  const rows = await allRows(actor.org_id);
  if (rows.length >= MAX_GROUP_TEMPLATES) throw new AppError('group_templates.too_many', `A workspace can have at most ${MAX_GROUP_TEMPLATES} group templates.`, { status: 400 });
  if (rows.some((r) => r.name.toLowerCase() === input.name.toLowerCase())) throw invalid('name', 'is already used by another template');
  const picture = input.picture ? await resolvePicture(actor, input.picture) : undefined;
  const res = await templates()
    .create({
      org_id: actor.org_id,
      template_id: `gt_${ulid()}`,
      name: input.name,
      description: input.description,
      ...(picture ? { picture } : {}),
      only_admins_send: input.only_admins_send,
      only_admins_edit_info: input.only_admins_edit_info,
      created_by: actor.email,
    })
    .go();
  return toWire(res.data as Row);
}

async function requireTemplate(orgId: string, templateId: string): Promise<Row> {
  const row = (await templates().get({ org_id: orgId, template_id: templateId }).go()).data as Row | null;
  if (!row) throw notFound('group template');
  return row;
}

/** PATCH /group-templates/{template_id} (admins): the whole template; `picture` omitted keeps it, null removes it. @throws 403; 404; 400 */
export async function updateGroupTemplate(actor: Actor, templateId: string, input: GroupTemplateInput): Promise<GroupTemplate> {
  assertAdmin(actor);
  await requireTemplate(actor.org_id, templateId);
  if ((await allRows(actor.org_id)).some((r) => r.template_id !== templateId && r.name.toLowerCase() === input.name.toLowerCase())) throw invalid('name', 'is already used by another template');
  const picture = input.picture ? await resolvePicture(actor, input.picture) : undefined;
  const p = templates()
    .patch({ org_id: actor.org_id, template_id: templateId })
    .set({ name: input.name, description: input.description, only_admins_send: input.only_admins_send, only_admins_edit_info: input.only_admins_edit_info, ...(picture ? { picture } : {}) });
  const res = await (input.picture === null ? p.remove(['picture']) : p).go({ response: 'all_new' });
  return toWire(res.data as Row);
}

/** DELETE /group-templates/{template_id} (admins). Groups already created are not touched. @throws 403; 404 */
export async function deleteGroupTemplate(actor: Actor, templateId: string): Promise<{ deleted: true }> {
  assertAdmin(actor);
  await requireTemplate(actor.org_id, templateId);
  await templates().delete({ org_id: actor.org_id, template_id: templateId }).go();
  return { deleted: true };
}

const requestWire = (r: RequestRow): GroupRequest => ({
  request_id: r.request_id,
  template_id: r.template_id,
  phone_id: r.phone_id,
  subject: r.subject,
  participant_count: r.participant_count,
  status: r.status,
  group_chat_id: r.group_chat_id ?? null,
  detail: r.detail || null,
  requested_by: r.requested_by,
  updated_at: r.updated_at ?? r.created_at ?? 0,
});

/** A chat id of a person (`<digits>@c.us`) as WhatsApp's participant jid. */
const DIRECT_CHAT_RE = /^(\d{5,20})@c\.us$/;

/**
 * POST /group-templates/{template_id}/groups (admins): create a WhatsApp group from the template.
 * @returns 202 body: the request (status 'requested'); GET …/groups/{request_id} follows it
 * @throws 403 members; 404 template; 400 `phone_id` (unknown, or a Cloud API number: refused in
 *   plain words), `chat_ids.<i>` (not a person's chat), `contact_ids.<i>` (unknown contact); 403 a chat
 *   the admin may not see (guard)
 */
export async function requestGroup(actor: Actor, templateId: string, input: CreateGroupInput): Promise<GroupRequest> {
  assertAdmin(actor);
  const tpl = await requireTemplate(actor.org_id, templateId);
  const phone = (await db().entities.phone.get({ org_id: actor.org_id, phone_id: input.phone_id }).go()).data;
  if (!phone) throw invalid('phone_id', 'is not a number of this workspace');
  if (phone.connection_type !== 'wa_web')
    throw invalid('phone_id', 'is a WhatsApp Cloud API number, which cannot create WhatsApp groups here. Choose a number linked through WhatsApp Web.');
  const guard = await chatGuard(actor);
  const digits = new Set<string>();
  input.chat_ids.forEach((id, i) => {
    const m = DIRECT_CHAT_RE.exec(id);
    if (!m) throw invalid(`chat_ids.${i}`, 'is not a chat with a person');
    digits.add(m[1]!);
  });
  await guard.assertChats(input.chat_ids);
  for (const [i, id] of input.contact_ids.entries()) {
    const row = await getVisible(actor, guard, id).catch((e: unknown) => {
      if (e instanceof AppError && e.status === 404) throw invalid(`contact_ids.${i}`, 'is not a contact of this workspace');
      throw e;
    });
    const target = row.merged_into ?? row.contact_id;
    if (!/^\d{5,20}$/.test(target)) throw invalid(`contact_ids.${i}`, 'has no WhatsApp number');
    digits.add(target);
  }
  digits.delete(phone.org_phone);
  if (!digits.size) throw invalid('chat_ids', 'choose at least one participant other than the number itself');
  const subject = input.name || tpl.name;
  const row: RequestRow = {
    org_id: actor.org_id,
    request_id: `grq_${ulid()}`,
    template_id: tpl.template_id,
    phone_id: phone.phone_id,
    subject,
    participant_count: digits.size,
    status: 'requested',
    requested_by: actor.email,
  };
  const res = await requests()
    .create({ ...row, expires_at: Math.floor(Date.now() / 1000) + REQUEST_TTL_S })
    .go();
  const pic = tpl.picture as StoredPicture | undefined;
  await sendWaWebCommand({
    kind: 'create-group',
    org_id: actor.org_id,
    phone_id: phone.phone_id,
    request_id: row.request_id,
    subject,
    description: tpl.description ?? '',
    participants: [...digits].map((d) => `${d}@s.whatsapp.net`),
    only_admins_send: tpl.only_admins_send === true,
    only_admins_edit_info: tpl.only_admins_edit_info === true,
    ...(pic?.path ? { picture_path: pic.path } : {}),
  });
  return requestWire(res.data as RequestRow);
}

/** GET /group-templates/{template_id}/groups/{request_id} (admins): how a "Create group" went. @throws 403; 404 */
export async function getGroupRequest(actor: Actor, templateId: string, requestId: string): Promise<GroupRequest> {
  assertAdmin(actor);
  const row = (await requests().get({ org_id: actor.org_id, request_id: requestId }).go()).data as RequestRow | null;
  if (!row || row.template_id !== templateId) throw notFound('group request');
  return requestWire(row);
}

/**
 * The session worker takes a request before asking WhatsApp: requested -> creating, conditional.
 * @returns false when it is not 'requested' any more (a redelivered command: nothing is created twice)
 */
export async function claimGroupRequest(orgId: string, requestId: string): Promise<boolean> {
  try {
    await requests().patch({ org_id: orgId, request_id: requestId }).set({ status: 'creating' }).where((a, { eq }) => eq(a.status, 'requested')).go();
    return true;
  } catch (e) {
    if (isConflictError(e)) return false;
    throw e;
  }
}

/** Record how a request ended (the session worker). `detail`: the reason of a failure, or what could not be applied. */
export async function settleGroupRequest(orgId: string, requestId: string, outcome: { status: 'created'; group_chat_id: string; detail?: string } | { status: 'failed'; detail: string }): Promise<void> {
  await requests()
    .patch({ org_id: orgId, request_id: requestId })
    .set({ status: outcome.status, detail: outcome.detail ?? '', ...(outcome.status === 'created' ? { group_chat_id: outcome.group_chat_id } : {}) })
    .go();
}

/** A request's current status (the worker, on a redelivery). */
export async function groupRequestStatus(orgId: string, requestId: string): Promise<GroupRequest['status'] | null> {
  return ((await requests().get({ org_id: orgId, request_id: requestId }).go()).data?.status as GroupRequest['status'] | undefined) ?? null;
}
