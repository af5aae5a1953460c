/**
 * API contracts of organization settings and organization setup (browser-safe zod). The setup
 * form and POST /api/orgs validate with the same schema, so the toasts of spec §5 and the API's
 * 400 reasons are the same words.
 */
import { z } from 'zod';
import { isValidPhoneNumber, parsePhoneNumberWithError } from 'libphonenumber-js';

/** Member permissions as the settings page sees them: every key resolved (unset = allowed, spec §6). */
export const MemberPermissionsSettings = z.object({
  analytics: z.boolean(),
  bulk_message: z.boolean(),
  rules: z.boolean(),
  contacts: z.boolean(),
  chat_assignee: z.boolean(),
});
export type MemberPermissionsSettings = z.infer<typeof MemberPermissionsSettings>;

/** GET/PUT /api/orgs/{org_id}/settings/permissions response. */
export const PermissionSettings = z.object({
  mask_phone_numbers: z.boolean(),
  member_permissions: MemberPermissionsSettings,
});
export type PermissionSettings = z.infer<typeof PermissionSettings>;

/** PUT /api/orgs/{org_id}/settings/permissions body: any subset; keys not sent keep their value. */
export const UpdatePermissionSettingsInput = z
  .object({
    mask_phone_numbers: z.boolean({ invalid_type_error: 'must be true or false' }).optional(),
    member_permissions: z
      .object({
        analytics: z.boolean({ invalid_type_error: 'must be true or false' }).optional(),
        bulk_message: z.boolean({ invalid_type_error: 'must be true or false' }).optional(),
        rules: z.boolean({ invalid_type_error: 'must be true or false' }).optional(),
        contacts: z.boolean({ invalid_type_error: 'must be true or false' }).optional(),
        chat_assignee: z.boolean({ invalid_type_error: 'must be true or false' }).optional(),
      })
      .strict()
      .optional(),
  })
  .strict();
export type UpdatePermissionSettingsInput = z.infer<typeof UpdatePermissionSettingsInput>;

/** Spec §5 'Where did you hear about us?' options, in the spec's order. */
export const REFERRAL_SOURCES = ['facebook/instagram', 'google', 'linkedin', 'email', 'referral / word of mouth', 'Other'] as const;
/** Currencies offered at setup; spec §9: the default falls back to the US one. */
export const CURRENCIES = ['INR', 'BRL', 'USD'] as const;
/** Spec §5/§9: setup inputs are limited to 250 characters. */
export const SETUP_INPUT_MAX = 250;
/** Spec §9: default country of phone numbers. */
export const DEFAULT_PHONE_COUNTRY = 'IN';

/** Spec §5 messages (verbatim). */
export const ORG_SETUP_MESSAGES = {
  orgNameRequired: 'Please enter an organization name',
  phoneRequired: 'Please enter your number',
  phoneInvalid: 'Invalid phone number',
  referralRequired: 'Please select where you heard about us',
  createFailed: 'Error in creating the org. Please try again',
  freeTrialLimit: 'You have reached the maximum number of workspaces on a free trial. Please contact support to create additional workspaces',
} as const;

/**
 * A phone number in international form (E.164, e.g. '+919876543210'), or undefined when it is not
 * a valid number. Numbers without a '+' are read as Indian (spec §9 default country IN).
 */
export function normalizePhoneNumber(value: string): string | undefined {
  const v = value.trim();
  if (!v || !isValidPhoneNumber(v, DEFAULT_PHONE_COUNTRY)) return undefined;
  try {
    return parsePhoneNumberWithError(v, DEFAULT_PHONE_COUNTRY).number;
  } catch {
    return undefined;
  }
}

/**
 * POST /api/orgs body (spec §3 organization creation payload, §5 rules). Output: trimmed names,
 * the phone in E.164, currency defaulted to USD. Issues are reported in the form's order (name,
 * phone, where-did-you-hear), so the first one is the toast to show.
 */
export const CreateOrgInput = z.object({
  org_name: z
    .string({ required_error: ORG_SETUP_MESSAGES.orgNameRequired, invalid_type_error: ORG_SETUP_MESSAGES.orgNameRequired })
    .trim()
    .min(1, ORG_SETUP_MESSAGES.orgNameRequired)
    .max(SETUP_INPUT_MAX, `Organization name must be at most ${SETUP_INPUT_MAX} characters`),
  contact_name: z.string().trim().max(SETUP_INPUT_MAX, `Contact name must be at most ${SETUP_INPUT_MAX} characters`).optional(),
  phone_number: z
    .string({ required_error: ORG_SETUP_MESSAGES.phoneRequired, invalid_type_error: ORG_SETUP_MESSAGES.phoneRequired })
    .trim()
    .min(1, ORG_SETUP_MESSAGES.phoneRequired)
    .transform((v, ctx) => {
      const e164 = normalizePhoneNumber(v);
      if (!e164) {
        ctx.addIssue({ code: z.ZodIssueCode.custom, message: ORG_SETUP_MESSAGES.phoneInvalid });
        return z.NEVER;
      }
      return e164;
    }),
  referralSource: z.enum(REFERRAL_SOURCES, {
    errorMap: () => ({ message: ORG_SETUP_MESSAGES.referralRequired }),
  }),
  currency: z.enum(CURRENCIES, { errorMap: () => ({ message: `must be one of ${CURRENCIES.join(', ')}` }) }).default('USD'),
});
export type CreateOrgInput = z.input<typeof CreateOrgInput>;
export type CreateOrgData = z.output<typeof CreateOrgInput>;

/** The first problem of a setup form, as spec §5's toast text; null when valid. */
export function firstOrgSetupError(input: unknown): string | null {
  const r = CreateOrgInput.safeParse(input);
  return r.success ? null : r.error.issues[0]?.message ?? ORG_SETUP_MESSAGES.createFailed;
}

/** POST /api/orgs response. */
export const CreateOrgResponse = z.object({ org_id: z.string() });
export type CreateOrgResponse = z.infer<typeof CreateOrgResponse>;
