/**
 * Placeholder for the sidebar sections of spec §2 that do not exist yet. It says so plainly
 * (no fake data) and points back to the inbox (a platform organization, which has none: to its phones).
 */
import { Link } from 'react-router-dom';
import { MenuButton } from '../shell/MenuButton.tsx';
import { isPlatform } from '#shared/org/navigation.rules.ts';
import { useSession } from '../session.tsx';

export function NotBuiltPage({ title, description, links = [] }: { title: string; description: string; links?: Array<{ to: string; label: string }> }) {
  const platform = isPlatform(useSession().org);
  return (
    <div className="page">
      <header className="page-header">
        <MenuButton />
        <h1>{title}</h1>
      </header>
      <div className="page-body not-built">
        <h2>{title} is not built yet</h2>
        <p>
          This part of Chorus ({description}) is planned but not available in this version yet.
        </p>
        {links.length > 0 && (
          <p>
            Already available:{' '}
            {links.map((l, i) => (
              <span key={l.to}>
                {i > 0 && ', '}
                <Link to={l.to}>{l.label}</Link>
              </span>
            ))}
            .
          </p>
        )}
        {platform ? (
          // a platform organization has no inbox (spec §2): its phones are what it can open
          <Link className="btn btn-primary" to="/phones">
            Go to phones
          </Link>
        ) : (
          <>
            <p>Your team’s conversations are in the inbox.</p>
            <Link className="btn btn-primary" to="/chats">
              Go to chats
            </Link>
          </>
        )}
      </div>
    </div>
  );
}
