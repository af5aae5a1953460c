import { z } from 'zod';
import { OrgParams } from '../chats/params.ts';

/** Path parameters of one broadcast. */
export const BroadcastParams = OrgParams.extend({ broadcast_id: z.string().regex(/^bc_[0-9A-HJKMNP-TV-Z]{26}$/, 'is not a broadcast id') });
