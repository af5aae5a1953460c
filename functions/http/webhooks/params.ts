import { z } from 'zod';
import { OrgParams } from '../chats/params.ts';
import { PUBLIC_EVENTS } from '../../../shared/webhooks/webhook.rules.ts';

/** `/api/orgs/{org_id}/webhooks/{endpoint_id}` (also `/hooks/{endpoint_id}`). */
export const EndpointParams = OrgParams.extend({ endpoint_id: z.string().min(1, 'is required').max(64, 'is too long') });
export const DeliveryParams = EndpointParams.extend({ delivery_id: z.string().regex(/^msg_[0-9A-Z]{26}$/, 'is not a delivery id') });
export const SampleParams = OrgParams.extend({ event: z.enum(PUBLIC_EVENTS, { errorMap: () => ({ message: `must be one of ${PUBLIC_EVENTS.join(', ')}` }) }) });
export { OrgParams };
