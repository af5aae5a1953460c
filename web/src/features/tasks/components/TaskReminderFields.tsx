/**
 * The task editor's date fields: due date (not in the past, clearable, the red 'Due date is
 * required' when a reminder needs it), the reminder choice with the time it works out to, the
 * repeat settings, or the custom remind-at (not in the past). Changes go through task.rules.ts
 * (withDueDate, withReminderChoice) so the form shows what the API enforces.
 */
import { useEffect, useState, type ReactNode } from 'react';
import type { ReminderChoice, Repeat } from '#shared/task/task.schemas.ts';
import { REMINDER_CHOICES, REPEAT_INTERVALS } from '#shared/task/task.schemas.ts';
import { withDueDate, withReminderChoice, type ReminderState } from '#shared/task/task.rules.ts';
import { REMINDER_LABELS, fromDayInput, fromLocalInput, taskDueText, toDayInput, toLocalInput } from '../api/tasks.ts';

/** The fields; `err(slot, id)` renders a field's error. */
export function TaskReminderFields({
  form,
  now,
  tz,
  touched,
  dueRequired,
  setReminder,
  problemOf,
  err,
}: {
  form: { reminder: ReminderState };
  now: number;
  tz: string;
  touched: { due_date?: boolean; remind_at?: boolean };
  dueRequired: boolean;
  setReminder: (r: ReminderState, changed: { due_date?: boolean; remind_at?: boolean }) => void;
  problemOf: (slot: string) => string | undefined;
  err: (slot: string, id: string) => ReactNode;
}) {
  const choice = form.reminder.reminder_setting.remind_in;
  const repeat = form.reminder.reminder_setting.repeat ?? null;
  const derivedAt = choice !== 'none' && choice !== 'custom_date' && form.reminder.remind_at != null ? form.reminder.remind_at : null;
  return (
    <>
      <div className="field span-2">
        <label htmlFor="task-due-input">Due date</label>
        <span className="inline-inputs">
          <input
            id="task-due-input"
            type="datetime-local"
            data-testid="task-due-input"
            className={dueRequired ? 'invalid' : ''}
            value={toLocalInput(form.reminder.due_date)}
            min={toLocalInput(now)}
            aria-invalid={dueRequired || !!problemOf('due_date') || undefined}
            aria-describedby={dueRequired ? 'task-due-required' : undefined}
            onChange={(e) => {
              const v = fromLocalInput(e.target.value);
              if (v === null && e.target.value !== '') return;
              setReminder(withDueDate(form.reminder, v, tz), { due_date: true });
            }}
          />
          {form.reminder.due_date != null && (
            <button type="button" className="chip-btn" data-testid="task-due-clear" onClick={() => setReminder(withDueDate(form.reminder, null, tz), { due_date: true })}>
              Clear
            </button>
          )}
        </span>
        {dueRequired && (
          <span className="field-error due-required" id="task-due-required" role="alert" data-testid="task-due-required">
            Due date is required
          </span>
        )}
        {err('due_date', 'task-err-due')}
      </div>

      <label className="field span-2">
        <span>Reminder</span>
        <select
          data-testid="task-reminder-select"
          value={choice}
          onChange={(e) => {
            const c = e.target.value as ReminderChoice;
            setReminder(withReminderChoice(form.reminder, c, tz), { remind_at: c === 'custom_date' ? touched.remind_at : false });
          }}
        >
          {REMINDER_CHOICES.map((c) => (
            <option key={c} value={c}>
              {REMINDER_LABELS[c]}
            </option>
          ))}
        </select>
        {derivedAt != null && (
          <span className="muted small" data-testid="task-remind-at-text">
            Reminds {taskDueText(derivedAt)}
          </span>
        )}
        {err('reminder', 'task-err-reminder')}
      </label>

      {choice === 'repeat' && repeat && <RepeatFields repeat={repeat} onChange={(r) => setReminder({ ...form.reminder, reminder_setting: { remind_in: 'repeat', repeat: r } }, {})} error={problemOf('repeat')} />}

      {choice === 'custom_date' && (
        <div className="field span-2">
          <label htmlFor="task-remind-at-input">Remind at</label>
          <input
            id="task-remind-at-input"
            type="datetime-local"
            data-testid="task-remind-at-input"
            value={toLocalInput(form.reminder.remind_at)}
            min={toLocalInput(now)}
            aria-invalid={!!problemOf('remind_at') || undefined}
            onChange={(e) => {
              const v = fromLocalInput(e.target.value);
              const r = withReminderChoice(form.reminder, 'custom_date', tz, v);
              setReminder(v === null ? { ...r, remind_at: null } : r, { remind_at: true });
            }}
          />
          {err('remind_at', 'task-err-remind-at')}
        </div>
      )}
    </>
  );
}

function RepeatFields({ repeat, onChange, error }: { repeat: Repeat; onChange: (r: Repeat) => void; error?: string }) {
  const [freq, setFreq] = useState(String(repeat.frequency));
  useEffect(() => setFreq(String(repeat.frequency)), [repeat.frequency]);
  return (
    <fieldset className="field span-2 repeat-fields" data-testid="task-repeat">
      <legend>Repeat</legend>
      <span className="inline-inputs">
        <span>Every</span>
        <input
          type="number"
          inputMode="numeric"
          min={1}
          max={365}
          step={1}
          className="repeat-frequency"
          aria-label="Repeat frequency"
          data-testid="task-repeat-frequency"
          value={freq}
          onChange={(e) => {
            setFreq(e.target.value);
            const n = Number(e.target.value);
            if (Number.isInteger(n) && n >= 1 && n <= 365) onChange({ ...repeat, frequency: n });
          }}
          onBlur={() => setFreq(String(repeat.frequency))}
        />
        <select aria-label="Repeat interval" data-testid="task-repeat-interval" value={repeat.interval} onChange={(e) => onChange({ ...repeat, interval: e.target.value as Repeat['interval'] })}>
          {REPEAT_INTERVALS.map((i) => (
            <option key={i} value={i}>
              {i}
            </option>
          ))}
        </select>
      </span>
      <span className="inline-inputs">
        <span>Ends</span>
        <select
          aria-label="Repeat ends"
          data-testid="task-repeat-end"
          value={repeat.end === 'never' ? 'never' : 'on'}
          onChange={(e) => {
            if (e.target.value === 'never') onChange({ ...repeat, end: 'never' });
            else {
              const d = new Date();
              d.setMonth(d.getMonth() + 1);
              d.setHours(23, 59, 59, 999);
              onChange({ ...repeat, end: d.getTime() });
            }
          }}
        >
          <option value="never">Never</option>
          <option value="on">On a date</option>
        </select>
        {repeat.end !== 'never' && (
          <input
            type="date"
            aria-label="Repeat end date"
            data-testid="task-repeat-end-date"
            value={toDayInput(repeat.end)}
            min={toDayInput(Date.now())}
            onChange={(e) => {
              const d = fromDayInput(e.target.value);
              if (d != null) onChange({ ...repeat, end: d + 86_400_000 - 1 });
            }}
          />
        )}
      </span>
      {error && (
        <span className="field-error" role="alert">
          {error}
        </span>
      )}
    </fieldset>
  );
}
