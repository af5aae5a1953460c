import { z } from 'zod';
import { OrgParams } from '../chats/params.ts';
import { PageCursor } from '../../../shared/message/message.schemas.ts';

/** Path parameters of the task routes. */
export const TaskParams = OrgParams.extend({ task_id: z.string().min(1, 'is required').max(100, 'is too long') });
export const AuditQuery = z.object({ cursor: PageCursor.optional() });
