/**
 * /workspaces/new: 'Create workspace' (spec §2, §5) for a user who already has one, opened from the
 * organization switcher. On success the new workspace opens without reloading the page.
 */
import { useNavigate } from 'react-router-dom';
import { useSession } from '../../../app/session.tsx';
import { MenuButton } from '../../../app/shell/MenuButton.tsx';
import { OrgSetupForm } from './OrgSetupForm.tsx';

export function CreateWorkspacePage() {
  const { openOrg } = useSession();
  const navigate = useNavigate();
  return (
    <div className="page" data-testid="create-workspace">
      <header className="page-header">
        <MenuButton />
      </header>
      <div className="page-body">
        <OrgSetupForm first={false} onCreated={(o) => openOrg(o.org_id)} onCancel={() => navigate(-1)} />
      </div>
    </div>
  );
}
