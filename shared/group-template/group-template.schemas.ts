import { z } from 'zod';

/** Wire shapes of group templates and "Create group" (spec §2 settings/group-templates; issue 15 item 6). Browser-safe. */

/** WhatsApp's longest group subject (Baileys/WhatsApp Web refuse longer ones). */
export const MAX_GROUP_SUBJECT = 100;
/** WhatsApp's longest group description. */
export const MAX_GROUP_DESCRIPTION = 2048;
/** Most participants asked for at once (WhatsApp groups hold up to 1024; one request stays small). */
export const MAX_GROUP_PARTICIPANTS = 256;
/** Largest template picture, bytes (WhatsApp resizes profile pictures; 5 MB as for images, spec §5). */
export const MAX_PICTURE_BYTES = 5 * 1024 * 1024;
export const PICTURE_TYPES = ['image/jpeg', 'image/png'] as const;

const text = (max: number) => z.string({ invalid_type_error: 'must be text' }).max(max, `must be at most ${max} characters`);

/** The picture as stored and shown: a blob key and a short-lived URL to show it. */
export const GroupPicture = z.object({ path: z.string(), mimetype: z.string(), filename: z.string().nullable(), url: z.string().nullable() });
export type GroupPicture = z.infer<typeof GroupPicture>;

export const GroupTemplate = z.object({
  template_id: z.string(),
  name: z.string(),
  description: z.string(),
  picture: GroupPicture.nullable(),
  only_admins_send: z.boolean(),
  only_admins_edit_info: z.boolean(),
  created_by: z.string(),
  /** epoch ms */
  updated_at: z.number(),
});
export type GroupTemplate = z.infer<typeof GroupTemplate>;

/**
 * Where a template's picture comes from: an image of the media library (`{ chat_id, unique_id }`,
 * the chat checked through the guard) or a file uploaded through POST /group-templates/uploads
 * (`{ upload_key }`), or `null` for none. Omitted on PATCH: the picture is kept.
 */
export const PictureSource = z.union([
  z.object({ chat_id: z.string().trim().min(1, 'must not be empty').max(200, 'is too long'), unique_id: z.string().trim().min(1, 'must not be empty').max(100, 'is too long') }).strict(),
  z.object({ upload_key: z.string().trim().min(1, 'must not be empty').max(500, 'is too long') }).strict(),
]);
export type PictureSource = z.infer<typeof PictureSource>;

/** POST /group-templates and PATCH /group-templates/{template_id} (the whole template). */
export const GroupTemplateInput = z.object({
  name: text(MAX_GROUP_SUBJECT)
    .trim()
    .refine((s) => s.length > 0, { message: 'must not be empty' }),
  description: text(MAX_GROUP_DESCRIPTION).default(''),
  picture: PictureSource.nullish(),
  only_admins_send: z.boolean({ invalid_type_error: 'must be true or false' }).default(false),
  only_admins_edit_info: z.boolean({ invalid_type_error: 'must be true or false' }).default(false),
});
export type GroupTemplateInput = z.infer<typeof GroupTemplateInput>;

/** POST /group-templates/uploads: a presigned PUT for a picture. */
export const GroupPictureUploadInput = z.object({
  filename: z.string({ required_error: 'is required' }).trim().min(1, 'must not be empty').max(255, 'must be at most 255 characters'),
  mimetype: z.enum(PICTURE_TYPES, { errorMap: () => ({ message: 'must be a JPEG or PNG image' }) }),
  size: z.number({ required_error: 'is required', invalid_type_error: 'must be a number' }).int('must be whole bytes').positive('must be more than 0').max(MAX_PICTURE_BYTES, 'must be at most 5 MB'),
});
export type GroupPictureUploadInput = z.infer<typeof GroupPictureUploadInput>;

const ids = (what: string) => z.array(z.string().trim().min(1, 'must not be empty').max(200, 'is too long'), { invalid_type_error: `must be a list of ${what}` }).max(MAX_GROUP_PARTICIPANTS, `must list at most ${MAX_GROUP_PARTICIPANTS}`);

/**
 * POST /group-templates/{template_id}/groups: create a WhatsApp group from the template on a
 * WhatsApp Web number with these participants: 1:1 chats (`<digits>@c.us`) and/or contacts
 * (ids from GET /contacts). At least one participant in all.
 */
export const CreateGroupInput = z
  .object({
    phone_id: z.string({ required_error: 'is required' }).trim().min(1, 'must not be empty').max(100, 'is too long'),
    chat_ids: ids('chat ids').default([]),
    contact_ids: ids('contact ids').default([]),
    /** the subject for this group; default the template's name */
    name: text(MAX_GROUP_SUBJECT).trim().optional(),
  })
  .superRefine((v, ctx) => {
    if (!v.chat_ids.length && !v.contact_ids.length) ctx.addIssue({ code: 'custom', path: ['chat_ids'], message: 'choose at least one participant' });
    if (v.chat_ids.length + v.contact_ids.length > MAX_GROUP_PARTICIPANTS) ctx.addIssue({ code: 'custom', path: ['chat_ids'], message: `must list at most ${MAX_GROUP_PARTICIPANTS} participants in all` });
  });
export type CreateGroupInput = z.infer<typeof CreateGroupInput>;

export const GROUP_REQUEST_STATUSES = ['requested', 'creating', 'created', 'failed'] as const;
export const GroupRequest = z.object({
  request_id: z.string(),
  template_id: z.string(),
  phone_id: z.string(),
  subject: z.string(),
  participant_count: z.number(),
  status: z.enum(GROUP_REQUEST_STATUSES),
  group_chat_id: z.string().nullable(),
  detail: z.string().nullable(),
  requested_by: z.string(),
  /** epoch ms */
  updated_at: z.number(),
});
export type GroupRequest = z.infer<typeof GroupRequest>;
