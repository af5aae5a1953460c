/**
 * The plan catalogue (spec §3 Plan, §9 Plans), in one place: tiers, prices per currency and billing
 * frequency (minor units), what each tier includes (phones, users) and which features it has.
 * Browser-safe (no I/O): the API (shared/plan/plan.ts) and the web app (settings/plans) read the
 * same constants through shared/plan/entitlements.rules.ts.
 *
 * Figures the spec does not give (the prices, the phones and users each tier includes, the trial's
 * allowance) are ours and marked so; the ranks, currencies, minor units, frequencies, suffixes, the
 * features Starter lacks, what Enterprise adds, the add-ons and the per-licence credits are spec §9.
 */

/** spec §9: Rank Starter 1, Pro 2, Enterprise 3. */
export const PLAN_IDS = ['starter', 'pro', 'enterprise'] as const;
export type PlanId = (typeof PLAN_IDS)[number];

/** spec §9: currencies INR, BRL, USD; minor units p(aise), cents (centavos), (US) cents. Default falls back to USD. */
export const CURRENCIES = ['INR', 'BRL', 'USD'] as const;
export type Currency = (typeof CURRENCIES)[number];
export const DEFAULT_CURRENCY: Currency = 'USD';
/** Minor units per major unit and the minor unit's name (spec §9 'minor units p, cents, sen'). */
export const CURRENCY_INFO: Record<Currency, { symbol: string; minor: number; minorName: string }> = {
  INR: { symbol: '₹', minor: 100, minorName: 'p' },
  BRL: { symbol: 'R$', minor: 100, minorName: 'cents' },
  USD: { symbol: '$', minor: 100, minorName: 'cents' },
};

/** spec §9: billing frequencies yearly, monthly, weekly, custom (suffix /mo or /wk). */
export const FREQUENCIES = ['yearly', 'monthly', 'weekly', 'custom'] as const;
export type Frequency = (typeof FREQUENCIES)[number];
/** The price suffix: yearly plans are shown as their monthly equivalent (/mo); weekly as /wk; custom has none (spec §9). */
export const FREQUENCY_SUFFIX: Record<Frequency, string> = { yearly: '/mo', monthly: '/mo', weekly: '/wk', custom: '' };

/** Features a tier may have (spec §9 'Starter lacks …'; 'Enterprise adds …'). */
export const FEATURES = [
  'rule_based_ticketing',
  'advanced_analytics',
  'exports',
  'ai_autoresponder',
  'integrations',
  'rules_engine',
  'custom_api_webhooks',
  'custom_billing',
  'contracts',
  'priority_support',
  'account_manager',
] as const;
export type Feature = (typeof FEATURES)[number];

/** Human names of the features (the plans pages). */
export const FEATURE_LABELS: Record<Feature, string> = {
  rule_based_ticketing: 'Rule-based ticketing',
  advanced_analytics: 'Advanced analytics',
  exports: 'Exports',
  ai_autoresponder: 'AI autoresponder',
  integrations: 'Integrations',
  rules_engine: 'Rules engine',
  custom_api_webhooks: 'Custom API and webhooks',
  custom_billing: 'Custom billing',
  contracts: 'Contracts',
  priority_support: 'Priority support',
  account_manager: 'Account manager',
};

const PRO_FEATURES: Feature[] = ['rule_based_ticketing', 'advanced_analytics', 'exports', 'ai_autoresponder', 'integrations', 'rules_engine', 'custom_api_webhooks'];

export interface PlanDef {
  id: PlanId;
  name: string;
  /** spec §9 rank */
  rank: 1 | 2 | 3;
  /** phones included (ours; spec §9 only says add-ons raise it) */
  phones: number;
  /** users (licences) included before add-ons (ours) */
  users: number;
  features: readonly Feature[];
  /** which add-ons may be bought (spec §9: phones and users for Pro; users for Starter) */
  addons: { phones: boolean; users: boolean };
  /**
   * Price per licence per billing period in minor units, by currency and frequency (ours). `custom`
   * (Enterprise) has no list price: it is agreed in a contract. Yearly is billed once a year and
   * shown per month.
   */
  prices: Partial<Record<Frequency, Record<Currency, number>>>;
}

