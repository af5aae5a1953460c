import { Link } from 'react-router-dom';

/** The title of an integrations settings page: 'Settings' crumb back to /settings, then the page's name (same markup as the settings pages'). */
export function SettingsTitle({ title }: { title: string }) {
  return (
    <h1>
      <Link to="/settings" className="crumb">
        Settings
      </Link>{' '}
      / Integrations / {title}
    </h1>
  );
}
