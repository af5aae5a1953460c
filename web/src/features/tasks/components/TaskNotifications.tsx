/** The latest reminder notifications (task.reminder_due for my tasks, at most 5), each opening its task. */
import { Icon } from '../../../components/ui/Icon.tsx';
import { taskDueText } from '../api/tasks.ts';
import type { TaskNotification } from '../hooks/useTasks.tsx';

export function TaskNotifications({ notifications, onOpen, onDismiss }: { notifications: TaskNotification[]; onOpen: (taskId: string) => void; onDismiss: (key: string) => void }) {
  const visibleNotifications = notifications.slice(0, 5);
  if (visibleNotifications.length === 0) return null;
  return (
    <section className="task-notifications" aria-label="Reminders">
      {visibleNotifications.map((n) => (
        <div key={n.key} className={`task-notification ${n.read ? '' : 'unread'}`} data-testid="task-notification" data-task-id={n.taskId}>
          <Icon name="bell" size={16} />
          <button type="button" className="task-notification-open" onClick={() => onOpen(n.taskId)}>
            <span className="task-notification-title">Reminder: {n.title}</span>
            {n.remindAt != null && <span className="muted small">{taskDueText(n.remindAt)}</span>}
          </button>
          <button type="button" className="icon-btn" aria-label={`Dismiss reminder for ${n.title}`} onClick={() => onDismiss(n.key)}>
            <Icon name="close" size={14} />
          </button>
        </div>
      ))}
    </section>
  );
}
