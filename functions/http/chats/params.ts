import { z } from 'zod';

/** Path parameters shared by the chat routes. */
export const OrgParams = z.object({ org_id: z.string().min(1, 'is required') });
export const ChatParams = OrgParams.extend({ chat_id: z.string().min(1, 'is required').max(200, 'is too long') });