export const PLANS: Record<PlanId, PlanDef> = {
  starter: {
    id: 'starter',
    name: 'Starter',
    rank: 1,
    phones: 1,
    users: 3,
    features: [],
    addons: { phones: false, users: true },
    prices: {
      yearly: { INR: 1_799_00 * 12, BRL: 109_00 * 12, USD: 19_00 * 12 },
      monthly: { INR: 2_199_00, BRL: 129_00, USD: 24_00 },
      weekly: { INR: 599_00, BRL: 35_00, USD: 7_00 },
    },
  },
  pro: {
    id: 'pro',
    name: 'Pro',
    rank: 2,
    phones: 3,
    users: 5,
    features: PRO_FEATURES,
    addons: { phones: true, users: true },
    prices: {
      yearly: { INR: 3_299_00 * 12, BRL: 199_00 * 12, USD: 39_00 * 12 },
      monthly: { INR: 3_999_00, BRL: 239_00, USD: 49_00 },
      weekly: { INR: 1_099_00, BRL: 65_00, USD: 14_00 },
    },
  },
  enterprise: {
    id: 'enterprise',
    name: 'Enterprise',
    rank: 3,
    phones: 10,
    users: 20,
    features: [...PRO_FEATURES, 'custom_billing', 'contracts', 'priority_support', 'account_manager'],
    addons: { phones: true, users: true },
    prices: { custom: { INR: 0, BRL: 0, USD: 0 } },
  },
};

/** Add-on prices per unit per month in minor units (ours): an extra phone, an extra user. */
export const ADDON_PRICES: Record<'phones' | 'users', Record<Currency, number>> = {
  phones: { INR: 999_00, BRL: 59_00, USD: 12_00 },
  users: { INR: 799_00, BRL: 45_00, USD: 9_00 },
};

/**
 * What one extra phone costs per billing period (minor units): the monthly add-on price, ×12 for
 * yearly, a quarter (rounded up) for weekly. The checkout's line item and the plan page's label.
 */
export function addonPhoneUnit(currency: Currency, frequency: Exclude<Frequency, 'custom'>): number {
  const perMonth = ADDON_PRICES.phones[currency];
  return frequency === 'yearly' ? perMonth * 12 : frequency === 'weekly' ? Math.ceil(perMonth / 4) : perMonth;
}

/** The free trial (ours: 14 days, spec §9 gives only the one-week extension) has Pro's features, with this allowance. */
export const TRIAL = { plan_id: 'pro' as PlanId, days: 14, phones: 3, users: 10, extensionDays: 7 } as const;

/** spec §9: bulk-message credits per licence per month. */
export const BROADCAST_CREDITS_PER_LICENCE = 3000;
/** spec §9: automation rules per licence on Pro and Enterprise. */
export const RULES_PER_LICENCE = 2;

export const isPlanId = (v: unknown): v is PlanId => typeof v === 'string' && (PLAN_IDS as readonly string[]).includes(v);
export const isCurrency = (v: unknown): v is Currency => typeof v === 'string' && (CURRENCIES as readonly string[]).includes(v);

/**
 * A price for display: `₹3,999/mo`, `$39/mo` (yearly shown per month), `R$65/wk`, 'Custom'.
 * @param minor amount in minor units for the whole period
 */
export function formatPrice(minor: number, currency: Currency, frequency: Frequency): string {
  if (frequency === 'custom') return 'Custom';
  const info = CURRENCY_INFO[currency];
  const perPeriod = frequency === 'yearly' ? minor / 12 : minor;
  const major = perPeriod / info.minor;
  const text = Number.isInteger(major) ? major.toLocaleString('en-US') : major.toLocaleString('en-US', { minimumFractionDigits: 2, maximumFractionDigits: 2 });
  return `${info.symbol}${text}${FREQUENCY_SUFFIX[frequency]}`;
}
