import { z } from 'zod';
import { PUBLIC_EVENTS, SLACK_EVENTS } from './webhook.rules.ts';

/** Request bodies of the webhook admin routes (issue 20 items 4, 5, 7). URL rules: url.rules.ts (checked in the use case, 400 field `url`). */
const url = z.string().trim().min(1, 'is required').max(2048, 'is too long (at most 2048 characters)');
const events = z.array(z.enum(PUBLIC_EVENTS, { errorMap: () => ({ message: `must be one of ${PUBLIC_EVENTS.join(', ')}` }) })).min(1, 'choose at least one event').max(PUBLIC_EVENTS.length);

export const CreateEndpointInput = z.object({ url, description: z.string().trim().max(200, 'is too long').optional(), events }).strict();
export const UpdateEndpointInput = z
  .object({ url: url.optional(), description: z.string().trim().max(200, 'is too long').optional(), events: events.optional(), enabled: z.boolean().optional() })
  .strict()
  .refine((v) => Object.keys(v).length > 0, { message: 'nothing to change' });

/** Zapier / Pabbly REST hook subscribe (their `performSubscribe` / "Subscribe URL" call). */
export const RestHookInput = z.object({ target_url: url, event: z.enum(PUBLIC_EVENTS, { errorMap: () => ({ message: `must be one of ${PUBLIC_EVENTS.join(', ')}` }) }), source: z.enum(['zapier', 'pabbly']) }).strict();

export const SlackSettingsInput = z
  .object({ url, events: z.array(z.enum(SLACK_EVENTS, { errorMap: () => ({ message: `must be one of ${SLACK_EVENTS.join(', ')}` }) })).min(1, 'choose at least one event'), enabled: z.boolean().default(true) })
  .strict();

export const DeliveriesQuery = z.object({ cursor: z.string().max(2000).optional(), limit: z.coerce.number().int().min(1).max(100).default(25) });

export type CreateEndpointInput = z.infer<typeof CreateEndpointInput>;
export type UpdateEndpointInput = z.infer<typeof UpdateEndpointInput>;
export type RestHookInput = z.infer<typeof RestHookInput>;
export type SlackSettingsInput = z.infer<typeof SlackSettingsInput>;

/** An endpoint as the admin API answers it (shared/webhooks/webhooks.ts endpointView). Times epoch ms. */
export interface EndpointView {
  endpoint_id: string;
  kind: 'webhook' | 'zapier' | 'pabbly' | 'slack';
  url: string;
  description: string;
  events: string[];
  secret: string;
  /** the previous secret also signs until then (null: no rotation in progress) */
  rotating_until: number | null;
  enabled: boolean;
  disabled_reason: string | null;
  disabled_at: number | null;
  failing_since: number | null;
  failure_streak: number;
  last_success_at: number | null;
  created_by: string;
  created_at: number;
  updated_at: number;
}

/** A delivery log row as the admin API answers it (deliveryView). Times epoch ms. */
export interface DeliveryView {
  delivery_id: string;
  endpoint_id: string;
  event_type: string;
  url: string;
  status: 'pending' | 'sending' | 'succeeded' | 'failed';
  attempts: number;
  max_attempts: number;
  response_code: number | null;
  response_excerpt: string | null;
  latency_ms: number | null;
  next_attempt_at: number | null;
  request_body: string;
  attempt_log: unknown[];
  created_at: number;
  updated_at: number;
}
