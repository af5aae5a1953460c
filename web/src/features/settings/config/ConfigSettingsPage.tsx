/**
 * /settings/config (admins, spec §2/§6; issue 22): the feature flags an admin may set (spec §3
 * access_scopes.feature_flags), each a switch saved at once. Maintenance is not here: only the
 * platform sets it (spec §4).
 */
import { ADMIN_FEATURE_FLAGS, type AdminFeatureFlag } from '#shared/org/org-settings.schemas.ts';
import { errorMessage } from '../../../lib/api.ts';
import { useSession } from '../../../app/session.tsx';
import { useToast } from '../../../app/toast.tsx';
import { MenuButton } from '../../../app/shell/MenuButton.tsx';
import { SettingsTitle } from '../components/SettingsTitle.tsx';
import { useOrgSettings, useSaveOrgSettings } from '../general/api.ts';
import '../team/team.css';
import '../general/org-settings.css';

export function ConfigSettingsPage() {
  const { org } = useSession();
  const toast = useToast();
  const query = useOrgSettings(org.org_id, 'config');
  const save = useSaveOrgSettings(org.org_id, 'config');

  async function toggle(key: AdminFeatureFlag, on: boolean) {
    try {
      await save.mutateAsync({ feature_flags: { [key]: on } });
      toast.show('Config updated', 'success');
    } catch (e) {
      toast.show(errorMessage(e), 'error');
    }
  }

  return (
    <div className="page" data-testid="config-settings">
      <header className="page-header">
        <MenuButton />
        <SettingsTitle title="Config" />
      </header>
      <div className="page-body">
        {query.isPending && <p className="muted">Loading config…</p>}
        {query.isError && (
          <div className="inline-state" role="alert">
            <span>Could not load the config: {errorMessage(query.error)}</span>
            <button type="button" className="link-btn" onClick={() => void query.refetch()}>
              Retry
            </button>
          </div>
        )}
        {query.data && (
          <section className="os-form os-section" aria-labelledby="cfg-title">
            <h2 id="cfg-title">Features</h2>
            <p className="muted small">Turn parts of the app on or off for everyone in this workspace.</p>
            <ul className="toggle-list">
              {ADMIN_FEATURE_FLAGS.map((f) => (
                <li key={f.key} className="toggle-row">
                  <span className="toggle-text">
                    <span id={`flag-${f.key}`}>{f.label}</span>
                    <small>{f.help}</small>
                  </span>
                  <span className="switch">
                    <input
                      type="checkbox"
                      role="switch"
                      aria-labelledby={`flag-${f.key}`}
                      data-testid={`flag-${f.key}`}
                      checked={query.data.feature_flags[f.key]}
                      disabled={save.isPending}
                      onChange={(e) => void toggle(f.key, e.target.checked)}
                    />
                  </span>
                </li>
              ))}
            </ul>
          </section>
        )}
      </div>
    </div>
  );
}
