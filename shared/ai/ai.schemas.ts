import { z } from 'zod';
import { FAQ_MAX_ANSWER, FAQ_MAX_ATTACHMENTS, FAQ_MAX_QUESTION, FAQ_MIN_LENGTH, FAQ_TOO_SHORT_MESSAGE, isAudioAttachment } from './faq.rules.ts';

/** API shapes of the AI agent (issue 18; spec §3 FAQ pair, §5 limits). */

/** spec §3 `{ url, type, name }`: `url` is the file's storage key (`{org_id}/ai_assets/{context_id}/…`, from POST /ai/faqs/uploads), `type` its MIME type. */
export const FaqAttachment = z.object({
  url: z.string().trim().min(1, 'is required').max(2000, 'is too long'),
  type: z.string().trim().min(1, 'is required').max(100, 'is too long'),
  name: z.string().trim().min(1, 'is required').max(200, 'is too long'),
  /**
   * the chat a message's file comes from ('Add to FAQs'): a number chat's media keys carry a hash of
   * its id, not the id (issue 41 §5), so the chat is named here and checked against the key; never stored
   */
  chat_id: z.string().trim().min(1, 'must not be empty').max(300, 'is too long').optional(),
});
export type FaqAttachment = z.infer<typeof FaqAttachment>;

const attachments = z
  .array(FaqAttachment, { invalid_type_error: 'must be a list' })
  .max(FAQ_MAX_ATTACHMENTS, 'One attachment only')
  .refine((list) => !list.some(isAudioAttachment), 'Audio attachments are not supported')
  .default([]);

/** POST /ai/faqs, PUT /ai/faqs/{id}: spec §5 'Question and answer must be at least 10 characters long'. */
export const FaqInput = z.object({
  question: z.string({ required_error: 'is required' }).trim().min(FAQ_MIN_LENGTH, FAQ_TOO_SHORT_MESSAGE).max(FAQ_MAX_QUESTION, 'is too long'),
  answer: z.string({ required_error: 'is required' }).trim().min(FAQ_MIN_LENGTH, FAQ_TOO_SHORT_MESSAGE).max(FAQ_MAX_ANSWER, 'is too long'),
  attachments,
  /** POST only: the context_id an upload minted for this new pair (POST /ai/faqs/uploads); omitted: a new one */
  id: z.string({ invalid_type_error: 'must be text' }).regex(/^[0-9A-HJKMNP-TV-Z]{26}$/, 'must be a pair id').optional(),
});
export type FaqInput = z.infer<typeof FaqInput>;

/** spec §3 FAQ pair: `id` is the context_id. */
export const Faq = z.object({
  id: z.string(),
  question: z.string(),
  answer: z.string(),
  attachments: z.array(FaqAttachment),
  created_by: z.string().nullish(),
  created_at: z.number(),
  updated_at: z.number().nullish(),
});
export type Faq = z.infer<typeof Faq>;

export const ListFaqsQuery = z.object({
  q: z.string().trim().max(200, 'is too long').optional(),
  limit: z.coerce.number({ invalid_type_error: 'must be a number' }).int('must be a whole number').min(1, 'must be at least 1').max(500, 'must be at most 500').default(100),
  cursor: z.string().max(2000, 'is too long').optional(),
});
export type ListFaqsQuery = z.infer<typeof ListFaqsQuery>;

export const FaqParams = z.object({ org_id: z.string().min(1), faq_id: z.string().min(1).max(100, 'is too long') });

const hhmm = z.string().regex(/^([01]\d|2[0-3]):[0-5]\d$/, 'must be HH:MM');

/** The org's AI agent settings (issue 18 §3). Durations: seconds for the response delay, minutes for the pause. */
export const AiSettings = z.object({
  /** on/off for the whole org */
  enabled: z.boolean().default(false),
  /** per number (phone_id -> on); a number not listed follows `enabled` */
  phones: z.record(z.boolean()).default({}),
  /** what a chat the agent has not seen starts as: 'auto' = active, 'manual' = inactive until someone hands it to the agent */
  default_activation: z.enum(['auto', 'manual']).default('auto'),
  /** the name the agent signs its replies with (shown to customers) */
  nickname: z.string().trim().max(40, 'is too long').default('Assistant'),
  /** seconds between the customer's message and the reply (0-600) */
  response_delay_seconds: z.number({ invalid_type_error: 'must be a number' }).int('must be a whole number').min(0, 'must be at least 0').max(600, 'must be at most 600').default(0),
  /** answer only inside these hours (in `timezone`); off = always */
  shift: z
    .object({
      enabled: z.boolean().default(false),
      timezone: z.string().trim().max(64).default('UTC').refine(validTimeZone, 'is not a known time zone'),
      /** 0 = Sunday … 6 = Saturday */
      days: z.array(z.number().int().min(0).max(6)).max(7).default([1, 2, 3, 4, 5]),
      start: hhmm.default('09:00'),
      end: hhmm.default('18:00'),
    })
    .default({}),
  /** private notes (and hand-offs) only: never replies to customers */
  passive_mode: z.boolean().default(false),
  /** minutes the agent stays paused after a human replies (0 = until handed back) */
  pause_after_human_minutes: z.number({ invalid_type_error: 'must be a number' }).int('must be a whole number').min(0, 'must be at least 0').max(10080, 'must be at most 10080').default(60),
  /** answer in group chats too */
  answer_groups: z.boolean().default(false),
  /** 0..1; null = the adapter's default */
  confidence_threshold: z.number().min(0, 'must be at least 0').max(1, 'must be at most 1').nullable().default(null),
  /** label put on a chat the agent hands off (null: an 'AI hand-off' label is made on first use) */
  handoff_label_id: z.string().max(100).nullable().default(null),
});
export type AiSettings = z.infer<typeof AiSettings>;
export const AiSettingsInput = AiSettings;
export type AiSettingsInput = z.input<typeof AiSettings>;

