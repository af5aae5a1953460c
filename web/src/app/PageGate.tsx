/**
 * Page gate (spec §6): renders its page when the signed-in role and the org's member_permissions
 * allow `path` (shared/org/permissions.rules.ts pageAccess), else the Restricted page.
 * For members the permissions are read afresh (GET /settings/permissions) when a gated page
 * opens, so an admin's change applies without signing in again; until that answer arrives the
 * ones loaded with the session decide.
 */
import { useEffect, useState, type ReactNode } from 'react';
import { useLocation } from 'react-router-dom';
import { pageAccess, type MemberPermissions } from '#shared/org/permissions.rules.ts';
import { api } from '../lib/api.ts';
import { useSession } from './session.tsx';
import { RestrictedPage } from './pages/RestrictedPage.tsx';

/**
 * @param path the page to check; defaults to the current location (so /settings/team checks 'team')
 * @param title the heading of the Restricted page
 */
export function PageGate({ title, path, children }: { title: string; path?: string; children: ReactNode }) {
  const { org } = useSession();
  const location = useLocation();
  const page = path ?? location.pathname;
  const [fresh, setFresh] = useState<MemberPermissions | null>(null);
  const isMember = org.role !== 'admin';

  useEffect(() => {
    if (!isMember) return;
    let cancelled = false;
    api
      .permissionSettings(org.org_id)
      .then((s) => !cancelled && setFresh(s.member_permissions))
      .catch(() => undefined);
    return () => {
      cancelled = true;
    };
  }, [isMember, org.org_id, page]);

  if (!pageAccess(org.role, fresh ?? org.member_permissions, page)) return <RestrictedPage title={title} />;
  return <>{children}</>;
}
