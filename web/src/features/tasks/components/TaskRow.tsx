/**
 * One row of the task list: title, priority, due (red when overdue), reminder bell, what it is
 * linked to, assignee; a status select; the row menu from the ⋯ button, a right click or
 * Shift+F10 / the context-menu key; a checkbox in select mode.
 */
import { useRef, type CSSProperties, type KeyboardEvent, type MouseEvent } from 'react';
import type { Task, TaskStatus } from '#shared/task/task.schemas.ts';
import { Icon } from '../../../components/ui/Icon.tsx';
import { PriorityTag } from '../../tickets/index.ts';
import { TASK_STATUS_OPTIONS, taskDueText } from '../api/tasks.ts';
import { Options } from '../../../components/ui/Options.tsx';

export function TaskRow({
  t,
  style,
  overdue,
  selectMode,
  checked,
  onToggle,
  onOpen,
  onStatus,
  onMenu,
  assigneeText,
}: {
  t: Task;
  style: CSSProperties;
  overdue: boolean;
  selectMode: boolean;
  checked: boolean;
  onToggle: () => void;
  onOpen: () => void;
  onStatus: (s: TaskStatus) => void;
  onMenu: (at: { x: number; y: number }, restore: HTMLElement | null) => void;
  assigneeText: string;
}) {
  const menuBtn = useRef<HTMLButtonElement>(null);
  const fromButton = () => {
    const r = menuBtn.current?.getBoundingClientRect();
    onMenu(r ? { x: r.right - 200, y: r.bottom + 4 } : { x: 100, y: 100 }, menuBtn.current);
  };
  const onContextMenu = (e: MouseEvent) => {
    e.preventDefault();
    onMenu({ x: e.clientX, y: e.clientY }, menuBtn.current);
  };
  const onKeyDown = (e: KeyboardEvent) => {
    if (e.key === 'ContextMenu' || (e.shiftKey && e.key === 'F10')) {
      e.preventDefault();
      fromButton();
    }
  };
  const link = t.associated_object_metadata;
  return (
    <div
      role="listitem"
      className={`task-row ${checked ? 'checked' : ''}`}
      style={style}
      data-testid="task-row"
      data-task-id={t.task_id}
      data-status={t.status}
      data-overdue={String(overdue)}
      onContextMenu={onContextMenu}
      onKeyDown={onKeyDown}
    >
      {selectMode && (
        <label className="check">
          <input type="checkbox" checked={checked} onChange={onToggle} aria-label={`Select ${t.title}`} data-testid="task-row-check" />
        </label>
      )}
      <button type="button" className="task-row-open" onClick={selectMode ? onToggle : onOpen} title={t.title}>
        <span className="task-row-title">{t.title}</span>
        <span className="task-row-meta">
          <PriorityTag priority={t.priority} />
          {t.due_date != null && <span className={overdue ? 'overdue' : ''}>Due {taskDueText(t.due_date)}</span>}
          {t.remind_at != null && t.reminder_setting.remind_in !== 'none' && (
            <span className="task-remind" title={`Reminder ${taskDueText(t.remind_at)}`}>
              <Icon name="bell" size={12} />
              <span className="visually-hidden">Reminder {taskDueText(t.remind_at)}</span>
            </span>
          )}
          {link && <span className="tag">{link.type === 'ticket' ? 'Ticket' : link.type === 'message' ? (link.object?.is_private_note ? 'Note' : 'Message') : 'Chat'}</span>}
          <span className={t.assignee ? 'task-assignee' : 'task-assignee muted'} title={assigneeText}>
            {assigneeText}
          </span>
        </span>
      </button>
      <label className="task-row-status">
        <span className="visually-hidden">Status of {t.title}</span>
        <select value={t.status} onChange={(e) => onStatus(e.target.value as TaskStatus)} data-testid="task-row-status" className={`status-select status-${t.status}`}>
          <Options options={TASK_STATUS_OPTIONS} />
        </select>
      </label>
      <button ref={menuBtn} type="button" className="icon-btn task-row-more" data-testid="task-row-menu-button" aria-label={`Actions for ${t.title}`} aria-haspopup="menu" onClick={fromButton}>
        <Icon name="more" size={18} />
      </button>
    </div>
  );
}
