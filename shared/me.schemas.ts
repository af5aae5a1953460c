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
});
export type WebConfig = z.infer<typeof WebConfig>;
