import { z } from 'zod';
import { OrgParams } from '../chats/params.ts';

/** Path parameters of /group-templates/{template_id}[/groups/{request_id}] (issue 15 item 6). */
export const GroupTemplateParams = OrgParams.extend({ template_id: z.string().min(1, 'is required').max(100, 'is too long') });
export const GroupRequestParams = GroupTemplateParams.extend({ request_id: z.string().min(1, 'is required').max(100, 'is too long') });
