import { z } from 'zod';

/**
 * Wire shapes of the /contacts API (issue 15; browser-safe). Times are epoch **ms**. Numbers are
 * digits without '+' and come back masked (`91******10`) for members when the org masks numbers
 * (spec §6, shared/access/guard.ts).
 */
export const ContactView = z.object({
  contact_id: z.string(),
  /** shown name: edited, else WhatsApp profile name; null = show the number */
  display_name: z.string().nullable(),
  contact_name: z.string().nullable(),
  edited_name: z.string().nullable(),
  phone: z.string().nullable(),
  numbers: z.array(z.string()),
  lids: z.array(z.string()),
  /** issue 41: business-scoped user ids (BSUIDs) WhatsApp gave for this person, the current one last */
  user_ids: z.array(z.string()),
  /** issue 41: the person's WhatsApp username, when they have one */
  username: z.string().nullable(),
  label_ids: z.array(z.string()),
  custom_properties: z.record(z.string()),
  notes: z.string().nullable(),
  phone_ids: z.array(z.string()),
  source: z.string().nullable(),
  merged_ids: z.array(z.string()),
  created_at: z.number().nullable(),
  last_seen_at: z.number().nullable(),
  updated_at: z.number().nullable(),
  /** the member who last edited it (email) */
  updated_by: z.string().nullable(),
});
export type ContactView = z.infer<typeof ContactView>;

/** One chat of a contact on one org number. */
export const ContactChat = z.object({
  chat_id: z.string(),
  chat_name: z.string().nullable(),
  org_phone: z.string(),
  latest_message_timestamp: z.number().nullable(),
  /** false: the viewer may not open this chat (spec §6 chat_access) */
  has_access: z.boolean(),
});
export type ContactChat = z.infer<typeof ContactChat>;

const epochMs = z.coerce.number({ invalid_type_error: 'must be a number (epoch ms)' }).int('must be whole milliseconds').min(0, 'must not be negative').max(99_999_999_999_999, 'is too large');
const id = (what: string) => z.string().trim().min(1, 'must not be empty').max(100, `${what} is too long`);

export const CONTACT_SORTS = ['name', 'last_seen', 'created'] as const;
export type ContactSort = (typeof CONTACT_SORTS)[number];

/** GET /contacts query. One filter drives the read (a key lookup); the others are checked on its pages. */
export const ContactListQuery = z
  .object({
    q: z.string().trim().max(100, 'must be at most 100 characters').optional(),
    label_id: id('label_id').optional(),
    property_id: id('property_id').optional(),
    property_value: z.string().trim().min(1, 'must not be empty').max(200, 'must be at most 200 characters').optional(),
    phone_id: id('phone_id').optional(),
    seen_from: epochMs.optional(),
    seen_to: epochMs.optional(),
    sort: z.enum(CONTACT_SORTS, { errorMap: () => ({ message: `must be one of ${CONTACT_SORTS.join(', ')}` }) }).default('name'),
    order: z.enum(['asc', 'desc'], { errorMap: () => ({ message: 'must be asc or desc' }) }).optional(),
    limit: z.coerce.number({ invalid_type_error: 'must be a number' }).int('must be a whole number').min(1, 'must be at least 1').max(200, 'must be at most 200').default(50),
    cursor: z.string().max(2000, 'is too long').optional(),
  })
  .refine((v) => !v.property_value || v.property_id, { message: 'needs property_id', path: ['property_value'] })
  .refine((v) => v.seen_from === undefined || v.seen_to === undefined || v.seen_from <= v.seen_to, { message: 'must not be after seen_to', path: ['seen_from'] });
export type ContactListQuery = z.input<typeof ContactListQuery>;

export const ContactListResponse = z.object({ contacts: z.array(ContactView), cursor: z.string().nullable() });
export type ContactListResponse = z.infer<typeof ContactListResponse>;

