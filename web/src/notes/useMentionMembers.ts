/**
 * The org's active members for the '@' picker (GET /members), fetched when note mode is first used
 * and shared by every composer of the tab for five minutes (members rarely change mid-session).
 */
import { useEffect, useState } from 'react';
import { api, errorMessage, type OrgMember } from '../lib/api.ts';
import { useSession } from '../app/session.tsx';

const FRESH_MS = 5 * 60_000;
const cache = new Map<string, { at: number; members: Promise<OrgMember[]> }>();

function membersOf(orgId: string): Promise<OrgMember[]> {
  const hit = cache.get(orgId);
  if (hit && Date.now() - hit.at < FRESH_MS) return hit.members;
  const members = api.members(orgId);
  cache.set(orgId, { at: Date.now(), members });
  members.catch(() => cache.delete(orgId));
  return members;
}

/** Members of the current org (empty until loaded, or while `enabled` is false). */
export function useMentionMembers(enabled: boolean): OrgMember[] {
  const { org } = useSession();
  const [members, setMembers] = useState<OrgMember[]>([]);
  useEffect(() => {
    if (!enabled) return;
    let live = true;
    membersOf(org.org_id)
      .then((m) => {
        if (live) setMembers(m);
      })
      .catch((e) => console.warn('members for mentions:', errorMessage(e)));
    return () => {
      live = false;
    };
  }, [enabled, org.org_id]);
  return members;
}
