import { z } from 'zod';
import { OrgParams } from '../chats/params.ts';

/** Path parameters of /properties/{property_id} (issue 15). */
export const PropertyParams = OrgParams.extend({ property_id: z.string().min(1, 'is required').max(100, 'is too long') });
