import { z } from 'zod';

/** GET /api/me response (browser-safe). */
export const MeResponse = z.object({
  user: z.object({ email: z.string(), user_id: z.string() }),
  orgs: z.array(
    z.object({
      org_id: z.string(),
      org_name: z.string(),
      role: z.enum(['admin', 'member']),
      /** spec §3 organization.is_platform: a platform organization (reduced navigation, shared/org/navigation.rules.ts) */
      is_platform: z.boolean().optional(),
      member_name: z.string().nullish(),
      /** spec §4 User status in this org (Member.is_online) */
      is_online: z.boolean().optional(),
      /** spec §6 org preference: numbers masked for members */
      mask_phone_numbers: z.boolean().optional(),
      /** spec §6 member_permissions as stored (unset key = allowed; shared/org/permissions.rules.ts) */
      member_permissions: z.record(z.boolean()).optional(),
      /** connection_type tells the web app what each number can do (shared/whatsapp/capabilities.ts) */
      phones: z.array(z.object({ phone_id: z.string(), org_phone: z.string(), connection_type: z.string().optional() })),
    }),
  ),
  /** pending invites (spec §4: the Join workspace screen); Member rows with is_active false */
  invites: z.array(z.object({ org_id: z.string(), org_name: z.string(), invited_by: z.string().nullish() })),
});
export type MeResponse = z.infer<typeof MeResponse>;

/**
 * The help and support links of the web app (spec §2 help menu, the blocking screens; issue 49 item
 * 10), by key. A deployment configures the ones it has; a link with no target is not shown (there
 * are no built-in placeholders). The local runtime reads `CHORUS_LINK_<KEY>` (e.g.
 * `CHORUS_LINK_STATUS`) and serves the repository's documentation at `/docs`; AWS takes
 * `-c helpLinks='{"status":"https://…"}'`.
 */
export const HELP_LINK_KEYS = ['status', 'support', 'documentation', 'tutorial', 'contact', 'feature_request', 'best_practices', 'book_demo', 'chats_not_loading', 'app_slow', 'sales'] as const;
export type HelpLinkKey = (typeof HELP_LINK_KEYS)[number];
export const HelpLinksConfig = z.object(Object.fromEntries(HELP_LINK_KEYS.map((k) => [k, z.string().optional()])) as Record<HelpLinkKey, z.ZodOptional<z.ZodString>>);
export type HelpLinksConfig = z.infer<typeof HelpLinksConfig>;

/**
 * Is `url` a link target the web app may show: http(s), mailto, or a path on the app's own
 * origin (`/docs`)? Anything else (javascript:, data:, protocol-relative `//host`) is ignored.
 */
export const isHelpLinkTarget = (url: string): boolean => /^(https?:\/\/[^\s]+|mailto:[^\s]+|\/(?!\/)[^\s]*)$/i.test(url);

/** Runtime configuration the web app reads from `/config.json` (CDK writes it at deploy; the local runtime serves it). */
export const WebConfig = z.object({
  /** base URL of the HTTP API ('' = same origin) */
  apiUrl: z.string(),
  /** WebSocket URL, e.g. wss://xyz.execute-api.../prod or ws://localhost:3000/ws */
  wsUrl: z.string(),
  region: z.string(),
  userPoolId: z.string(),
  userPoolClientId: z.string(),
  /** only locally: cognito-local's endpoint (Amplify `userPoolEndpoint`) */
  cognitoEndpoint: z.string().optional(),
  /** Cognito hosted UI for Google sign-in (host name, no scheme; redirect URLs ending in /login/callback and /login); absent = no Google sign-in */
  oauth: z.object({ domain: z.string(), redirectSignIn: z.array(z.string()), redirectSignOut: z.array(z.string()) }).optional(),
  /** a page listing the emails the runtime 'sent' (the local runtime's outbox); absent where mail really goes out */
  localOutboxUrl: z.string().optional(),
  /** 'local' | 'aws' */
  stage: z.string(),
  /** help and support links ({@link HelpLinksConfig}); absent = none shown */
  links: HelpLinksConfig.optional(),
});
export type WebConfig = z.infer<typeof WebConfig>;