function validTimeZone(tz: string): boolean {
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: tz });
    return true;
  } catch {
    return false;
  }
}

export const AiTestInput = z.object({ question: z.string({ required_error: 'is required' }).trim().min(1, 'is required').max(2000, 'is too long') });

/** Chat `ai_metadata.activation_state` (spec §3; 'thinking' while a reply is prepared). */
export const ACTIVATION_STATES = ['inactive', 'active', 'thinking', 'paused', 'handed_off'] as const;
export type ActivationState = (typeof ACTIVATION_STATES)[number];

/** Chat.ai_metadata. Epoch ms. */
export const AiMetadata = z.object({
  activation_state: z.enum(ACTIVATION_STATES),
  /** paused: when the agent resumes by itself (null: until handed back) */
  paused_until: z.number().nullish(),
  /** thinking: the customer message being answered and when the reply is due */
  pending: z.object({ unique_id: z.string(), due_at: z.number() }).nullish(),
  /** why the state changed ('take_over', 'hand_back', 'human_reply', 'low_confidence', …) */
  reason: z.string().nullish(),
  updated_by: z.string().nullish(),
  updated_at: z.number().nullish(),
});
export type AiMetadata = z.infer<typeof AiMetadata>;

/** PUT /chats/{chat_id}/ai: 'inactive' or 'paused' takes over (cancels a pending reply), 'active' hands back. */
export const ChatAiInput = z.object({ activation_state: z.enum(['active', 'inactive', 'paused']) });

export const ListDecisionsQuery = z.object({
  limit: z.coerce.number({ invalid_type_error: 'must be a number' }).int('must be a whole number').min(1, 'must be at least 1').max(200, 'must be at most 200').default(50),
  cursor: z.string().max(2000, 'is too long').optional(),
});

const ULID_RE = /^[0-9A-HJKMNP-TV-Z]{26}$/;

/** POST /ai/faqs/uploads: `faq_id` is the pair's context_id (omit it for a new pair: one is minted). */
export const FaqUploadInput = z.object({
  filename: z.string({ required_error: 'is required', invalid_type_error: 'must be text' }).trim().min(1, 'must not be empty').max(200, 'must be at most 200 characters'),
  mimetype: z.string({ required_error: 'is required', invalid_type_error: 'must be text' }).trim().min(1, 'must not be empty').max(255, 'is too long'),
  /** bytes */
  size: z.number({ required_error: 'is required', invalid_type_error: 'must be a number' }).int('must be a whole number').min(1, 'is an empty file'),
  faq_id: z.string({ invalid_type_error: 'must be text' }).regex(ULID_RE, 'must be a pair id').optional(),
});
export type FaqUploadInput = z.infer<typeof FaqUploadInput>;

/** 201 of POST /ai/faqs/uploads. */
export interface FaqUploadResponse {
  /** the pair's context_id (given or minted): create the pair with this `id` */
  faq_id: string;
  upload_url: string;
  /** the attachment's `url` when the pair is saved */
  key: string;
  /** headers the PUT must carry (the signature covers them) */
  headers: Record<string, string>;
  /** epoch ms */
  expires_at: number;
  /** the attachment to save with the pair */
  attachment: FaqAttachment;
}


/** One AI agent decision as GET /ai/decisions returns it (for /logs' AI tab); times epoch ms, `question` null when masked. */
export interface AiDecisionWire {
  decision_id: string;
  chat_id: string;
  question: string | null;
  outcome: string;
  reason: string | null;
  answer: string | null;
  confidence: number | null;
  candidates: unknown;
  latency_ms: number | null;
  created_at: number;
  decided_at: number | null;
}
