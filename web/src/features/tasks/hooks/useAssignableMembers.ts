/** The members an assignee picker offers: GET /members, plus me and anyone already assigned (if /members is not available). */
import { useMemo } from 'react';
import { useSession } from '../../../app/session.tsx';
import { useTasks } from './useTasks.tsx';
import { useMembers } from '../../../lib/members.ts';
import type { OrgMember } from '../../../lib/api.ts';

export function useAssignableMembers(extra: Array<string | null | undefined> = []): OrgMember[] {
  const { user, org } = useSession();
  const { tasks } = useTasks();
  const members = useMembers(org.org_id);
  const extraKey = extra.filter(Boolean).join('|');
  return useMemo(() => {
    const byEmail = new Map<string, OrgMember>();
    for (const m of members) byEmail.set(m.email.toLowerCase(), m);
    const add = (email: string | null | undefined) => {
      if (!email || !email.includes('@')) return;
      const k = email.toLowerCase();
      if (!byEmail.has(k)) byEmail.set(k, { email: k, member_name: k === user.email.toLowerCase() ? (org.member_name ?? null) : null, role: 'member' });
    };
    add(user.email);
    for (const t of tasks) {
      add(t.assignee);
      add(t.created_by);
    }
    for (const e of extraKey.split('|')) add(e);
    return [...byEmail.values()].sort((a, b) => (a.member_name?.trim() || a.email).localeCompare(b.member_name?.trim() || b.email));
  }, [members, tasks, user.email, org.member_name, extraKey]);
}
