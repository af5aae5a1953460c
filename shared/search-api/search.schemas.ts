import { z } from 'zod';

/**
 * Wire shapes of the search API (browser-safe; issue 14, spec §9):
 * GET /api/orgs/{org_id}/search?q&kind&phone_id&label_id&sender&from&to&message_type&limit&cursor.
 * `from`/`to` are epoch ms, inclusive. Up to 500 hits per kind per page (spec §9), with a cursor
 * per kind for the next page (send it back with that `kind`).
 */
export const SEARCH_KINDS = ['chats', 'messages', 'notes', 'tickets', 'contacts', 'media'] as const;
export type SearchKind = (typeof SEARCH_KINDS)[number];
/** spec §9: results capped at 500 per kind (per page; the cursor pages past it) */
export const SEARCH_PAGE_MAX = 500;

export const SearchQuery = z
  .object({
    q: z.string({ required_error: 'is required' }).trim().min(1, 'is required').max(200, 'must be at most 200 characters'),
    kind: z.enum(['all', ...SEARCH_KINDS], { errorMap: () => ({ message: `must be one of all, ${SEARCH_KINDS.join(', ')}` }) }).default('all'),
    phone_id: z.string().min(1).max(100).optional(),
    label_id: z.string().min(1).max(100).optional(),
    /** a sender's number (digits) or name / member email */
    sender: z.string().trim().min(1).max(200).optional(),
    message_type: z.string().min(1).max(40).optional(),
    from: z.coerce.number({ invalid_type_error: 'must be epoch ms' }).int('must be epoch ms').min(0, 'must be epoch ms').optional(),
    to: z.coerce.number({ invalid_type_error: 'must be epoch ms' }).int('must be epoch ms').min(0, 'must be epoch ms').optional(),
    limit: z.coerce.number({ invalid_type_error: 'must be a number' }).int('must be a whole number').min(1, 'must be at least 1').max(SEARCH_PAGE_MAX, `must be at most ${SEARCH_PAGE_MAX}`).default(50),
    cursor: z
      .string()
      .regex(/^\d{1,7}$/, 'is not a cursor from this search')
      .optional(),
  })
  .refine((v) => v.from === undefined || v.to === undefined || v.from <= v.to, { message: 'must not be after to', path: ['from'] })
  .refine((v) => !v.cursor || v.kind !== 'all', { message: 'needs a kind (cursors are per kind)', path: ['cursor'] });
export type SearchQuery = z.infer<typeof SearchQuery>;

/** A hit. Message-like kinds carry unique_id/message_id; tickets ticket_id; contacts contact_id. `snippet` is HTML-escaped text with the match in <mark>. */
export const SearchItem = z.object({
  chat_id: z.string(),
  unique_id: z.string().nullish(),
  message_id: z.string().nullish(),
  ticket_id: z.string().nullish(),
  contact_id: z.string().nullish(),
  /** chat name, contact name or ticket subject (masked when numbers are masked) */
  title: z.string().nullish(),
  snippet: z.string(),
  /** epoch ms */
  timestamp: z.number().nullish(),
  sender_phone: z.string().nullish(),
  author: z.string().nullish(),
  message_type: z.string().nullish(),
  status: z.string().nullish(),
});
export type SearchItem = z.infer<typeof SearchItem>;

export const SearchKindResult = z.object({ items: z.array(SearchItem), cursor: z.string().nullable() });
export type SearchKindResult = z.infer<typeof SearchKindResult>;
export const SearchResponse = z.object({ results: z.record(z.enum(SEARCH_KINDS), SearchKindResult) });
export type SearchResponse = { results: Partial<Record<SearchKind, SearchKindResult>> };
