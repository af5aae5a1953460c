import { z } from 'zod';
import { OrgParams } from '../chats/params.ts';

export const ApiKeyParams = OrgParams.extend({ key_id: z.string().min(1, 'is required').max(40, 'is too long') });
export const ApiKeysPageQuery = z.object({ cursor: z.string().min(1).max(2048).optional() });
