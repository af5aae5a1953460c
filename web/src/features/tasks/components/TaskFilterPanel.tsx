/**
 * The task list's filters (spec §9): due date range (normalizeDateRange, shown 'DD MMM YY'),
 * priority, status and assignee (incl. Unassigned), each with ANY / ALL / NOT, combined with
 * ANY / ALL. `FilterUi` is the form's state; `toFilters` turns it into shared TaskFilters.
 */
import type { Dispatch, SetStateAction } from 'react';
import type { FilterCondition, TaskFilters, TaskPriority, TaskStatus } from '#shared/task/task.schemas.ts';
import { formatDay, normalizeDateRange } from '#shared/task/task.rules.ts';
import type { OrgMember } from '../../../lib/api.ts';
import { TASK_PRIORITY_OPTIONS, TASK_STATUS_OPTIONS, fromDayInput, memberLabel, toDayInput } from '../api/tasks.ts';

const CONDITIONS: FilterCondition[] = ['ANY', 'ALL', 'NOT'];
const FAR = 100 * 365 * 86_400_000;

export interface FilterUi {
  dueFrom: string;
  dueTo: string;
  dueCond: FilterCondition;
  priority: TaskPriority[];
  priorityCond: FilterCondition;
  status: TaskStatus[];
  statusCond: FilterCondition;
  /** emails; '' stands for Unassigned */
  assignee: string[];
  assigneeCond: FilterCondition;
  overall: 'ANY' | 'ALL';
}

export const EMPTY_FILTERS: FilterUi = { dueFrom: '', dueTo: '', dueCond: 'ANY', priority: [], priorityCond: 'ANY', status: [], statusCond: 'ANY', assignee: [], assigneeCond: 'ANY', overall: 'ALL' };

export function dueRange(f: FilterUi, tz: string): { from: number; to: number } | null {
  const a = fromDayInput(f.dueFrom);
  const b = fromDayInput(f.dueTo);
  if (a == null && b == null) return null;
  return normalizeDateRange(a ?? (b as number) - FAR, b ?? (a as number) + FAR, tz);
}

export function toFilters(f: FilterUi, tz: string): TaskFilters {
  const range = dueRange(f, tz);
  return {
    due: range ? { ...range, condition: f.dueCond } : null,
    priority: f.priority.length ? { values: f.priority, condition: f.priorityCond } : null,
    status: f.status.length ? { values: f.status, condition: f.statusCond } : null,
    assignee: f.assignee.length ? { values: f.assignee.map((a) => (a === '' ? null : a)), condition: f.assigneeCond } : null,
    overall: f.overall,
  };
}

export const activeCount = (f: FilterUi): number => (f.dueFrom || f.dueTo ? 1 : 0) + (f.priority.length ? 1 : 0) + (f.status.length ? 1 : 0) + (f.assignee.length ? 1 : 0);

const toggleIn = <T,>(list: T[], v: T): T[] => (list.includes(v) ? list.filter((x) => x !== v) : [...list, v]);

function ConditionSelect({ value, onChange, name }: { value: FilterCondition; onChange: (c: FilterCondition) => void; name: string }) {
  return (
    <select className="cond-select" aria-label={`${name} condition`} data-testid={`task-filter-${name.toLowerCase().replace(/\s+/g, '-')}-condition`} value={value} onChange={(e) => onChange(e.target.value as FilterCondition)}>
      {CONDITIONS.map((c) => (
        <option key={c} value={c}>
          {c}
        </option>
      ))}
    </select>
  );
}


export interface TaskFilterPanelProps {
  ui: FilterUi;
  setUi: Dispatch<SetStateAction<FilterUi>>;
  members: OrgMember[];
  /** the viewer's email, lower case */
  me: string;
  /** IANA time zone of the due dates */
  tz: string;
}

