/**
 * Client of GET /api/orgs/{org_id}/dashboard (issue 19) and its TanStack Query key.
 */
import { apiRequest } from '../../lib/api.ts';

export type PhoneHealth = 'connected' | 'attention' | 'disconnected';
export interface Dashboard {
  is_platform: boolean;
  today: { open: number; unassigned: number; unread: number; mine: number; my_open_tickets: number; overdue_tasks: number; messages_in: number; messages_out: number; conversations_opened: number };
  phones: Array<{ phone_id: string; org_phone: string; verified_name: string | null; connection_type: string; health: PhoneHealth }>;
  queues: Array<{ name: string; depth: number; dead_letters: number }> | null;
  last_activity_at: number | null;
}

export const dashboardKeys = { summary: (orgId: string) => ['orgs', orgId, 'dashboard'] as const };
export const dashboardApi = { get: (orgId: string) => apiRequest<Dashboard>('GET', `/api/orgs/${encodeURIComponent(orgId)}/dashboard`) };
