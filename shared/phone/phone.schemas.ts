/** API contracts of /settings/phones (browser-safe zod). Spec §3 Phone, §7 Add phone, §8, §9 phone counter. */
import { z } from 'zod';

/** Meta ids (phone_number_id, WABA id) are numeric strings; 1–30 digits is generous. */
const MetaId = (what: string) =>
  z
    .string({ required_error: `Please enter the ${what}` })
    .trim()
    .min(1, `Please enter the ${what}`)
    .regex(/^\d{1,30}$/, `The ${what} is a number from Meta's WhatsApp Manager (digits only)`);

/** POST /api/orgs/{org_id}/phones body. The token is checked against the Graph API before saving. */
export const AddPhoneInput = z
  .object({
    phone_number_id: MetaId('phone number id'),
    waba_id: MetaId('WhatsApp Business Account id'),
    access_token: z
      .string({ required_error: 'Please enter the access token' })
      .trim()
      .min(1, 'Please enter the access token')
      .max(2048, 'The access token is too long')
      .regex(/^\S+$/, 'The access token must not contain spaces')
      // Meta's tokens are printable ASCII; anything else cannot go into the Authorization header (was a 502)
      .regex(/^[\x20-\x7e]*$/, 'The access token must be letters, digits and symbols only'),
  })
  .strict();
export type AddPhoneInput = z.infer<typeof AddPhoneInput>;

/** A row of the phone list; the access token is never part of it. */
export const PhoneView = z.object({
  phone_id: z.string(),
  /** display digits, e.g. "15550783881" */
  org_phone: z.string(),
  is_ready: z.boolean(),
  /** epoch ms, null when never connected */
  first_connected_at: z.number().nullable(),
  /** epoch ms */
  created_at: z.number(),
  waba_id: z.string().nullable(),
  verified_name: z.string().nullable().optional(),
  /** 'wa_cloud' (Cloud API) or 'wa_web' (a linked WhatsApp Web device) */
  connection_type: z.enum(['wa_cloud', 'wa_web']).optional(),
  /** wa_web only: its session's state (linking, qr, open, closed, logged_out, locked) */
  session_state: z.enum(['linking', 'qr', 'open', 'closed', 'logged_out', 'locked']).nullable().optional(),
});
export type PhoneView = z.infer<typeof PhoneView>;

/**
 * POST /api/orgs/{org_id}/phones/wa-web body: link a number as a WhatsApp Web device (the number in
 * international form; the QR follows on the socket and GET …/wa-web-session).
 */
export const AddWaWebPhoneInput = z
  .object({
    phone: z
      .string({ required_error: 'Please enter the phone number' })
      .trim()
      .transform((s) => s.replace(/[\s\-()+]/g, ''))
      .pipe(z.string().regex(/^\d{7,15}$/, 'Enter the number with its country code, digits only (7 to 15 digits)')),
  })
  .strict();
export type AddWaWebPhoneInput = z.infer<typeof AddWaWebPhoneInput>;

/** GET /api/orgs/{org_id}/phones/{phone_id}/wa-web-session (admins): the linking state and QR. */
export const WaWebSessionView = z.object({
  phone_id: z.string(),
  state: z.enum(['linking', 'qr', 'open', 'closed', 'logged_out', 'locked']),
  /** the QR text to render while state is 'qr' */
  qr: z.string().nullable(),
  detail: z.string().nullable(),
  /** epoch ms of the last change */
  at: z.number(),
});
export type WaWebSessionView = z.infer<typeof WaWebSessionView>;

/** Words for a WhatsApp Web session state (phone list and link dialog). */
export const WA_WEB_STATE_LABELS = {
  linking: 'Starting…',
  qr: 'Waiting for the QR scan',
  open: 'Ready',
  closed: 'Reconnecting',
  logged_out: 'Logged out — link again',
  locked: 'Blocked by WhatsApp',
} as const;

/** GET /api/orgs/{org_id}/phones response. */
export const PhoneList = z.object({
  phones: z.array(PhoneView),
  /** phones with is_ready */
  connected: z.number(),
  /** the counter's denominator: max(phone count, plan limit) (spec §9) */
  limit: z.number(),
});
export type PhoneList = z.infer<typeof PhoneList>;

/** Spec §9: connected phones over the larger of the phone count and the plan's phone limit. */
export function phoneCounter(phones: ReadonlyArray<{ is_ready: boolean }>, planLimit: number): { connected: number; limit: number } {
  return { connected: phones.filter((p) => p.is_ready).length, limit: Math.max(phones.length, planLimit) };
}

/** Spec §8 Add phone toasts, verbatim. */
export const PHONE_MESSAGES = {
  adding: 'Adding phone...',
  added: 'New phone added successfully!',
  addFailed: 'An error occured in adding phone! Please try again',
} as const;
