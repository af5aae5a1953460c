import { z } from 'zod';
import { OrgParams } from '../chats/params.ts';

export const ScheduleParams = OrgParams.extend({ schedule_id: z.string().min(1, 'is required').max(64, 'is too long') });
