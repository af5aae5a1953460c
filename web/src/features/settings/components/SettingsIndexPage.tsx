/**
 * /settings: the settings menu of spec §2 in its groups (Plans and Usage; User; Organization;
 * Integrations), as shared/org/navigation.rules.ts `settingsMenu` gives them for the role: members
 * see only phones, scheduled, preferences and notifications. Entries whose page is not built yet
 * say so (their page is the not-built page); built-settings.ts lists the built ones.
 */
import { Link } from 'react-router-dom';
import { settingsMenu } from '#shared/org/navigation.rules.ts';
import { useSession } from '../../../app/session.tsx';
import { MenuButton } from '../../../app/shell/MenuButton.tsx';
import { BUILT_SETTINGS } from '../built-settings.ts';
import './settingsIndex.css';


export function SettingsIndexPage() {
  const { org } = useSession();
  const groups = settingsMenu(org.role);
  return (
    <div className="page" data-testid="settings-page">
      <header className="page-header">
        <MenuButton />
        <h1>Settings</h1>
      </header>
      <div className="page-body settings-index">
        {groups.map((g) => (
          <section key={g.title} className="settings-group" aria-labelledby={`settings-group-${g.title}`} data-testid="settings-group" data-title={g.title}>
            <h2 id={`settings-group-${g.title}`}>{g.title}</h2>
            <ul>
              {g.entries.map((e) => (
                <li key={e.section}>
                  <Link to={`/settings/${e.section}`} className="settings-entry" data-testid="settings-entry" data-section={e.section}>
                    <span>{e.label}</span>
                    {!BUILT_SETTINGS.has(e.section) && <span className="settings-soon">not built yet</span>}
                  </Link>
                </li>
              ))}
            </ul>
          </section>
        ))}
      </div>
    </div>
  );
}
