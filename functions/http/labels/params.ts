import { z } from 'zod';
import { OrgParams } from '../chats/params.ts';

/** Path parameters of one org label. */
export const LabelParams = OrgParams.extend({ label_id: z.string().min(1, 'is required').max(100, 'is too long') });
