import { z } from 'zod';
import { OrgParams } from '../chats/params.ts';

/** Path parameters of the contact routes (issue 15). */
export const ContactParams = OrgParams.extend({ contact_id: z.string().min(1, 'is required').max(100, 'is too long') });
