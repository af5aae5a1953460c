import { z } from 'zod';
import { ChatParams } from '../chats/params.ts';

/** Path parameters of the routes on one message (spec §7 message calls identify it by unique_id). */
export const MessageParams = ChatParams.extend({ unique_id: z.string().min(1, 'is required').max(100, 'is too long') });
