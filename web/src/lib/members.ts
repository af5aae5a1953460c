/**
 * The org's members (GET /api/orgs/{org_id}/members): one query per org, shared by the assignee
 * pickers, the '@' mention picker, the task panel and the list page (it replaces four caches).
 * Members rarely change mid-session, so the data stays fresh for five minutes; 'Refresh team
 * permissions' invalidates it (`refreshMembers`).
 */
import { useQuery } from '@tanstack/react-query';
import { api, errorMessage, type OrgMember } from './api.ts';
import { queryClient } from './query-client.ts';

/** Query keys of the members resource. */
export const memberKeys = {
  all: (orgId: string) => ['orgs', orgId, 'members'] as const,
};

const FRESH_MS = 5 * 60_000;
const NONE: OrgMember[] = [];

/**
 * The members of `orgId` (empty until loaded, on error, or while `enabled` is false). Errors
 * are logged only: every caller degrades to emails where names are missing.
 */
export function useMembers(orgId: string, { enabled = true }: { enabled?: boolean } = {}): OrgMember[] {
  const { data } = useQuery({
    queryKey: memberKeys.all(orgId),
    queryFn: () =>
      api.members(orgId).catch((e: unknown) => {
        console.warn('members:', errorMessage(e));
        throw e;
      }),
    enabled,
    staleTime: FRESH_MS,
  });
  return data ?? NONE;
}

/** Fetch the members of `orgId` again ('Refresh team permissions', a picker's retry). */
export const refreshMembers = (orgId: string): Promise<void> => queryClient.invalidateQueries({ queryKey: memberKeys.all(orgId) });
