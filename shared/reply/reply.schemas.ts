import { z } from 'zod';
import { LibraryMediaType } from '../media/media.schemas.ts';
import { variableProblem } from './reply.rules.ts';

/** Wire shapes of quick replies (spec §2 settings/replies; issue 15 item 5). Browser-safe. */
export const REPLY_SCOPES = ['team', 'personal'] as const;
export type ReplyScope = (typeof REPLY_SCOPES)[number];
/** Longest reply text (WhatsApp's text body limit). */
export const MAX_REPLY_TEXT = 4096;
/** Shortcut: letters, digits, '-' and '_', 1-30 characters, stored lower case (typed after '/'). */
export const SHORTCUT_RE = /^[\p{L}\p{N}_-]{1,30}$/u;

/** A library file attached to a reply: the message it is stored on (GET /media gives these). */
export const ReplyAttachment = z.object({
  chat_id: z.string({ required_error: 'is required' }).trim().min(1, 'must not be empty').max(200, 'is too long'),
  unique_id: z.string({ required_error: 'is required' }).trim().min(1, 'must not be empty').max(100, 'is too long'),
  message_type: LibraryMediaType,
  filename: z.string().max(255, 'must be at most 255 characters').nullish(),
  mimetype: z.string().max(255, 'is too long').nullish(),
});
export type ReplyAttachment = z.infer<typeof ReplyAttachment>;

export const QuickReply = z.object({
  reply_id: z.string(),
  shortcut: z.string(),
  text: z.string(),
  scope: z.enum(REPLY_SCOPES),
  /** the owner of a personal reply, null for team replies */
  owner_email: z.string().nullable(),
  attachment: ReplyAttachment.nullable(),
  created_by: z.string(),
  /** epoch ms */
  updated_at: z.number(),
});
export type QuickReply = z.infer<typeof QuickReply>;

/** POST /replies and PATCH /replies/{reply_id}. */
export const QuickReplyInput = z.object({
  shortcut: z
    .string({ required_error: 'is required', invalid_type_error: 'must be text' })
    .trim()
    .transform((s) => s.replace(/^\/+/, '').toLowerCase())
    .refine((s) => SHORTCUT_RE.test(s), { message: 'must be 1-30 letters, digits, - or _' }),
  text: z
    .string({ required_error: 'is required', invalid_type_error: 'must be text' })
    .max(MAX_REPLY_TEXT, `must be at most ${MAX_REPLY_TEXT} characters`)
    .refine((t) => t.trim().length > 0, { message: 'must not be empty' })
    .superRefine((t, ctx) => {
      const p = variableProblem(t);
      if (p) ctx.addIssue({ code: 'custom', message: p });
    }),
  scope: z.enum(REPLY_SCOPES, { errorMap: () => ({ message: `must be one of ${REPLY_SCOPES.join(', ')}` }) }).default('team'),
  attachment: ReplyAttachment.nullish(),
});
export type QuickReplyInput = z.infer<typeof QuickReplyInput>;
