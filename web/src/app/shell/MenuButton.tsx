/** Opens the navigation drawer on phone-width screens (hidden on wider screens, where the sidebar is always shown). */
import { Icon } from '../../components/ui/Icon.tsx';
import { useShell } from './shellContext.ts';

export function MenuButton() {
  const { drawerOpen, setDrawerOpen } = useShell();
  return (
    <button
      type="button"
      className="icon-btn menu-btn"
      aria-label="Open navigation menu"
      aria-expanded={drawerOpen}
      aria-controls="sidebar"
      onClick={() => setDrawerOpen(true)}
    >
      <Icon name="menu" />
    </button>
  );
}
