/**
 * Spec §6 Restricted page: shown to a member who opens a page their role or the org's
 * member_permissions deny (the API refuses the same data with 403).
 */
import { Link } from 'react-router-dom';
import { RESTRICTED_MESSAGE } from '#shared/org/permissions.rules.ts';
import { MenuButton } from '../shell/MenuButton.tsx';
import '../../features/settings/team/team.css';

export function RestrictedPage({ title }: { title: string }) {
  return (
    <div className="page" data-testid="restricted-page">
      <header className="page-header">
        <MenuButton />
        <h1>{title}</h1>
      </header>
      <div className="page-body restricted">
        <h2>Restricted</h2>
        <p>{RESTRICTED_MESSAGE}</p>
        <Link className="btn btn-primary" to="/chats" data-testid="restricted-go-back">
          Go back
        </Link>
      </div>
    </div>
  );
}
