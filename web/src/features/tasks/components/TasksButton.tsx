/**
 * The tasks button of the top area (spec §2: the task panel opens from the top bar): in the
 * sidebar header on wide screens, floating at the top right on phones (one of the two is
 * rendered). Shows the count of unread reminder notifications.
 */
import { useTasks } from '../hooks/useTasks.tsx';
import { Icon } from '../../../components/ui/Icon.tsx';

export function TasksButton({ variant }: { variant: 'sidebar' | 'floating' }) {
  const { open, togglePanel, unread } = useTasks();
  const label = `Tasks${unread ? `, ${unread} new reminder${unread === 1 ? '' : 's'}` : ''}`;
  return (
    <button
      type="button"
      className={variant === 'sidebar' ? `nav-link tasks-nav-btn ${open ? 'active' : ''}` : `tasks-fab ${open ? 'active' : ''}`}
      data-testid="tasks-button"
      aria-label={label}
      aria-expanded={open}
      aria-controls="task-panel"
      title="Tasks"
      onClick={togglePanel}
    >
      <Icon name="tasks" />
      {variant === 'sidebar' && <span className="nav-label">Tasks</span>}
      {unread > 0 && (
        <span className="nav-badge tasks-badge" data-testid="tasks-unread" aria-hidden="true">
          {unread > 99 ? '99+' : unread}
        </span>
      )}
    </button>
  );
}