const name = z.string().trim().max(250, 'must be at most 250 characters');
const notes = z.string().max(5000, 'must be at most 5000 characters');
const labelIds = z.array(id('label_id')).max(20, 'must have at most 20 labels');
const props = z.record(z.string().max(100), z.string().max(500, 'must be at most 500 characters')).refine((r) => Object.keys(r).length <= 50, { message: 'must have at most 50 properties' });

/** POST /contacts: a number (any common format; read as E.164, default country IN) and optional details. */
export const CreateContactInput = z.object({
  phone: z.string({ required_error: 'is required' }).trim().min(3, 'must be a phone number').max(40, 'must be a phone number'),
  name: name.optional(),
  label_ids: labelIds.optional(),
  custom_properties: props.optional(),
  notes: notes.optional(),
});
export type CreateContactInput = z.infer<typeof CreateContactInput>;

/** PATCH /contacts/{contact_id}: any of these; `name` '' clears the edited name; a property '' clears it. */
export const UpdateContactInput = z
  .object({
    name: name.optional(),
    label_ids: labelIds.optional(),
    custom_properties: props.optional(),
    notes: notes.optional(),
  })
  .refine((v) => Object.values(v).some((x) => x !== undefined), { message: 'give name, label_ids, custom_properties or notes', path: ['name'] });
export type UpdateContactInput = z.infer<typeof UpdateContactInput>;

/** issue 41 §7: one identifier of a contact and its history (numbers masked for masked viewers). Times epoch ms. */
export const ContactIdentifierView = z.object({
  kind: z.enum(['phone', 'bsuid', 'parent_bsuid']),
  value: z.string(),
  first_seen_at: z.number(),
  /** the identifier that replaced it (WhatsApp announced a new number or BSUID), or null while current */
  replaced_by: z.string().nullable(),
  replaced_at: z.number().nullable(),
});
export type ContactIdentifierView = z.infer<typeof ContactIdentifierView>;

export const ContactDetail = z.object({ contact: ContactView, chats: z.array(ContactChat), identifiers: z.array(ContactIdentifierView) });
export type ContactDetail = z.infer<typeof ContactDetail>;

/** What the delete confirmation says (spec words for the web app and the API). */
export const DELETE_CONTACT_NOTE = 'The contact’s name, labels, properties and notes are removed. Its chats and messages are kept, and a new contact is created if this person writes again.';

/** POST /contacts/{contact_id}/merge and /unmerge (issue 15 item 2). */
export const MergeContactInput = z.object({ other_contact_id: z.string({ required_error: 'is required' }).trim().min(1, 'must not be empty').max(100, 'is too long') });
export type MergeContactInput = z.infer<typeof MergeContactInput>;

/** What the merge confirmation says (the rules of shared/contact/merge.rules.ts, in words). */
export const MERGE_CONTACT_NOTE =
  'The two become one contact: numbers, labels and chats are combined, this contact’s property values are kept and the other’s fill the empty ones, and the notes are joined. The other contact stops showing in lists and search. You can unmerge them later.';

/** GET /contacts/export.csv: the list's filters (no page size or cursor: the whole filtered set). */
export const ContactExportQuery = z.object({
  q: z.string().trim().max(100, 'must be at most 100 characters').optional(),
  label_id: id('label_id').optional(),
  property_id: id('property_id').optional(),
  property_value: z.string().trim().min(1, 'must not be empty').max(200, 'must be at most 200 characters').optional(),
  phone_id: id('phone_id').optional(),
  seen_from: epochMs.optional(),
  seen_to: epochMs.optional(),
  sort: z.enum(CONTACT_SORTS, { errorMap: () => ({ message: `must be one of ${CONTACT_SORTS.join(', ')}` }) }).default('name'),
  order: z.enum(['asc', 'desc'], { errorMap: () => ({ message: 'must be asc or desc' }) }).optional(),
});
export type ContactExportQuery = z.infer<typeof ContactExportQuery>;
