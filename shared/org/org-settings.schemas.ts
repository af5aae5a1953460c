/**
 * API contracts of the organization settings pages of spec §2 (issue 22 item 5), browser-safe zod:
 * - settings/general: org_name, org_image, display_language (spec §3), time_zone and business_hours
 *   (validated by shared/org/business-hours.rules.ts);
 * - settings/config: the feature flags an admin may set (spec §3 `access_scopes.feature_flags`;
 *   `maintenance` is NOT one of them: only the platform sets it, spec §4);
 * - settings/library: the media library's settings (`library_settings`).
 * Every page: any member reads (GET), admins write (PUT, spec §2/§6: the pages are admin-only).
 * PUT bodies are partial (keys not sent keep their value) and strict (unknown keys → 400).
 */
import { z } from 'zod';
import { TimeZoneSchema, WeeklyHoursSchema, type WeeklyHours } from './business-hours.rules.ts';
import { LIBRARY_MEDIA_TYPES } from '../media/media.schemas.ts';

/** spec §5/§9: setup inputs are limited to 250 characters; the name keeps that limit. */
export const ORG_NAME_MAX = 250;

/** spec §3 display_language: the languages the workspace may choose (BCP 47 codes). */
export const DISPLAY_LANGUAGES = [
  { code: 'en', label: 'English' },
  { code: 'pt-BR', label: 'Português (Brasil)' },
  { code: 'es', label: 'Español' },
  { code: 'hi', label: 'हिन्दी (Hindi)' },
] as const;
export type DisplayLanguage = (typeof DISPLAY_LANGUAGES)[number]['code'];
const LANGUAGE_CODES = DISPLAY_LANGUAGES.map((l) => l.code) as [DisplayLanguage, ...DisplayLanguage[]];
export const DEFAULT_DISPLAY_LANGUAGE: DisplayLanguage = 'en';

/** GET/PUT …/settings/general response. */
export interface GeneralSettings {
  org_name: string;
  /** an http(s) image URL, or null for the initials avatar */
  org_image: string | null;
  display_language: DisplayLanguage;
  /** IANA zone; 'UTC' until set */
  time_zone: string;
  business_hours: WeeklyHours;
}

