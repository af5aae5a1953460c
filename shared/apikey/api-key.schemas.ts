import { z } from 'zod';
import { API_SCOPES, type ApiScope } from './api-key.rules.ts';

/** An API key as listed (never the secret). Times are epoch ms. */
export const ApiKey = z.object({
  key_id: z.string(),
  name: z.string(),
  scopes: z.array(z.string()),
  /** the token's first characters, to recognise it */
  prefix: z.string(),
  rate_limit: z.number().int(),
  created_by: z.string(),
  created_at: z.number(),
  last_used_at: z.number().nullable(),
  revoked_at: z.number().nullable(),
});
export type ApiKey = z.infer<typeof ApiKey>;

export const Scope = z.enum(API_SCOPES as [ApiScope, ...ApiScope[]], { errorMap: () => ({ message: `must be one of ${API_SCOPES.join(', ')}` }) });

/** POST /api/orgs/{org_id}/api-keys */
export const CreateApiKeyInput = z.object({
  name: z.string({ required_error: 'is required' }).trim().min(1, 'must not be empty').max(80, 'must be at most 80 characters'),
  scopes: z.array(Scope, { required_error: 'is required' }).min(1, 'must name at least one scope').max(API_SCOPES.length),
  /** requests per minute, 1..6000 (default 600) */
  rate_limit: z.number().int('must be a whole number').min(1, 'must be at least 1').max(6000, 'must be at most 6000').optional(),
});
export type CreateApiKeyInput = z.infer<typeof CreateApiKeyInput>;

/** One logged API request (GET …/api-keys/logs). */
export const ApiRequestLog = z.object({
  log_id: z.string(),
  key_id: z.string(),
  route: z.string(),
  method: z.string(),
  path: z.string(),
  status: z.number(),
  latency_ms: z.number(),
  at: z.number(),
});
export type ApiRequestLog = z.infer<typeof ApiRequestLog>;
