export { OrgParams, RuleParams } from '../../../shared/rules/rule.schemas.ts';
import { z } from 'zod';

/** Path of a chat's pending rule item (`key` percent-encoded: it holds `|`). */
export const PendingParams = z.object({ org_id: z.string().min(1), chat_id: z.string().min(1), key: z.string().min(1).max(500) });
export const ChatParams = z.object({ org_id: z.string().min(1), chat_id: z.string().min(1) });
