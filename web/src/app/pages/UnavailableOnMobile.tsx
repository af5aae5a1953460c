/**
 * spec §2: "Some pages are unavailable on mobile: a screen says so, with a button to chats."
 * Shown instead of a page listed in MOBILE_UNAVAILABLE (shell/nav.ts) on phone-width screens.
 */
import { Link } from 'react-router-dom';
import { MenuButton } from '../shell/MenuButton.tsx';

export function UnavailableOnMobile({ title }: { title: string }) {
  return (
    <div className="page" data-testid="unavailable-on-mobile">
      <header className="page-header">
        <MenuButton />
        <h1>{title}</h1>
      </header>
      <div className="page-body not-built">
        <h2>{title} is not available on mobile</h2>
        <p>This page needs a larger screen. Open Chorus on your computer to use it.</p>
        <Link className="btn btn-primary" to="/chats" data-testid="unavailable-go-to-chats">
          Go to chats
        </Link>
      </div>
    </div>
  );
}