export function TaskFilterPanel({ ui, setUi, members, me, tz }: TaskFilterPanelProps) {
  const active = activeCount(ui);
  const range = dueRange(ui, tz);
  return (
    <div id="task-filters" className="task-filters" role="group" aria-label="Task filters" data-testid="task-filters">
      <fieldset className="task-filter">
        <legend>Due date</legend>
        <div className="task-filter-row">
          <input
            type="date"
            aria-label="Due from"
            data-testid="task-filter-due-from"
            value={ui.dueFrom}
            onChange={(e) => {
              const from = e.target.value;
              setUi((u) => {
                const a = fromDayInput(from);
                const b = fromDayInput(u.dueTo);
                if (a != null && b != null) {
                  const r = normalizeDateRange(a, b, tz);
                  return { ...u, dueFrom: toDayInput(r.from), dueTo: toDayInput(r.to) };
                }
                return { ...u, dueFrom: from };
              });
            }}
          />
          <span aria-hidden="true">–</span>
          <input
            type="date"
            aria-label="Due to"
            data-testid="task-filter-due-to"
            value={ui.dueTo}
            onChange={(e) => {
              const to = e.target.value;
              setUi((u) => {
                const a = fromDayInput(u.dueFrom);
                const b = fromDayInput(to);
                if (a != null && b != null) {
                  const r = normalizeDateRange(a, b, tz);
                  return { ...u, dueFrom: toDayInput(r.from), dueTo: toDayInput(r.to) };
                }
                return { ...u, dueTo: to };
              });
            }}
          />
          <ConditionSelect name="Due" value={ui.dueCond} onChange={(c) => setUi((u) => ({ ...u, dueCond: c }))} />
        </div>
        {range && (
          <span className="muted small" data-testid="task-filter-due-summary">
            {ui.dueFrom ? formatDay(range.from, tz) : 'Any time'} – {ui.dueTo ? formatDay(range.to, tz) : 'any time'}
          </span>
        )}
      </fieldset>
      <fieldset className="task-filter">
        <legend>Priority</legend>
        <div className="task-filter-row">
          {TASK_PRIORITY_OPTIONS.map(([p, l]) => (
            <label key={p} className={`label-option ${ui.priority.includes(p) ? 'on' : ''}`}>
              <input type="checkbox" data-testid={`task-filter-priority-${p}`} checked={ui.priority.includes(p)} onChange={() => setUi((u) => ({ ...u, priority: toggleIn(u.priority, p) }))} />
              {l}
            </label>
          ))}
          <ConditionSelect name="Priority" value={ui.priorityCond} onChange={(c) => setUi((u) => ({ ...u, priorityCond: c }))} />
        </div>
      </fieldset>
      <fieldset className="task-filter">
        <legend>Status</legend>
        <div className="task-filter-row">
          {TASK_STATUS_OPTIONS.map(([s, l]) => (
            <label key={s} className={`label-option ${ui.status.includes(s) ? 'on' : ''}`}>
              <input type="checkbox" data-testid={`task-filter-status-${s}`} checked={ui.status.includes(s)} onChange={() => setUi((u) => ({ ...u, status: toggleIn(u.status, s) }))} />
              {l}
            </label>
          ))}
          <ConditionSelect name="Status" value={ui.statusCond} onChange={(c) => setUi((u) => ({ ...u, statusCond: c }))} />
        </div>
      </fieldset>
      <fieldset className="task-filter">
        <legend>Assignee</legend>
        <div className="task-filter-row">
          <div className="task-filter-assignees" role="group" aria-label="Assignees">
            {[{ email: '', member_name: 'Unassigned' }, ...members].map((m) => (
              <label key={m.email || 'unassigned'} className={`label-option ${ui.assignee.includes(m.email) ? 'on' : ''}`}>
                <input
                  type="checkbox"
                  data-testid={`task-filter-assignee-${m.email || 'unassigned'}`}
                  checked={ui.assignee.includes(m.email)}
                  onChange={() => setUi((u) => ({ ...u, assignee: toggleIn(u.assignee, m.email) }))}
                />
                {m.email ? memberLabel(m.email, members, me) : 'Unassigned'}
              </label>
            ))}
          </div>
          <ConditionSelect name="Assignee" value={ui.assigneeCond} onChange={(c) => setUi((u) => ({ ...u, assigneeCond: c }))} />
        </div>
      </fieldset>
      <div className="task-filter-foot">
        <label className="inline-inputs">
          <span>Match</span>
          <select data-testid="task-filter-overall" value={ui.overall} onChange={(e) => setUi((u) => ({ ...u, overall: e.target.value as 'ANY' | 'ALL' }))}>
            <option value="ALL">ALL filters</option>
            <option value="ANY">ANY filter</option>
          </select>
        </label>
        {active > 0 && (
          <button type="button" className="link-btn small" data-testid="task-filter-clear" onClick={() => setUi(EMPTY_FILTERS)}>
            Clear filters
          </button>
        )}
      </div>
    </div>
  );
}
