/**
 * The org's active members for the '@' picker: the members query (lib/members.ts), fetched when
 * note mode is first used and shared with every other member picker of the tab.
 */
import type { OrgMember } from '../../../lib/api.ts';
import { useMembers } from '../../../lib/members.ts';
import { useSession } from '../../../app/session.tsx';

/** Members of the current org (empty until loaded, or while `enabled` is false). */
export function useMentionMembers(enabled: boolean): OrgMember[] {
  const { org } = useSession();
  return useMembers(org.org_id, { enabled });
}
