import { Link } from 'react-router-dom';

/** The title of an integrations page: a 'Settings' crumb back to /settings, then the page's name (as the settings pages' title). */
export function SettingsTitle({ title }: { title: string }) {
  return (
    <h1>
      <Link to="/settings" className="crumb">
        Settings
      </Link>{' '}
      / {title}
    </h1>
  );
}
