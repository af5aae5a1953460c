import { z } from 'zod';
import { CURRENCIES, FEATURES, PLAN_IDS } from './catalog.rules.ts';
import { SUBSCRIPTION_STATUSES } from './entitlements.rules.ts';

/** GET /api/orgs/{org_id}/plan: the org's plan, limits, usage and (admins) invoices. Times: `trial_ends_at` epoch ms, `org_plan.current_period_end` epoch s. */
export const PlanView = z.object({
  org_id: z.string(),
  plan: z.object({ id: z.enum(PLAN_IDS), name: z.string(), rank: z.number() }),
  subscription_status: z.enum(SUBSCRIPTION_STATUSES),
  is_free_trial: z.boolean(),
  is_enterprise: z.boolean(),
  org_plan: z.object({ plan_id: z.string(), current_period_end: z.number() }).nullable(),
  trial_ends_at: z.number().nullable(),
  trial_extension_requested_at: z.number().nullable(),
  billing_frequency: z.string().nullable(),
  currency: z.enum(CURRENCIES),
  licences: z.number(),
  addons: z.object({ phones: z.number(), users: z.number() }),
  limits: z.object({ phones: z.number(), members: z.number(), broadcast_credits: z.number(), rules: z.number() }),
  usage: z.object({ phones: z.number(), connected_phones: z.number(), members: z.number() }),
  /** spec §9 phone counter text, e.g. '1/3' */
  phone_counter: z.string(),
  features: z.array(z.enum(FEATURES)),
  /** spec §3 access_scopes.feature_flags.maintenance */
  maintenance: z.boolean(),
  /** one of the two organizations maintenance never blocks (spec §4) */
  maintenance_exempt: z.boolean(),
  /** the admin-settable flags of settings/config (shared/org/org-settings.schemas.ts), resolved (unset = on) */
  feature_flags: z.object({ onboarding_cards: z.boolean(), whats_new: z.boolean(), phones_disconnected_banner: z.boolean() }),
  /** a phone was connected at least once (Getting Started hides) */
  phone_ever_connected: z.boolean(),
  /** every phone connected once is now disconnected (the Reconnect phones banner) */
  all_phones_disconnected: z.boolean(),
  invoices: z.array(z.object({ id: z.string(), number: z.string().nullable(), amount: z.number(), currency: z.string(), status: z.string(), created: z.number(), url: z.string().nullable() })),
});
export type PlanView = z.infer<typeof PlanView>;

/** POST /plan/checkout (admins): the plan to buy. Enterprise is custom (contact sales), not a checkout. */
export const CheckoutInput = z
  .object({
    plan_id: z.enum(['starter', 'pro']),
    frequency: z.enum(['yearly', 'monthly', 'weekly']),
    currency: z.enum(CURRENCIES),
    licences: z.number().int().min(1).max(500),
    addon_phones: z.number().int().min(0).max(100).default(0),
  })
  .strict();
export type CheckoutInput = z.infer<typeof CheckoutInput>;

/** POST /plan/trial-extension: spec §7 notify kind 'gtm' carries the shared post link; spec §5 submit disabled when empty. */
export const TrialExtensionInput = z.object({ shared_post_link: z.string().trim().url().max(2000) }).strict();
export type TrialExtensionInput = z.infer<typeof TrialExtensionInput>;

/** spec §8 Trial extension failure, verbatim. */
export const TRIAL_EXTENSION_FAILED = 'Failed to submit request';
