import { z } from 'zod';
import { OrgParams } from '../chats/params.ts';

/** Path parameters of /replies/{reply_id} (issue 15). */
export const ReplyParams = OrgParams.extend({ reply_id: z.string().min(1, 'is required').max(100, 'is too long') });
