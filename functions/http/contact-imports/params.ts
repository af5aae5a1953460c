import { z } from 'zod';
import { OrgParams } from '../chats/params.ts';

/** Path parameters of /contacts/imports/{job_id}[/chunks/{seq}] (issue 15 item 3). */
export const ImportParams = OrgParams.extend({ job_id: z.string().min(1, 'is required').max(100, 'is too long') });
export const ChunkParams = ImportParams.extend({ seq: z.coerce.number({ invalid_type_error: 'must be a number' }).int('must be a whole number').min(0, 'must not be negative').max(1000, 'is too large') });