/** PUT …/settings/general body: any subset. */
export const UpdateGeneralSettingsInput = z
  .object({
    org_name: z.string().trim().min(1, 'Please enter an organization name').max(ORG_NAME_MAX, `must be at most ${ORG_NAME_MAX} characters`).optional(),
    org_image: z
      .string()
      .trim()
      .max(2000, 'must be at most 2000 characters')
      .url('must be an image URL')
      .refine((u) => /^https?:\/\//i.test(u), 'must be an http(s) URL')
      .nullable()
      .optional(),
    display_language: z.enum(LANGUAGE_CODES, { errorMap: () => ({ message: `must be one of ${LANGUAGE_CODES.join(', ')}` }) }).optional(),
    time_zone: TimeZoneSchema.optional(),
    business_hours: WeeklyHoursSchema.optional(),
  })
  .strict();
export type UpdateGeneralSettingsInput = z.infer<typeof UpdateGeneralSettingsInput>;

/**
 * The feature flags an admin may set on settings/config, with their defaults (all on). The plans
 * feature honours them (web/src/features/plans/LifecycleLayer.tsx):
 * - onboarding_cards: Getting Started and the onboarding cards until a first phone is connected;
 * - whats_new: What's New in the sidebar footer;
 * - phones_disconnected_banner: the banner when every previously connected phone is disconnected.
 */
export const ADMIN_FEATURE_FLAGS = [
  { key: 'onboarding_cards', label: 'Getting Started and onboarding cards', help: 'Show the Getting Started panel and its cards until a first phone is connected.' },
  { key: 'whats_new', label: "What's New", help: "Show What's New (the changelog) in the sidebar footer." },
  { key: 'phones_disconnected_banner', label: 'Phones disconnected banner', help: 'Warn everyone with a banner when every connected phone has disconnected.' },
] as const;
export type AdminFeatureFlag = (typeof ADMIN_FEATURE_FLAGS)[number]['key'];
export const ADMIN_FEATURE_FLAG_KEYS = ADMIN_FEATURE_FLAGS.map((f) => f.key) as AdminFeatureFlag[];
export type AdminFeatureFlags = Record<AdminFeatureFlag, boolean>;

/** The flags with every unset key resolved to its default (on). Pure: the API and the web app use it. */
export function resolveFeatureFlags(flags: Record<string, unknown> | null | undefined): AdminFeatureFlags {
  return Object.fromEntries(ADMIN_FEATURE_FLAG_KEYS.map((k) => [k, flags?.[k] !== false])) as AdminFeatureFlags;
}

/** spec §4: maintenance is a platform switch (`npm run incident`/operators), never an admin's. */
export const MAINTENANCE_NOT_ADMIN = 'Maintenance is set by the platform only';

/** GET/PUT …/settings/config response. */
export interface ConfigSettings {
  feature_flags: AdminFeatureFlags;
}

const flag = z.boolean({ invalid_type_error: 'must be true or false' }).optional();
/** PUT …/settings/config body: `{ feature_flags: { <flag>?: boolean } }`; `maintenance` → 400 with {@link MAINTENANCE_NOT_ADMIN}. */
export const UpdateConfigSettingsInput = z
  .object({
    feature_flags: z
      .object({
        ...(Object.fromEntries(ADMIN_FEATURE_FLAG_KEYS.map((k) => [k, flag])) as Record<AdminFeatureFlag, typeof flag>),
        maintenance: z.unknown().optional(),
      })
      .strict()
      .superRefine((v, ctx) => {
        if ('maintenance' in v) ctx.addIssue({ code: z.ZodIssueCode.custom, path: ['maintenance'], message: MAINTENANCE_NOT_ADMIN });
      }),
  })
  .strict();
export type UpdateConfigSettingsInput = z.infer<typeof UpdateConfigSettingsInput>;

/** How long the library keeps media, days; null = forever. */
export const LIBRARY_RETENTION_DAYS = [30, 90, 180, 365] as const;
export const LIBRARY_DEFAULT_TYPES = ['all', ...LIBRARY_MEDIA_TYPES] as const;

/**
 * The media library's settings (`organization.library_settings`):
 * - save_incoming: keep media customers send in the library (on by default);
 * - save_outgoing: keep media the team sends (on by default);
 * - retention_days: how long items stay listed, days (null = forever);
 * - default_type: the type filter /media opens with.
 */
export interface LibrarySettings {
  save_incoming: boolean;
  save_outgoing: boolean;
  retention_days: (typeof LIBRARY_RETENTION_DAYS)[number] | null;
  default_type: (typeof LIBRARY_DEFAULT_TYPES)[number];
}
export const DEFAULT_LIBRARY_SETTINGS: LibrarySettings = { save_incoming: true, save_outgoing: true, retention_days: null, default_type: 'all' };

const retention = z.union(
  LIBRARY_RETENTION_DAYS.map((d) => z.literal(d)) as unknown as [z.ZodLiteral<30>, z.ZodLiteral<90>, z.ZodLiteral<180>, z.ZodLiteral<365>],
  { errorMap: () => ({ message: `must be one of ${LIBRARY_RETENTION_DAYS.join(', ')} or null` }) },
);
/** PUT …/settings/library body: any subset. */
export const UpdateLibrarySettingsInput = z
  .object({
    save_incoming: flag,
    save_outgoing: flag,
    retention_days: retention.nullable().optional(),
    default_type: z.enum(LIBRARY_DEFAULT_TYPES, { errorMap: () => ({ message: `must be one of ${LIBRARY_DEFAULT_TYPES.join(', ')}` }) }).optional(),
  })
  .strict();
export type UpdateLibrarySettingsInput = z.infer<typeof UpdateLibrarySettingsInput>;

/** The stored library settings with defaults for what is unset or malformed. Pure. */
export function resolveLibrarySettings(stored: unknown): LibrarySettings {
  const s = (stored && typeof stored === 'object' ? stored : {}) as Record<string, unknown>;
  const parsed = UpdateLibrarySettingsInput.safeParse(Object.fromEntries(Object.entries(s).filter(([k]) => k in DEFAULT_LIBRARY_SETTINGS)));
  return { ...DEFAULT_LIBRARY_SETTINGS, ...(parsed.success ? (Object.fromEntries(Object.entries(parsed.data).filter(([, v]) => v !== undefined)) as Partial<LibrarySettings>) : {}) };
}
