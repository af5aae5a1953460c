import { z } from 'zod';
import { OrgParams } from '../chats/params.ts';

/** Path parameters of one bulk job. */
export const BulkJobParams = OrgParams.extend({ job_id: z.string().regex(/^job_[0-9A-HJKMNP-TV-Z]{26}$/, 'is not a bulk job id') });
